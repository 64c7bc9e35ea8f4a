// `bench --shard=I/N` end to end: the shards of a split hold exactly the
// benchmarks of the unsharded run, for every N from 1 to 7 and filters that
// leave shards empty; the result files name their shard; bad shards are
// usage errors before anything runs; Bazel's variables choose a shard.
#include <gtest/gtest.h>

#include <algorithm>
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

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

// What --benchmark_list_tests prints with `args`, one name per element.
std::vector<std::string> Listed(std::vector<std::string> args,
                                const std::vector<std::string>& env = {}) {
  args.insert(args.begin(), SHARD_FIXTURE_BENCH_PATH);
  args.push_back("--benchmark_list_tests");
  const ProcessResult result = RunProcess(args, env);
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  return Lines(result.stdout_text);
}

std::vector<std::string> Sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

TEST(ShardIntegrationTest, ShardsOfEverySplitHoldExactlyTheUnshardedBenchmarks) {
  for (const std::string filter :
       {"", "--benchmark_filter=Meta", "--benchmark_filter=BM_P", "--benchmark_filter=-Range"}) {
    std::vector<std::string> base_args;
    if (!filter.empty()) base_args.push_back(filter);
    const std::vector<std::string> unsharded = Listed(base_args);
    ASSERT_FALSE(unsharded.empty()) << filter;
    for (size_t total = 1; total <= 7; ++total) {
      std::vector<std::string> union_of_shards;
      size_t empty_shards = 0;
      for (size_t index = 0; index < total; ++index) {
        std::vector<std::string> args = base_args;
        args.push_back("--shard=" + std::to_string(index) + "/" + std::to_string(total));
        const std::vector<std::string> shard = Listed(args);
        if (shard.empty()) ++empty_shards;
        union_of_shards.insert(union_of_shards.end(), shard.begin(), shard.end());
      }
      EXPECT_EQ(Sorted(union_of_shards), Sorted(unsharded))
          << filter << " in " << total << " shards";
      // "BM_P" selects BM_P, BM_P/8 and BM_PX: 4 or more shards leave some empty.
      if (filter == "--benchmark_filter=BM_P" && total > 3) {
        EXPECT_GT(empty_shards, 0u);
      }
    }
  }
}

TEST(ShardIntegrationTest, TheSplitIsRoundRobinInRegistrationOrder) {
  const std::vector<std::string> all = Listed({"--benchmark_filter=BM_Range"});
  ASSERT_EQ(all.size(), 11u);  // 1, 2, 4, ..., 1024
  const std::vector<std::string> second = Listed({"--benchmark_filter=BM_Range", "--shard=1/3"});
  EXPECT_EQ(second, (std::vector<std::string>{all[1], all[4], all[7], all[10]}));
}

TEST(ShardIntegrationTest, InstancesSharingANameRunInOneShard) {
  const std::vector<std::string> zero = Listed({"--benchmark_filter=Twice", "--shard=0/2"});
  const std::vector<std::string> one = Listed({"--benchmark_filter=Twice", "--shard=1/2"});
  EXPECT_EQ(zero, (std::vector<std::string>{"BM_Twice/iterations:10", "BM_Twice/iterations:10"}));
  EXPECT_TRUE(one.empty());
}

// The real run selects what the listing said, names with metacharacters
// included, and its result file names the shard.
TEST(ShardIntegrationTest, RunsWriteTheirShardsBenchmarksAndNameTheShard) {
  const std::vector<std::string> unsharded = Listed({});
  TempDir dir;
  std::vector<std::string> ran;
  for (int index = 0; index < 3; ++index) {
    const std::string shard = std::to_string(index) + "/3";
    const std::string out = dir.File("r." + std::to_string(index) + ".json");
    const ProcessResult result =
        RunProcess({SHARD_FIXTURE_BENCH_PATH, "--shard=" + shard, "--benchmark_out=" + out,
                    "--benchmark_out_format=json", "--benchmark_format=json"});
    ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
    StatusOr<json::Value> doc = json::Parse(ReadFile(out));
    ASSERT_TRUE(doc.ok()) << doc.status().message();
    EXPECT_EQ(doc->Find("context")->Find("benchprof_shard")->as_string(), shard);
    for (const json::Value& row : doc->Find("benchmarks")->as_array()) {
      ran.push_back(row.Find("name")->as_string());
    }
  }
  EXPECT_EQ(Sorted(ran), Sorted(unsharded));
}

TEST(ShardIntegrationTest, AnEmptyShardSaysSoAndWritesAResultFileWithNoBenchmarks) {
  TempDir dir;
  const std::string out = dir.File("r.json");
  const ProcessResult result =
      RunProcess({SHARD_FIXTURE_BENCH_PATH, "--benchmark_filter=BM_PX", "--shard=1/2",
                  "--benchmark_out=" + out, "--benchmark_out_format=json"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_EQ(Lines(result.stderr_text),
            (std::vector<std::string>{"shard_fixture_bench: shard 1/2 is empty (the filter "
                                      "selects 1 benchmarks for 2 shards); the result file holds "
                                      "none"}));
  EXPECT_EQ(result.stdout_text, "");
  StatusOr<json::Value> doc = json::Parse(ReadFile(out));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_TRUE(doc->Find("benchmarks")->as_array().empty());
  EXPECT_EQ(doc->Find("context")->Find("benchprof_shard")->as_string(), "1/2");
}

TEST(ShardIntegrationTest, AFilterThatSelectsNothingIsStillExitThree) {
  const ProcessResult result =
      RunProcess({SHARD_FIXTURE_BENCH_PATH, "--benchmark_filter=NoSuch", "--shard=0/2"});
  EXPECT_EQ(result.exit_code, 3) << result.stderr_text;
}

TEST(ShardIntegrationTest, BadShardsAreOneLineUsageErrorsBeforeAnythingRuns) {
  TempDir dir;
  const std::string out = dir.File("r.json");
  for (const auto& [flag, message] : std::vector<std::pair<std::string, std::string>>{
           {"--shard=5/4", "--shard=5/4: shard index 5 is out of range for 4 shards (0 to 3)"},
           {"--shard=4/4", "--shard=4/4: shard index 4 is out of range for 4 shards (0 to 3)"},
           {"--shard=x",
            "--shard=x: expected I/N, shard I of N counted from 0 (e.g. 2/4, the "
            "third of four)"},
           {"--shard=0/0", "--shard=0/0: the number of shards must be 1 to 100000"},
           {"--shard=-1/4",
            "--shard=-1/4: expected I/N, shard I of N counted from 0 (e.g. 2/4, "
            "the third of four)"},
       }) {
    const ProcessResult result =
        RunProcess({SHARD_FIXTURE_BENCH_PATH, flag, "--benchmark_out=" + out});
    EXPECT_EQ(result.exit_code, 2) << flag;
    EXPECT_EQ(Lines(result.stderr_text),
              (std::vector<std::string>{"shard_fixture_bench: " + message}));
    EXPECT_EQ(result.stdout_text, "") << flag;
    EXPECT_FALSE(FileExists(out)) << flag;
  }
}

TEST(ShardIntegrationTest, BazelsVariablesChooseTheShardAndItsStatusFileIsTouched) {
  TempDir dir;
  const std::string status = dir.File("shard-status");
  const std::vector<std::string> env = {"TEST_TOTAL_SHARDS=3", "TEST_SHARD_INDEX=1",
                                        "TEST_SHARD_STATUS_FILE=" + status};
  EXPECT_EQ(Listed({"--benchmark_filter=BM_Range"}, env),
            Listed({"--benchmark_filter=BM_Range", "--shard=1/3"}));
  EXPECT_TRUE(FileExists(status));
  // The command line wins.
  EXPECT_EQ(Listed({"--benchmark_filter=BM_Range", "--shard=0/3"}, env),
            Listed({"--benchmark_filter=BM_Range", "--shard=0/3"}));
  // GoogleTest's variables are not Bazel's: nothing is left out.
  EXPECT_EQ(Listed({"--benchmark_filter=BM_Range"}, {"GTEST_TOTAL_SHARDS=3", "GTEST_SHARD_INDEX=1"})
                .size(),
            11u);
  const ProcessResult bad = RunProcess({SHARD_FIXTURE_BENCH_PATH, "--benchmark_list_tests"},
                                       {"TEST_TOTAL_SHARDS=3", "TEST_SHARD_INDEX=3"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(Lines(bad.stderr_text),
            (std::vector<std::string>{"shard_fixture_bench: TEST_SHARD_INDEX=3, "
                                      "TEST_TOTAL_SHARDS=3: shard index 3 is out of range for 3 "
                                      "shards (0 to 2)"}));
}

}  // namespace
}  // namespace benchprof
