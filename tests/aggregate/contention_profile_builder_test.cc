// ContentionProfileBuilder on stacks made up from this test binary's own
// functions: Go's block and mutex profile header, merging by (stack, wait,
// run), rounding of scaled counts, labels, and lost events.
#include "aggregate/contention_profile_builder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aggregate/module_map.h"

namespace benchprof::aggregate {
namespace {

using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileLocation;
using encode::ProfileSample;

[[gnu::noinline]] uintptr_t ReturnAddressOfACall() {
  return reinterpret_cast<uintptr_t>(__builtin_return_address(0));
}

const ProfileLabel* FindLabel(const ProfileSample& sample, const std::string& key) {
  for (const ProfileLabel& label : sample.labels) {
    if (label.key == key) return &label;
  }
  return nullptr;
}

class ContentionProfileBuilderTest : public ::testing::Test {
 protected:
  ContentionProfileBuilderTest() : symbolizer_(LoadedModules()) {}

  Symbolizer symbolizer_;
};

TEST_F(ContentionProfileBuilderTest, HeaderIsGosContentionProfile) {
  ContentionProfileBuilder builder(symbolizer_);
  builder.AddEvent(std::vector<uintptr_t>{ReturnAddressOfACall()}, "mutex", 3, 4500,
                   RunLabel{"BM_Lock/threads:2", 2});
  const ProfileData p = builder.Build(1'700'000'000'000'000'000, 9'000, {}, {"note"});
  ASSERT_EQ(p.sample_types.size(), 2u);
  EXPECT_EQ(p.sample_types[0].type, "contentions");
  EXPECT_EQ(p.sample_types[0].unit, "count");
  EXPECT_EQ(p.sample_types[1].type, "delay");
  EXPECT_EQ(p.sample_types[1].unit, "nanoseconds");
  EXPECT_EQ(p.period_type.type, "contentions");
  EXPECT_EQ(p.period_type.unit, "count");
  EXPECT_EQ(p.period, 1);
  EXPECT_EQ(p.default_sample_type, "");  // pprof shows the last type, delay
  EXPECT_EQ(p.time_nanos, 1'700'000'000'000'000'000);
  EXPECT_EQ(p.duration_nanos, 9'000);
  EXPECT_EQ(p.comments, std::vector<std::string>{"note"});
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{3, 4500}));
  ASSERT_NE(FindLabel(p.samples[0], "wait"), nullptr);
  EXPECT_EQ(FindLabel(p.samples[0], "wait")->str, "mutex");
  ASSERT_NE(FindLabel(p.samples[0], "benchmark"), nullptr);
  EXPECT_EQ(FindLabel(p.samples[0], "benchmark")->str, "BM_Lock/threads:2");
  EXPECT_EQ(FindLabel(p.samples[0], "threads")->num, 2);
}

TEST_F(ContentionProfileBuilderTest, EveryFrameIsAReturnAddress) {
  ContentionProfileBuilder builder(symbolizer_);
  const uintptr_t caller = ReturnAddressOfACall();
  builder.AddEvent(std::vector<uintptr_t>{caller}, "thread join", 1, 10, RunLabel{});
  const ProfileData p = builder.Build(0, 0, {});
  ASSERT_EQ(p.samples.size(), 1u);
  const ProfileLocation& leaf = p.locations.at(p.samples[0].location_indexes.at(0));
  EXPECT_EQ(leaf.address, caller - 1);
  ASSERT_FALSE(leaf.lines.empty());
  EXPECT_NE(p.functions.at(leaf.lines[0].function_index).name.find("EveryFrameIsAReturnAddress"),
            std::string::npos);
  EXPECT_EQ(FindLabel(p.samples[0], "benchmark"), nullptr);  // no run: no run labels
}

TEST_F(ContentionProfileBuilderTest, MergesByStackWaitAndRunAndRoundsScaledCounts) {
  ContentionProfileBuilder builder(symbolizer_);
  const std::vector<uintptr_t> stack = {ReturnAddressOfACall()};
  const RunLabel run{"BM_A", 1};
  builder.AddEvent(stack, "mutex", 2.4, 100, run);
  builder.AddEvent(stack, "mutex", 0.3, 50, run);  // the same key: 2.7 events in all
  builder.AddEvent(stack, "condition variable", 1, 7, run);
  builder.AddEvent(stack, "mutex", 1, 9, RunLabel{"BM_B", 1});
  const ProfileData p = builder.Build(0, 0, {});
  ASSERT_EQ(p.samples.size(), 3u);
  int found = 0;
  for (const ProfileSample& sample : p.samples) {
    if (FindLabel(sample, "wait")->str == "mutex" &&
        FindLabel(sample, "benchmark")->str == "BM_A") {
      EXPECT_EQ(sample.values, (std::vector<int64_t>{3, 150}));
      ++found;
    }
  }
  EXPECT_EQ(found, 1);
}

TEST_F(ContentionProfileBuilderTest, LostEventsStayVisible) {
  ContentionProfileBuilder builder(symbolizer_);
  const ProfileData p = builder.Build(0, 0, {.table_full = 5, .unattributed = 2});
  ASSERT_EQ(p.samples.size(), 2u);
  std::vector<std::string> names;
  for (const ProfileSample& sample : p.samples) {
    const ProfileLocation& location = p.locations.at(sample.location_indexes.at(0));
    names.push_back(p.functions.at(location.lines.at(0).function_index).name);
    EXPECT_EQ(sample.values[1], 0);
  }
  EXPECT_EQ(names[0], "[benchprof] lost contention events: table full");
  EXPECT_NE(names[1].find("[benchprof] lost contention events: waits on a lock"),
            std::string::npos);
  EXPECT_EQ(p.samples[0].values[0], 5);
  EXPECT_EQ(p.samples[1].values[0], 2);
}

}  // namespace
}  // namespace benchprof::aggregate
