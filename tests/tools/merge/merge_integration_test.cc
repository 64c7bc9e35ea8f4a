// `benchprof merge` on the shards of real runs (bench --shard=I/4 of the
// CPU fixture): the merged profile's totals are the sum of the shards',
// `go tool pprof -top` reads it and a label focus on one benchmark gives
// that benchmark's samples only; the merged results hold exactly the
// benchmarks of an unsharded run. Bad inputs: a heap and a CPU profile,
// results of different binaries, a file that is neither.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "support/go_pprof.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::FileExists;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunGoPprof;
using testing::RunProcess;
using testing::TempDir;

constexpr int kShards = 4;
// Quick benchmarks of the fixture, each with CPU samples.
constexpr char kFilter[] = "--benchmark_filter=BM_ThreeToOne|BM_Interleaved|BM_QsortCompare";

class MergeIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (SANITIZED_BUILD) GTEST_SKIP() << "profiles of a sanitizer build say little";
  }

  // Runs shard `index` of kShards (or everything, index -1) with a CPU
  // and a heap profile; returns the result file's path.
  std::string RunShard(const std::string& bench, int index, const std::string& tag,
                       const std::string& filter = kFilter) {
    const std::string suffix = tag + (index < 0 ? "all" : std::to_string(index));
    std::vector<std::string> argv = {bench,
                                     filter,
                                     "--benchmark_out=" + dir_.File("r." + suffix + ".json"),
                                     "--benchmark_out_format=json",
                                     "--cpuprofile=" + dir_.File("cpu." + suffix + ".pprof"),
                                     "--memprofile=" + dir_.File("mem." + suffix + ".pprof")};
    if (index >= 0)
      argv.push_back("--shard=" + std::to_string(index) + "/" + std::to_string(kShards));
    const ProcessResult result = RunProcess(argv);
    EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
    return dir_.File("r." + suffix + ".json");
  }

  ProcessResult Merge(std::vector<std::string> args) {
    args.insert(args.begin(), {BENCHPROF_PATH, "merge"});
    return RunProcess(args);
  }

  // `go tool pprof -top` of `args`: the "Total samples = N" of the
  // profile and the samples of the nodes shown ("accounting for N").
  std::pair<long, long> SampleCounts(std::vector<std::string> args) {
    args.insert(args.begin(), {"-top", "-sample_index=samples", "-nodecount=100000"});
    const ProcessResult top = RunGoPprof(GO_PATH, args, dir_);
    EXPECT_EQ(top.exit_code, 0) << top.stderr_text;
    std::smatch total, shown;
    const bool found_total =
        std::regex_search(top.stdout_text, total, std::regex("Total samples = ([0-9]+)"));
    const bool found_shown = std::regex_search(top.stdout_text, shown,
                                               std::regex("Showing nodes accounting for ([0-9]+)"));
    EXPECT_TRUE(found_total && found_shown) << top.stdout_text;
    if (!found_total || !found_shown) return {-1, -1};
    return {std::stol(total[1]), std::stol(shown[1])};
  }

  TempDir dir_;
};

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

TEST_F(MergeIntegrationTest, ShardsMergeIntoTheRunAndTheProfilesIntoTheirSum) {
  if (std::string(GO_PATH).empty()) GTEST_SKIP() << "no go tool (go tool pprof is the oracle)";
  std::vector<std::string> results, profiles;
  for (int i = 0; i < kShards; ++i) {
    results.push_back(RunShard(CPU_FIXTURE_BENCH_PATH, i, ""));
    profiles.push_back(dir_.File("cpu." + std::to_string(i) + ".pprof"));
  }
  const std::string unsharded = RunShard(CPU_FIXTURE_BENCH_PATH, -1, "");

  std::vector<std::string> args = results;
  args.insert(args.end(), {"-o", dir_.File("r.json")});
  ProcessResult merged = Merge(args);
  ASSERT_EQ(merged.exit_code, 0) << merged.stderr_text;
  // Exactly the unsharded run's benchmarks, in its order.
  EXPECT_EQ(BenchmarkNames(dir_.File("r.json")), BenchmarkNames(unsharded));
  StatusOr<json::Value> doc = json::Parse(ReadFile(dir_.File("r.json")));
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->Find("context")->Find("benchprof_shards")->as_string(), "0/4,1/4,2/4,3/4");
  // compare reads it as one run.
  const ProcessResult compare =
      RunProcess({BENCHPROF_PATH, "compare", unsharded, dir_.File("r.json")});
  EXPECT_NE(compare.exit_code, 3) << compare.stderr_text;

  args = profiles;
  args.insert(args.end(), {"-o", dir_.File("cpu.pprof")});
  merged = Merge(args);
  ASSERT_EQ(merged.exit_code, 0) << merged.stderr_text;
  long sum = 0;
  for (const std::string& profile : profiles) sum += SampleCounts({profile}).first;
  const auto [total, shown] = SampleCounts({dir_.File("cpu.pprof")});
  std::printf("shards' CPU samples: %ld; merged: %ld\n", sum, total);
  EXPECT_GT(sum, 0);
  EXPECT_EQ(total, sum);
  EXPECT_EQ(shown, sum);

  // BM_ThreeToOne ran in shard 0: a focus on it gives that shard's samples
  // of it, and nothing of the others.
  const auto [focus_total, focused] =
      SampleCounts({"-tagfocus=benchmark=BM_ThreeToOne", dir_.File("cpu.pprof")});
  const auto [shard_total, shard_focused] =
      SampleCounts({"-tagfocus=benchmark=BM_ThreeToOne", profiles[0]});
  EXPECT_GT(focused, 0);
  EXPECT_EQ(focused, shard_focused);
  EXPECT_LT(focused, sum);
  const ProcessResult tags = RunGoPprof(
      GO_PATH, {"-tags", "-tagfocus=benchmark=BM_ThreeToOne", dir_.File("cpu.pprof")}, dir_);
  EXPECT_NE(tags.stdout_text.find("BM_ThreeToOne"), std::string::npos) << tags.stdout_text;
  EXPECT_EQ(tags.stdout_text.find("BM_Interleaved"), std::string::npos) << tags.stdout_text;
  EXPECT_EQ(tags.stdout_text.find("BM_Qsort"), std::string::npos) << tags.stdout_text;
}

TEST_F(MergeIntegrationTest, AHeapAndACpuProfileAreRefused) {
  RunShard(CPU_FIXTURE_BENCH_PATH, 0, "");
  const ProcessResult merged =
      Merge({dir_.File("cpu.0.pprof"), dir_.File("mem.0.pprof"), "-o", dir_.File("x.pprof")});
  EXPECT_EQ(merged.exit_code, 3);
  EXPECT_EQ(merged.stderr_text,
            "benchprof merge: " + dir_.File("cpu.0.pprof") +
                " (samples/count, cpu/nanoseconds) and " + dir_.File("mem.0.pprof") +
                " (alloc_objects/count, alloc_space/bytes, inuse_objects/count, "
                "inuse_space/bytes) are different kinds of profile\n");
  EXPECT_FALSE(FileExists(dir_.File("x.pprof")));
}

TEST_F(MergeIntegrationTest, ResultsOfDifferentBinariesAreRefusedUnlessAllowed) {
  const std::string cpu = RunShard(CPU_FIXTURE_BENCH_PATH, 0, "cpu");
  const std::string shard =
      RunShard(SHARD_FIXTURE_BENCH_PATH, 1, "shard", "--benchmark_filter=BM_Range");
  ProcessResult merged = Merge({cpu, shard, "-o", dir_.File("x.json")});
  EXPECT_EQ(merged.exit_code, 3);
  EXPECT_NE(merged.stderr_text.find("are results of different benchmark binaries"),
            std::string::npos)
      << merged.stderr_text;
  EXPECT_EQ(std::count(merged.stderr_text.begin(), merged.stderr_text.end(), '\n'), 1);
  EXPECT_FALSE(FileExists(dir_.File("x.json")));
  merged = Merge({cpu, shard, "--allow-different-binaries", "-o", dir_.File("x.json")});
  EXPECT_EQ(merged.exit_code, 0) << merged.stderr_text;
  EXPECT_TRUE(FileExists(dir_.File("x.json")));
}

TEST_F(MergeIntegrationTest, ResultsAndProfilesDoNotMix) {
  const std::string results = RunShard(CPU_FIXTURE_BENCH_PATH, 0, "");
  ProcessResult merged = Merge({results, dir_.File("cpu.0.pprof"), "-o", dir_.File("x")});
  EXPECT_EQ(merged.exit_code, 3);
  EXPECT_EQ(merged.stderr_text, "benchprof merge: " + results + " is a result file and " +
                                    dir_.File("cpu.0.pprof") +
                                    " is not: merge results and profiles separately\n");
  const std::string text = dir_.File("notes.txt");
  std::FILE* file = std::fopen(text.c_str(), "w");
  std::fputs("BenchmarkFoo 1 2 ns/op\n", file);
  std::fclose(file);
  merged = Merge({text, "-o", dir_.File("x")});
  EXPECT_EQ(merged.exit_code, 3);
  EXPECT_NE(merged.stderr_text.find("neither Google Benchmark JSON nor a pprof profile"),
            std::string::npos)
      << merged.stderr_text;
  merged = Merge({results});
  EXPECT_EQ(merged.exit_code, 3);
  EXPECT_EQ(merged.stderr_text,
            "benchprof merge: -o FILE is required (see benchprof merge --help)\n");
  EXPECT_FALSE(FileExists(dir_.File("x")));
}

}  // namespace
}  // namespace benchprof
