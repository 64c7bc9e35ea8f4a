// CpuProfileBuilder on stacks made up from this test binary's own functions:
// Go's CPU header, merged stacks, labels, return-address adjustment, embedded
// symbols, mapping flags and lost samples as visible pseudo-frames.
#include "aggregate/cpu_profile_builder.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace benchprof::aggregate {

using aggregate::CpuProfileBuilder;
using aggregate::LoadedModules;
using aggregate::LostSamples;
using aggregate::RunLabel;
using aggregate::Symbolizer;
using encode::ProfileData;
using encode::ProfileFunction;
using encode::ProfileSample;

namespace {

[[gnu::noinline]] uintptr_t ReturnAddressOfACall() {
  return reinterpret_cast<uintptr_t>(__builtin_return_address(0));
}

const int kLeafLine = __LINE__ + 1;
[[gnu::noinline]] int Leaf(int x) { return x * 7 + 1; }

class CpuProfileBuilderTest : public ::testing::Test {
 protected:
  CpuProfileBuilderTest() : symbolizer_(LoadedModules()), builder_(100, symbolizer_) {}

  const ProfileFunction& FunctionAt(const ProfileData& p, size_t location, size_t line = 0) {
    return p.functions.at(p.locations.at(location).lines.at(line).function_index);
  }

  Symbolizer symbolizer_;
  CpuProfileBuilder builder_;
};

TEST_F(CpuProfileBuilderTest, HeaderIsGosCpuProfile) {
  const uintptr_t leaf = reinterpret_cast<uintptr_t>(&Leaf);
  builder_.AddSample(std::vector<uintptr_t>{leaf}, 3, RunLabel{"BM_X/8/threads:2", 2});
  const ProfileData p = builder_.Build(1'700'000'000'000'000'000, 2'000'000'000, {}, {"note"});
  ASSERT_EQ(p.sample_types.size(), 2u);
  EXPECT_EQ(p.sample_types[0].type, "samples");
  EXPECT_EQ(p.sample_types[0].unit, "count");
  EXPECT_EQ(p.sample_types[1].type, "cpu");
  EXPECT_EQ(p.sample_types[1].unit, "nanoseconds");
  EXPECT_EQ(p.period_type.type, "cpu");
  EXPECT_EQ(p.period_type.unit, "nanoseconds");
  EXPECT_EQ(p.period, 10'000'000);
  EXPECT_EQ(p.time_nanos, 1'700'000'000'000'000'000);
  EXPECT_EQ(p.duration_nanos, 2'000'000'000);
  EXPECT_EQ(p.comments, std::vector<std::string>{"note"});
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{3, 30'000'000}));
  ASSERT_EQ(p.samples[0].labels.size(), 2u);
  EXPECT_EQ(p.samples[0].labels[0].key, "benchmark");
  EXPECT_EQ(p.samples[0].labels[0].str, "BM_X/8/threads:2");
  EXPECT_EQ(p.samples[0].labels[1].key, "threads");
  EXPECT_EQ(p.samples[0].labels[1].num, 2);
  EXPECT_EQ(p.samples[0].labels[1].num_unit, "threads");
}

TEST_F(CpuProfileBuilderTest, LeafIsExactAndCallersAreOneByteBack) {
  const uintptr_t leaf = reinterpret_cast<uintptr_t>(&Leaf);
  const uintptr_t caller = ReturnAddressOfACall();
  builder_.AddSample(std::vector<uintptr_t>{leaf, caller}, 1, RunLabel{"BM_X", 1});
  const ProfileData p = builder_.Build(0, 0, {});
  const ProfileSample& sample = p.samples.at(0);
  ASSERT_EQ(sample.location_indexes.size(), 2u);
  EXPECT_EQ(p.locations[sample.location_indexes[0]].address, leaf);
  EXPECT_EQ(p.locations[sample.location_indexes[1]].address, caller - 1);
  const ProfileFunction& leaf_function = FunctionAt(p, sample.location_indexes[0]);
  EXPECT_EQ(leaf_function.name, "benchprof::aggregate::(anonymous namespace)::Leaf");
  EXPECT_EQ(leaf_function.filename, THIS_SOURCE);
  EXPECT_EQ(leaf_function.start_line, kLeafLine);
  EXPECT_EQ(FunctionAt(p, sample.location_indexes[1]).name,
            "benchprof::aggregate::(anonymous namespace)::CpuProfileBuilderTest_"
            "LeafIsExactAndCallersAreOneByteBack_Test::TestBody");
}

TEST_F(CpuProfileBuilderTest, IdenticalStacksAndLabelsMerge) {
  const uintptr_t leaf = reinterpret_cast<uintptr_t>(&Leaf);
  builder_.AddSample(std::vector<uintptr_t>{leaf}, 1, RunLabel{"BM_A", 1});
  builder_.AddSample(std::vector<uintptr_t>{leaf}, 2, RunLabel{"BM_A", 1});
  builder_.AddSample(std::vector<uintptr_t>{leaf}, 5, RunLabel{"BM_B", 1});
  const ProfileData p = builder_.Build(0, 0, {});
  ASSERT_EQ(p.samples.size(), 2u);
  ASSERT_EQ(p.locations.size(), 1u);
  int64_t a = 0, b = 0;
  for (const ProfileSample& s : p.samples) {
    (s.labels.at(0).str == "BM_A" ? a : b) += s.values.at(0);
  }
  EXPECT_EQ(a, 3);
  EXPECT_EQ(b, 5);
}

TEST_F(CpuProfileBuilderTest, ExecutableMappingComesFirstWithItsFlags) {
  builder_.AddSample(std::vector<uintptr_t>{reinterpret_cast<uintptr_t>(&Leaf)}, 1,
                     RunLabel{"BM_X", 1});
  const ProfileData p = builder_.Build(0, 0, {});
  ASSERT_FALSE(p.mappings.empty());
  EXPECT_TRUE(p.mappings[0].has_functions);
  EXPECT_TRUE(p.mappings[0].has_filenames);
  EXPECT_TRUE(p.mappings[0].has_line_numbers);
  EXPECT_EQ(p.mappings[0].build_id.size(), 40u);
  EXPECT_EQ(p.locations.at(0).mapping_index, 0u);
  // Mappings nothing was sampled in claim nothing.
  for (size_t i = 1; i < p.mappings.size(); ++i) EXPECT_FALSE(p.mappings[i].has_functions);
}

TEST_F(CpuProfileBuilderTest, LostAndTruncatedSamplesStayVisible) {
  builder_.AddSample(std::vector<uintptr_t>{reinterpret_cast<uintptr_t>(&Leaf)}, 4,
                     RunLabel{"BM_X", 1}, /*truncated=*/true);
  const ProfileData p = builder_.Build(0, 0, LostSamples{7, 2});
  std::map<std::string, int64_t> by_root;
  for (const ProfileSample& s : p.samples) {
    const ProfileFunction& root = FunctionAt(p, s.location_indexes.back());
    by_root[root.name] += s.values.at(0);
  }
  EXPECT_EQ(by_root["[benchprof] truncated stack (unwinding failed)"], 4);
  EXPECT_EQ(by_root["[benchprof] lost samples: sample buffer full"], 7);
  EXPECT_EQ(by_root["[benchprof] lost samples: signal while unwinding"], 2);
}

}  // namespace
}  // namespace benchprof::aggregate
