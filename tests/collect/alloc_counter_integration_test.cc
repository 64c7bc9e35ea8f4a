// --benchmem end to end: benchmarks with known allocations per iteration
// (tests/fixtures/alloc_fixture_bench.cc) must report exactly those
// allocs/op and B/op, in every loop style, thread layout and output format.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/json_value.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::RunProcess;

struct Expected {
  double allocs_per_op;
  double bytes_per_op;
};

// run_name -> figures; see the comments in alloc_fixture_bench.cc.
const std::map<std::string, Expected>& ExpectedFigures() {
  static const auto* figures = new std::map<std::string, Expected>{
      {"BM_NoAlloc", {0, 0}},
      {"BM_NewArray64", {1, 64}},
      {"BM_NewThreeSizes", {3, 1108}},
      {"BM_NewForms", {4, 394}},
      {"BM_Malloc48", {1, 48}},
      {"BM_CAllocatorFamily", {6, 894}},
      {"BM_Strdup", {1, 12}},
      {"BM_StdString", {1, 101}},
      {"BM_PausedExcluded", {1, 32}},
      {"BM_Args/1", {1, 32}},
      {"BM_Args/4", {4, 128}},
      {"BM_Threads/threads:2", {1, 40}},
      {"BM_ThreadsUneven/threads:2", {1, 16}},
      {"BM_OwnWorkerPool/real_time", {6, 144}},
      {"AllocFixture/TwoSmall", {2, 20}},
      {"BM_KeepRunning", {1, 16}},
      {"BM_KeepRunningBatch", {1, 8}},
  };
  return *figures;
}

json::Value RunJson(const std::vector<std::string>& extra_args) {
  std::vector<std::string> argv = {ALLOC_FIXTURE_BENCH_PATH, "--benchmem",
                                   "--benchmark_format=json", "--benchmark_min_time=0.02"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  const ProcessResult result = RunProcess(argv);
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> parsed = json::Parse(result.stdout_text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().message() << "\n" << result.stdout_text;
  return parsed.ok() ? *parsed : json::Value();
}

double Number(const json::Value& row, const char* key) {
  const json::Value* value = row.Find(key);
  EXPECT_NE(value, nullptr) << "missing " << key;
  return value != nullptr && value->is_number() ? value->as_number() : -1;
}

class AllocCounterIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "built without allocation hooks (sanitizer build)";
  }
};

TEST_F(AllocCounterIntegrationTest, EveryBenchmarkReportsExactFigures) {
  const json::Value doc = RunJson({"--benchmark_filter=-ReportsError"});
  const json::Value* rows = doc.Find("benchmarks");
  ASSERT_NE(rows, nullptr);
  std::map<std::string, int> seen;
  for (const json::Value& row : rows->as_array()) {
    const std::string name = row.Find("run_name")->as_string();
    SCOPED_TRACE(name);
    auto expected = ExpectedFigures().find(name);
    ASSERT_NE(expected, ExpectedFigures().end()) << "no expectation for " << name;
    EXPECT_GT(Number(row, "iterations"), 0);
    EXPECT_EQ(Number(row, "allocs/op"), expected->second.allocs_per_op);
    EXPECT_EQ(Number(row, "B/op"), expected->second.bytes_per_op);
    ++seen[name];
  }
  EXPECT_EQ(seen.size(), ExpectedFigures().size());
}

TEST_F(AllocCounterIntegrationTest, AggregatesOfRepetitionsAreExact) {
  const json::Value doc =
      RunJson({"--benchmark_filter=BM_NewThreeSizes|BM_Threads/", "--benchmark_repetitions=3"});
  int aggregates = 0;
  for (const json::Value& row : doc.Find("benchmarks")->as_array()) {
    const std::string name = row.Find("name")->as_string();
    const Expected& expected = ExpectedFigures().at(row.Find("run_name")->as_string());
    SCOPED_TRACE(name);
    if (row.Find("run_type")->as_string() != "aggregate") {
      EXPECT_EQ(Number(row, "allocs/op"), expected.allocs_per_op);
      continue;
    }
    const std::string aggregate = row.Find("aggregate_name")->as_string();
    if (aggregate == "mean" || aggregate == "median") {
      ++aggregates;
      EXPECT_EQ(Number(row, "allocs/op"), expected.allocs_per_op);
      EXPECT_EQ(Number(row, "B/op"), expected.bytes_per_op);
    } else if (aggregate == "stddev") {
      EXPECT_EQ(Number(row, "allocs/op"), 0);
    }
  }
  EXPECT_EQ(aggregates, 4);
}

TEST_F(AllocCounterIntegrationTest, RandomInterleavingKeepsFiguresPerBenchmark) {
  const json::Value doc =
      RunJson({"--benchmark_filter=BM_NoAlloc|BM_Malloc48|BM_Args", "--benchmark_repetitions=2",
               "--benchmark_enable_random_interleaving=true"});
  int rows = 0;
  for (const json::Value& row : doc.Find("benchmarks")->as_array()) {
    if (row.Find("run_type")->as_string() != "iteration") continue;
    const Expected& expected = ExpectedFigures().at(row.Find("run_name")->as_string());
    EXPECT_EQ(Number(row, "allocs/op"), expected.allocs_per_op);
    ++rows;
  }
  EXPECT_EQ(rows, 8);
}

TEST_F(AllocCounterIntegrationTest, CountersAppearInConsoleAndCsv) {
  ProcessResult console =
      RunProcess({ALLOC_FIXTURE_BENCH_PATH, "--benchmem",
                  "--benchmark_filter=BM_NewThreeSizes|BM_NoAlloc", "--benchmark_min_time=0.01"});
  ASSERT_EQ(console.exit_code, 0) << console.stderr_text;
  EXPECT_NE(console.stdout_text.find("B/op=1.108k allocs/op=3"), std::string::npos)
      << console.stdout_text;
  EXPECT_NE(console.stdout_text.find("B/op=0 allocs/op=0"), std::string::npos)
      << console.stdout_text;

  ProcessResult csv = RunProcess({ALLOC_FIXTURE_BENCH_PATH, "--benchmem",
                                  "--benchmark_filter=BM_NewThreeSizes|BM_NoAlloc",
                                  "--benchmark_min_time=0.01", "--benchmark_format=csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.stderr_text;
  EXPECT_NE(csv.stdout_text.find("\"B/op\",\"allocs/op\""), std::string::npos) << csv.stdout_text;
  EXPECT_NE(csv.stdout_text.find(",1108,3"), std::string::npos) << csv.stdout_text;
}

TEST_F(AllocCounterIntegrationTest, WithoutBenchmemNoCountersArePublished) {
  ProcessResult result =
      RunProcess({ALLOC_FIXTURE_BENCH_PATH, "--benchmark_format=json",
                  "--benchmark_filter=BM_NewArray64", "--benchmark_min_time=0.01"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> doc = json::Parse(result.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const json::Value& row = doc->Find("benchmarks")->as_array().at(0);
  EXPECT_EQ(row.Find("allocs/op"), nullptr);
  EXPECT_EQ(doc->Find("context")->Find("benchprof_benchmem")->as_string(), "false");
}

}  // namespace
}  // namespace benchprof
