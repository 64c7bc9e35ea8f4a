// `benchprof history record` of the shard files of one run (bench
// --shard=I/N): they are stored as one run, the same run as their merged
// file (benchprof merge), whatever order they come in; a shard given twice
// is stored once; shards that are not one run are refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::RunProcess;
using testing::TempDir;

class HistoryShardsTest : public ::testing::Test {
 protected:
  // A shard's result file: `names`, three repetitions each (times 10, 11,
  // 12 ns; allocs/op 2).
  std::string Shard(const std::string& file, const std::string& shard,
                    const std::vector<std::string>& names) {
    std::string text = R"({"context": {"date": "2024-05-01", "executable": "/build/bench", )"
                       R"("library_build_type": "release", "benchprof_shard": ")" +
                       shard + R"("}, "benchmarks": [)";
    bool first = true;
    for (const std::string& name : names) {
      for (int r = 0; r < 3; ++r) {
        if (!first) text += ",";
        first = false;
        text += R"({"name": ")" + name + R"(", "run_name": ")" + name +
                R"(", "run_type": "iteration", "repetitions": 3, "repetition_index": )" +
                std::to_string(r) + R"(, "iterations": 100, "real_time": )" +
                std::to_string(10 + r) + R"(, "cpu_time": )" + std::to_string(10 + r) +
                R"(, "time_unit": "ns", "allocs/op": 2})";
      }
    }
    text += "]}\n";
    const std::string path = dir_.File(file);
    std::FILE* out = std::fopen(path.c_str(), "w");
    std::fwrite(text.data(), 1, text.size(), out);
    std::fclose(out);
    return path;
  }

  ProcessResult Benchprof(std::vector<std::string> args) {
    args.insert(args.begin(), BENCHPROF_PATH);
    // Not in a CI job's pipeline, whatever runs the test.
    return RunProcess(args, {"BENCHPROF_HISTORY_DB=" + dir_.File("history.sqlite"),
                             "GITHUB_RUN_ID=", "CI_PIPELINE_ID="});
  }

  ProcessResult Record(const std::vector<std::string>& files) {
    std::vector<std::string> args = {"history", "record", "--commit=1111111a", "--branch=main",
                                     "--testbed=ci"};
    args.insert(args.end(), files.begin(), files.end());
    return Benchprof(args);
  }

  // The stored values of `metric`: one entry per run and benchmark.
  std::vector<std::pair<std::string, size_t>> Stored(const std::string& metric) {
    const ProcessResult exported =
        Benchprof({"history", "export", "--format=json", "--metric=" + metric});
    EXPECT_EQ(exported.exit_code, 0) << exported.stderr_text;
    std::vector<std::pair<std::string, size_t>> rows;
    StatusOr<json::Value> doc = json::Parse(exported.stdout_text);
    EXPECT_TRUE(doc.ok()) << exported.stdout_text;
    if (!doc.ok()) return rows;
    for (const json::Value& row : doc->as_array()) {
      rows.emplace_back(row.Find("benchmark")->as_string(), row.Find("values")->as_array().size());
    }
    return rows;
  }

  TempDir dir_;
};

TEST_F(HistoryShardsTest, ShardsAreOneRunAndTheSameRunAsTheirMergedFile) {
  const std::string s0 = Shard("r.0.json", "0/3", {"BM_A", "BM_D"});
  const std::string s1 = Shard("r.1.json", "1/3", {"BM_B"});
  const std::string s2 = Shard("r.2.json", "2/3", {"BM_C"});
  ProcessResult recorded = Record({s0, s1, s2});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.stderr_text;
  EXPECT_EQ(recorded.stdout_text.substr(0, 31), "recorded run 1: 4 benchmarks, 3");
  // Every benchmark once, with its three repetitions.
  EXPECT_EQ(Stored("allocs/op"), (std::vector<std::pair<std::string, size_t>>{
                                     {"BM_A", 3}, {"BM_B", 3}, {"BM_C", 3}, {"BM_D", 3}}));

  // The shards in another order, one of them twice: the same run.
  const std::string again = Shard("r.1.retried.json", "1/3", {"BM_B"});
  recorded = Record({s2, again, s1, s0});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.stderr_text;
  EXPECT_EQ(recorded.stdout_text, "already recorded as run 1\n");
  EXPECT_NE(recorded.stderr_text.find("shard 1/3 again"), std::string::npos)
      << recorded.stderr_text;

  // Their merged file: the same run.
  const ProcessResult merged = Benchprof({"merge", s1, s2, s0, "-o", dir_.File("r.json")});
  ASSERT_EQ(merged.exit_code, 0) << merged.stderr_text;
  recorded = Record({dir_.File("r.json")});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.stderr_text;
  EXPECT_EQ(recorded.stdout_text, "already recorded as run 1\n");
  EXPECT_EQ(Stored("allocs/op").size(), 4u);
}

TEST_F(HistoryShardsTest, AMergedFileRecordedFirstIsTheRunItsShardsAre) {
  const std::string s0 = Shard("r.0.json", "0/2", {"BM_A"});
  const std::string s1 = Shard("r.1.json", "1/2", {});  // an empty shard
  ASSERT_EQ(Benchprof({"merge", s0, s1, "-o", dir_.File("r.json")}).exit_code, 0);
  ProcessResult recorded = Record({dir_.File("r.json")});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.stderr_text;
  recorded = Record({s1, s0});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.stderr_text;
  EXPECT_EQ(recorded.stdout_text, "already recorded as run 1\n");
}

TEST_F(HistoryShardsTest, ShardsThatAreNotOneRunAreRefused) {
  const std::string s0 = Shard("r.0.json", "0/2", {"BM_A", "BM_B"});
  const std::string s1 = Shard("r.1.json", "1/2", {"BM_B"});
  ProcessResult recorded = Record({s0, s1});
  EXPECT_EQ(recorded.exit_code, 3);
  EXPECT_EQ(recorded.stderr_text,
            "benchprof history record: " + s0 + " and " + s1 +
                " both hold BM_B: shards of one run hold different benchmarks\n");
  const std::string other_split = Shard("r.1of3.json", "1/3", {"BM_C"});
  recorded = Record({s0, other_split});
  EXPECT_EQ(recorded.exit_code, 3);
  EXPECT_NE(recorded.stderr_text.find("not shards of one split"), std::string::npos)
      << recorded.stderr_text;
  EXPECT_FALSE(testing::FileExists(dir_.File("history.sqlite")));
}

}  // namespace
TEST_F(HistoryShardsTest, EachShardRecordedAloneByItsJobIsAddedToOneRun) {
  const std::string s0 = Shard("s0.json", "0/3", {"BM_A", "BM_D"});
  const std::string s1 = Shard("s1.json", "1/3", {"BM_B"});
  const std::string s2 = Shard("s2.json", "2/3", {"BM_C"});
  // Alone, a shard needs to know its run.
  ProcessResult alone = Record({s1});
  EXPECT_EQ(alone.exit_code, 3);
  EXPECT_NE(alone.stderr_text.find("is shard 1/3 of a run: recorded alone it needs --run-key"),
            std::string::npos)
      << alone.stderr_text;
  // Each CI job records its own: by --run-key, or by the CI system's ids.
  ProcessResult r = Record({"--run-key=pipeline-9", s1});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.substr(0, 47), "recorded shard 1/3 of run pipeline-9 into run 1");
  const auto record_in_job = [&](const std::string& file) {
    std::vector<std::string> args = {BENCHPROF_PATH, "history", "record", "--commit=1111111a",
                                     "--branch=main", "--testbed=ci", file};
    return RunProcess(args, {"BENCHPROF_HISTORY_DB=" + dir_.File("history.sqlite"),
                             "GITHUB_RUN_ID=9", "GITHUB_RUN_ATTEMPT=1"});
  };
  ASSERT_EQ(record_in_job(s0).exit_code, 0);
  ASSERT_EQ(record_in_job(s2).exit_code, 0);
  ASSERT_EQ(record_in_job(s1).exit_code, 0);
  // The key differs (pipeline-9, github:9-1): two runs, the second complete.
  std::map<std::string, int> runs_per_benchmark;
  for (const auto& [name, repetitions] : Stored("cpu_time")) {
    EXPECT_EQ(repetitions, 3u);
    ++runs_per_benchmark[name];
  }
  EXPECT_EQ(runs_per_benchmark,
            (std::map<std::string, int>{{"BM_A", 1}, {"BM_B", 2}, {"BM_C", 1}, {"BM_D", 1}}));
  // A job retried: its shard stored once.
  const ProcessResult retried = record_in_job(s2);
  ASSERT_EQ(retried.exit_code, 0) << retried.stderr_text;
  EXPECT_EQ(retried.stdout_text, "already recorded shard 2/3 of run github:9-1 as run 2\n");
  // --run-key on a file that is no shard's is a mistake.
  const std::string whole = dir_.File("whole.json");
  ASSERT_EQ(Benchprof({"merge", s0, s1, s2, "-o", whole}).exit_code, 0);
  const ProcessResult not_a_shard = Record({"--run-key=x", whole});
  EXPECT_EQ(not_a_shard.exit_code, 3);
  EXPECT_NE(not_a_shard.stderr_text.find("is not a shard's"), std::string::npos);
}

}  // namespace benchprof
