// A user's own MemoryManager and ProfilerManager beside benchprof
// (manager_fixture_bench.cc): each manager sees its extra pass as without
// benchprof, and benchprof's counters and profiles see only the runs. And
// SkipWithMessage (1.8+) is a skip, not a failure.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "benchprof_benchmark_version.h"
#include "common/json_value.h"
#include "encode/pprof_reader.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

constexpr bool kHasProfilerManager = BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10805;
constexpr bool kHasSkipWithMessage = BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10800;

// The fixture's benchmarks: allocations per iteration and their size.
struct Blocks {
  double count;
  double bytes;
};
const std::map<std::string, Blocks> kBlocks = {{"BM_ThreeBlocksOf64", {3, 64}},
                                               {"BM_OneBlockOf4096", {1, 4096}}};

class ManagerPassesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "built without allocation hooks (sanitizer build)";
  }
  TempDir dir_;
};

TEST_F(ManagerPassesTest, EachManagerCountsItsPassAndBenchmemTheRun) {
  const ProcessResult result =
      RunProcess({MANAGER_FIXTURE_BENCH_PATH, "--benchmark_filter=Block", "--benchmem",
                  "--benchmark_format=json", "--benchmark_min_time=0.05"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> doc = json::Parse(result.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const auto& rows = doc->Find("benchmarks")->as_array();
  ASSERT_EQ(rows.size(), kBlocks.size());
  for (const json::Value& row : rows) {
    const std::string name = row.Find("name")->as_string();
    SCOPED_TRACE(name);
    const Blocks& blocks = kBlocks.at(name);
    // benchprof's, of the reported run.
    EXPECT_EQ(row.Find("allocs/op")->as_number(), blocks.count);
    EXPECT_EQ(row.Find("B/op")->as_number(), blocks.count * blocks.bytes);
    // The user's manager's, of its own pass, divided by the pass's
    // iterations (at most 16); the library allocates a little in the pass
    // itself (its thread manager), as it does without benchprof.
    ASSERT_NE(row.Find("allocs_per_iter"), nullptr) << result.stdout_text;
    EXPECT_GE(row.Find("allocs_per_iter")->as_number(), blocks.count);
    EXPECT_LT(row.Find("allocs_per_iter")->as_number(), blocks.count + 1);
  }
  if (kHasProfilerManager) {
    EXPECT_NE(result.stderr_text.find("profiler manager: 2 starts, 2 stops"), std::string::npos)
        << result.stderr_text;
  }
}

// Whether a sample's stack passes through the fixture's Allocate().
bool FromAllocate(const encode::ProfileData& profile, const encode::ProfileSample& sample) {
  for (const size_t index : sample.location_indexes) {
    for (const encode::ProfileLine& line : profile.locations[index].lines) {
      if (profile.functions[line.function_index].name.find("Allocate") != std::string::npos) {
        return true;
      }
    }
  }
  return false;
}

// A pass follows its run; were it taken for a run, it would get a segment
// of its own, and its blocks would be labelled with the next benchmark.
// (The fixture's memory manager times its pass with benchprof's region API,
// so the pass's blocks are in the profile, under their own benchmark.)
TEST_F(ManagerPassesTest, ThePassesAreNotRunsInTheProfiles) {
  const std::string profile_path = dir_.File("mem.pprof");
  const ProcessResult result = RunProcess(
      {MANAGER_FIXTURE_BENCH_PATH, "--benchmark_filter=Block", "--benchmark_min_time=0.05",
       "--memprofile=" + profile_path, "--memprofilerate=1", "--trace=" + dir_.File("trace.json")});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<encode::ProfileData> profile = encode::ReadProfile(ReadFile(profile_path));
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  std::map<std::string, int> samples_by_benchmark;
  for (const encode::ProfileSample& sample : profile->samples) {
    std::string benchmark;
    for (const encode::ProfileLabel& label : sample.labels) {
      if (label.key == "benchmark") benchmark = label.str;
    }
    ASSERT_EQ(kBlocks.count(benchmark), 1u) << "a sample labelled '" << benchmark << "'";
    if (!FromAllocate(*profile, sample)) continue;
    // alloc_objects, alloc_space: every block is one of its own benchmark's.
    EXPECT_EQ(sample.values[1],
              sample.values[0] * static_cast<int64_t>(kBlocks.at(benchmark).bytes))
        << benchmark;
    ++samples_by_benchmark[benchmark];
  }
  EXPECT_EQ(samples_by_benchmark.size(), kBlocks.size());
}

TEST_F(ManagerPassesTest, SkipWithMessageIsASkipNotAFailure) {
  if (!kHasSkipWithMessage) GTEST_SKIP() << "Google Benchmark " << kBenchmarkVersion;
  const ProcessResult json = RunProcess({MANAGER_FIXTURE_BENCH_PATH, "--benchmark_filter=Skips",
                                         "--benchmem", "--benchmark_format=json"});
  EXPECT_EQ(json.exit_code, 0) << json.stderr_text;
  StatusOr<json::Value> doc = json::Parse(json.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const auto& rows = doc->Find("benchmarks")->as_array();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].Find("skipped")->as_bool());
  EXPECT_EQ(rows[0].Find("skip_message")->as_string(), "no GPU here");
  EXPECT_EQ(rows[0].Find("error_occurred"), nullptr);

  const ProcessResult console =
      RunProcess({MANAGER_FIXTURE_BENCH_PATH, "--benchmark_filter=Skips", "--benchmem"});
  EXPECT_EQ(console.exit_code, 0) << console.stderr_text;
  EXPECT_NE(console.stdout_text.find("SKIPPED: 'no GPU here'"), std::string::npos)
      << console.stdout_text;
}

}  // namespace
}  // namespace benchprof
