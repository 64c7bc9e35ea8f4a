// HeapProfileBuilder on stacks made up from this test binary's own
// functions: Go's allocs profile header, the unsampling formula, merging by
// (stack, size, run), in-use figures, labels and lost samples.
#include "aggregate/heap_profile_builder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aggregate/module_map.h"

namespace benchprof::aggregate {

using aggregate::HeapEstimate;
using aggregate::HeapProfileBuilder;
using aggregate::LoadedModules;
using aggregate::LostHeapSamples;
using aggregate::RunLabel;
using aggregate::Symbolizer;
using aggregate::UnsampleHeap;
using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileLocation;
using encode::ProfileSample;

namespace {

[[gnu::noinline]] uintptr_t ReturnAddressOfACall() {
  return reinterpret_cast<uintptr_t>(__builtin_return_address(0));
}

const ProfileLabel* FindLabel(const ProfileSample& sample, const std::string& key) {
  for (const ProfileLabel& label : sample.labels) {
    if (label.key == key) return &label;
  }
  return nullptr;
}

// Values computed with Go's scaleHeapSample (protomem.go) by hand:
// scale = 1 / (1 - exp(-avg/rate)), then truncation.
TEST(UnsampleHeapTest, MatchesGosFormula) {
  const HeapEstimate one = UnsampleHeap(1, 48, 524288);
  EXPECT_EQ(one.objects, 10923);
  EXPECT_EQ(one.bytes, 524312);
  const HeapEstimate pages = UnsampleHeap(3, 3 * 4096, 524288);
  EXPECT_EQ(pages.objects, 385);
  EXPECT_EQ(pages.bytes, 1579015);
  const HeapEstimate big = UnsampleHeap(10, 10 * 1'000'000, 524288);
  EXPECT_EQ(big.objects, 11);
  EXPECT_EQ(big.bytes, 11743616);
}

TEST(UnsampleHeapTest, RateOneAndEmptyAreExact) {
  EXPECT_EQ(UnsampleHeap(7, 700, 1).objects, 7);
  EXPECT_EQ(UnsampleHeap(7, 700, 1).bytes, 700);
  EXPECT_EQ(UnsampleHeap(0, 0, 524288).objects, 0);
  EXPECT_EQ(UnsampleHeap(5, 0, 524288).bytes, 0);  // zero-size objects: nothing to scale
}

class HeapProfileBuilderTest : public ::testing::Test {
 protected:
  HeapProfileBuilderTest() : symbolizer_(LoadedModules()) {}

  Symbolizer symbolizer_;
};

TEST_F(HeapProfileBuilderTest, HeaderIsGosAllocsProfile) {
  HeapProfileBuilder builder(524288, symbolizer_);
  const uintptr_t caller = ReturnAddressOfACall();
  builder.AddBucket(std::vector<uintptr_t>{caller}, 48, 1, 0, RunLabel{"BM_X", 1});
  const ProfileData p = builder.Build(1'700'000'000'000'000'000, 5'000, {}, {"note"});
  ASSERT_EQ(p.sample_types.size(), 4u);
  EXPECT_EQ(p.sample_types[0].type, "alloc_objects");
  EXPECT_EQ(p.sample_types[0].unit, "count");
  EXPECT_EQ(p.sample_types[1].type, "alloc_space");
  EXPECT_EQ(p.sample_types[1].unit, "bytes");
  EXPECT_EQ(p.sample_types[2].type, "inuse_objects");
  EXPECT_EQ(p.sample_types[2].unit, "count");
  EXPECT_EQ(p.sample_types[3].type, "inuse_space");
  EXPECT_EQ(p.sample_types[3].unit, "bytes");
  EXPECT_EQ(p.period_type.type, "space");
  EXPECT_EQ(p.period_type.unit, "bytes");
  EXPECT_EQ(p.period, 524288);
  EXPECT_EQ(p.default_sample_type, "alloc_space");
  EXPECT_EQ(p.time_nanos, 1'700'000'000'000'000'000);
  EXPECT_EQ(p.duration_nanos, 5'000);
  EXPECT_EQ(p.comments, std::vector<std::string>{"note"});
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{10923, 524312, 10923, 524312}));
  const ProfileLabel* bytes = FindLabel(p.samples[0], "bytes");
  ASSERT_NE(bytes, nullptr);
  EXPECT_EQ(bytes->num, 48);
  EXPECT_EQ(bytes->num_unit, "bytes");
  ASSERT_NE(FindLabel(p.samples[0], "benchmark"), nullptr);
  EXPECT_EQ(FindLabel(p.samples[0], "benchmark")->str, "BM_X");
}

TEST_F(HeapProfileBuilderTest, EveryFrameIsAReturnAddress) {
  HeapProfileBuilder builder(1, symbolizer_);
  const uintptr_t caller = ReturnAddressOfACall();
  builder.AddBucket(std::vector<uintptr_t>{caller}, 8, 1, 1, RunLabel{});
  const ProfileData p = builder.Build(0, 0, {});
  ASSERT_EQ(p.samples.size(), 1u);
  const ProfileLocation& leaf = p.locations.at(p.samples[0].location_indexes.at(0));
  EXPECT_EQ(leaf.address, caller - 1);
  ASSERT_FALSE(leaf.lines.empty());
  EXPECT_NE(p.functions.at(leaf.lines[0].function_index).name.find("EveryFrameIsAReturnAddress"),
            std::string::npos);
}

TEST_F(HeapProfileBuilderTest, MergesDuplicateBucketsAndKeepsSizesApart) {
  HeapProfileBuilder builder(1, symbolizer_);
  const std::vector<uintptr_t> stack = {ReturnAddressOfACall()};
  const RunLabel run{"BM_Y", 2};
  builder.AddBucket(stack, 16, 10, 4, run);
  builder.AddBucket(stack, 16, 5, 5, run);  // the same key, recorded twice
  builder.AddBucket(stack, 32, 3, 0, run);
  builder.AddBucket(stack, 16, 1, 0, RunLabel{"BM_Z", 1});
  const ProfileData p = builder.Build(0, 0, {});
  ASSERT_EQ(p.samples.size(), 3u);
  int64_t objects16 = 0, inuse16 = 0, objects32 = 0;
  for (const ProfileSample& sample : p.samples) {
    const int64_t size = FindLabel(sample, "bytes")->num;
    if (size == 16 && FindLabel(sample, "benchmark")->str == "BM_Y") {
      objects16 += sample.values[0];
      inuse16 += sample.values[2];
      EXPECT_EQ(sample.values[1], 15 * 16);
      EXPECT_EQ(sample.values[3], 6 * 16);
      EXPECT_EQ(FindLabel(sample, "threads")->num, 2);
    }
    if (size == 32) objects32 += sample.values[0];
  }
  EXPECT_EQ(objects16, 15);
  EXPECT_EQ(inuse16, 6);
  EXPECT_EQ(objects32, 3);
}

TEST_F(HeapProfileBuilderTest, LostSamplesAreAVisiblePseudoFrame) {
  HeapProfileBuilder builder(1, symbolizer_);
  const ProfileData p = builder.Build(0, 0, LostHeapSamples{4, 400});
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{4, 400, 0, 0}));
  const ProfileLocation& location = p.locations.at(p.samples[0].location_indexes.at(0));
  EXPECT_EQ(p.functions.at(location.lines.at(0).function_index).name,
            "[benchprof] lost samples: heap sample table full");
}

}  // namespace
}  // namespace benchprof::aggregate
