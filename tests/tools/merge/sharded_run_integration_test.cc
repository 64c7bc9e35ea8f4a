// ci/sharded-run end to end: N shards run one after another and merged
// hold exactly the benchmarks of an unsharded run, in its order, for splits
// that leave shards empty too; the profiles are merged beside them. And its
// cost on the project's own suite: the shards' times, start-up included,
// against one unsharded run (printed; a generous bound asserted).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::FileExists;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

const std::string kScript = std::string(SOURCE_DIR) + "/ci/sharded-run";

std::vector<std::string> BenchmarkNames(const std::string& path) {
  std::vector<std::string> names;
  StatusOr<json::Value> doc = json::Parse(ReadFile(path));
  EXPECT_TRUE(doc.ok()) << path << ": " << doc.status().message();
  if (!doc.ok()) return names;
  for (const json::Value& row : doc->Find("benchmarks")->as_array()) {
    names.push_back(row.Find("name")->as_string());
  }
  return names;
}

ProcessResult ShardedRun(const std::string& bench, std::vector<std::string> args) {
  args.insert(args.begin(), {kScript, "--bench=" + bench, "--benchprof=" BENCHPROF_PATH});
  return RunProcess(args);
}

TEST(ShardedRunIntegrationTest, TheMergedRunHoldsExactlyTheUnshardedBenchmarks) {
  TempDir dir;
  for (const std::string filter : {"--benchmark_filter=.", "--benchmark_filter=BM_P"}) {
    const std::string unsharded = dir.File("all.json");
    const ProcessResult all =
        RunProcess({SHARD_FIXTURE_BENCH_PATH, filter, "--benchmark_out=" + unsharded});
    ASSERT_EQ(all.exit_code, 0) << all.stderr_text;
    for (const char* shards : {"1", "3", "7"}) {
      const std::string merged = dir.File("merged.json");
      const ProcessResult run =
          ShardedRun(SHARD_FIXTURE_BENCH_PATH, {shards, filter, "--benchmark_out=" + merged});
      ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
      EXPECT_EQ(BenchmarkNames(merged), BenchmarkNames(unsharded)) << filter << ", " << shards;
      // One line per shard with its time, and the total.
      EXPECT_TRUE(std::regex_search(
          run.stderr_text,
          std::regex("sharded-run: " + std::string(shards) + " shards: [0-9.]+ s")))
          << run.stderr_text;
    }
  }
}

TEST(ShardedRunIntegrationTest, ProfilesAreMergedBesideTheResults) {
  if (SANITIZED_BUILD) GTEST_SKIP() << "profiles of a sanitizer build say little";
  TempDir dir;
  const ProcessResult run =
      ShardedRun(SHARD_FIXTURE_BENCH_PATH,
                 {"2", "--benchmark_filter=BM_Range", "--benchmark_out=" + dir.File("r.json"),
                  "--cpuprofile=" + dir.File("cpu.pprof")});
  ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
  EXPECT_TRUE(FileExists(dir.File("cpu.pprof")));
  EXPECT_TRUE(FileExists(dir.File("sharded-run.d/0/cpu.pprof")));
  EXPECT_TRUE(FileExists(dir.File("sharded-run.d/1/r.json")));
  EXPECT_EQ(BenchmarkNames(dir.File("r.json")).size(), 11u);
}

TEST(ShardedRunIntegrationTest, BadUsageIsRefused) {
  EXPECT_EQ(ShardedRun(SHARD_FIXTURE_BENCH_PATH, {"0"}).exit_code, 2);
  EXPECT_EQ(ShardedRun(SHARD_FIXTURE_BENCH_PATH, {"x"}).exit_code, 2);
  EXPECT_EQ(ShardedRun(SHARD_FIXTURE_BENCH_PATH, {"2", "--shard=0/2"}).exit_code, 2);
  // A shard's failure is the run's: a filter that selects nothing.
  TempDir dir;
  EXPECT_EQ(ShardedRun(SHARD_FIXTURE_BENCH_PATH,
                       {"2", "--benchmark_filter=NoSuch", "--benchmark_out=" + dir.File("r.json")})
                .exit_code,
            3);
  EXPECT_FALSE(FileExists(dir.File("r.json")));
}

double Seconds(const std::vector<std::string>& argv, ProcessResult* result) {
  const auto start = std::chrono::steady_clock::now();
  *result = RunProcess(argv);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The target: the shards add up to the unsharded suite's time
// within 10%, each process's start-up counted. Timings on a shared machine
// vary more than that, so the bound asserted is generous; the figures are
// printed.
TEST(ShardedRunIntegrationTest, ShardsAddUpToTheUnshardedSuitesTime) {
  if (SANITIZED_BUILD) GTEST_SKIP() << "timings of a sanitizer build say little";
  TempDir dir;
  const std::vector<std::string> flags = {"--benchmark_filter=Alg|Render",
                                          "--benchmark_min_time=0.05", "--benchmem"};
  std::vector<std::string> argv = {BENCH_PATH, "--benchmark_out=" + dir.File("all.json")};
  argv.insert(argv.end(), flags.begin(), flags.end());
  ProcessResult unsharded;
  const double one = Seconds(argv, &unsharded);
  ASSERT_EQ(unsharded.exit_code, 0) << unsharded.stderr_text;
  argv = {"4", "--benchmark_out=" + dir.File("merged.json")};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.begin(), {kScript, "--bench=" BENCH_PATH, "--benchprof=" BENCHPROF_PATH});
  ProcessResult sharded;
  const double four = Seconds(argv, &sharded);
  ASSERT_EQ(sharded.exit_code, 0) << sharded.stderr_text;
  std::smatch shards_time;
  ASSERT_TRUE(std::regex_search(sharded.stderr_text, shards_time,
                                std::regex("sharded-run: 4 shards: ([0-9.]+) s")));
  const double shards = std::stod(shards_time[1]);
  std::printf(
      "unsharded: %.2f s; 4 shards one after another: %.2f s (%+.1f%%); with the merge: %.2f s\n",
      one, shards, 100 * (shards / one - 1), four);
  EXPECT_EQ(BenchmarkNames(dir.File("merged.json")), BenchmarkNames(dir.File("all.json")));
  EXPECT_LT(shards, 1.5 * one);
}

}  // namespace
}  // namespace benchprof
