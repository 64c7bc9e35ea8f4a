// The history end to end, as a user runs it, on SQLite and on PostgreSQL
// (a throwaway cluster): the runs of a branch in a real git repository
// recorded with `benchprof history record --repo`, a regression planted at
// one commit (one more allocation, 12% more time) found by `history detect`
// at that commit, pull requests gated with `history gate` against their
// fork point's history, and the trend page written by `history report`.
// The result files are written here, so the values (and the step) are
// known exactly.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "database_test_backend.h"
#include "support/subprocess.h"

namespace benchprof::history {
namespace {

using benchprof::testing::ProcessResult;
using benchprof::testing::ReadFile;
using benchprof::testing::RunProcess;
using benchprof::testing::TempDir;
using testing::BackendName;
using testing::FreshDatabase;

constexpr int kCommits = 12;
constexpr int kPlantedAt = 8;  // the first commit with the regression

// A Google Benchmark JSON result of BM_Parse: 10 repetitions of `time_ns`
// (spread +-1% by a fixed pattern that `salt` shifts) and `allocs` per op.
std::string ResultJson(double time_ns, int allocs, int salt) {
  std::string json =
      "{\"context\": {\"date\": \"2026-11-28T04:00:00+00:00\", \"host_name\": \"ci\", "
      "\"num_cpus\": 2, \"mhz_per_cpu\": 2000, \"library_build_type\": \"release\"},\n"
      "\"benchmarks\": [\n";
  for (int rep = 0; rep < 10; ++rep) {
    const double wobble = ((rep * 7 + salt * 3) % 11 - 5) / 500.0;  // -1% .. +1%
    const double t = time_ns * (1 + wobble);
    if (rep > 0) json += ",\n";
    json += "{\"name\": \"BM_Parse\", \"run_name\": \"BM_Parse\", \"run_type\": \"iteration\", "
            "\"repetitions\": 10, \"repetition_index\": " +
            std::to_string(rep) +
            ", \"threads\": 1, \"iterations\": 1000, \"real_time\": " + std::to_string(t) +
            ", \"cpu_time\": " + std::to_string(t) +
            ", \"time_unit\": \"ns\", \"allocs/op\": " + std::to_string(allocs) +
            ", \"B/op\": " + std::to_string(allocs * 32) + "}";
  }
  return json + "\n]}\n";
}

class HistoryFlowTest : public ::testing::TestWithParam<BackendName> {
 protected:
  void SetUp() override {
    std::string why_not;
    bool must_fail = false;
    db_ = FreshDatabase(GetParam(), &why_not, &must_fail);
    if (db_.empty() && must_fail) FAIL() << why_not;
    if (db_.empty()) GTEST_SKIP() << why_not;
    std::filesystem::create_directory(repo_);
    Git({"init", "-q", "-b", "main"});
    Git({"config", "user.name", "Ci"});
    Git({"config", "user.email", "ci@example.invalid"});
  }

  ProcessResult Git(const std::vector<std::string>& args, int time = 1700000000) {
    std::vector<std::string> argv = {"/usr/bin/env", "GIT_COMMITTER_DATE=@" + std::to_string(time) + " +0000",
                                     "GIT_AUTHOR_DATE=@" + std::to_string(time) + " +0000", "git",
                                     "-C", repo_};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessResult r = RunProcess(argv);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return r;
  }

  std::string Commit(const std::string& subject, int time) {
    Git({"commit", "-q", "--allow-empty", "-m", subject}, time);
    std::string hash = Git({"rev-parse", "HEAD"}).stdout_text;
    while (!hash.empty() && hash.back() == '\n') hash.pop_back();
    return hash;
  }

  std::string WriteResult(const std::string& name, double time_ns, int allocs, int salt) {
    const std::string path = dir_.File(name);
    std::ofstream(path) << ResultJson(time_ns, allocs, salt);
    return path;
  }

  ProcessResult History(std::vector<std::string> args) {
    args.insert(args.begin(), {BENCHPROF_PATH, "history"});
    args.insert(args.begin() + 3, "--db=" + db_);
    return RunProcess(args);
  }

  // Records the history of main: kCommits commits, the regression from
  // kPlantedAt on. Returns the commits' hashes.
  std::vector<std::string> RecordMain() {
    std::vector<std::string> commits;
    for (int i = 0; i < kCommits; ++i) {
      commits.push_back(Commit("commit " + std::to_string(i), 1700000000 + i * 60));
      const bool planted = i >= kPlantedAt;
      const std::string result =
          WriteResult("main" + std::to_string(i) + ".json", planted ? 112 : 100, planted ? 3 : 2, i);
      const ProcessResult r = History({"record", "--repo=" + repo_, result});
      EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
      EXPECT_NE(r.stdout_text.find("on main"), std::string::npos) << r.stdout_text;
    }
    return commits;
  }

  TempDir dir_;
  const std::string repo_ = dir_.File("repo");
  std::string db_;
};

TEST_P(HistoryFlowTest, DetectFindsThePlantedRegressionAtItsCommit) {
  const std::vector<std::string> commits = RecordMain();
  const ProcessResult detect = History({"detect", "--format=json", "BM_Parse"});
  EXPECT_EQ(detect.exit_code, 1) << detect.stdout_text << detect.stderr_text;  // newest: regression
  // The exact metrics at the exact commit; time within one commit of it.
  for (const std::string metric : {"allocs/op", "B/op"}) {
    const ProcessResult one = History({"detect", "--metric=" + metric, "--format=json"});
    EXPECT_EQ(one.exit_code, 1);
    EXPECT_NE(one.stdout_text.find(commits[kPlantedAt]), std::string::npos) << one.stdout_text;
    EXPECT_NE(one.stdout_text.find(commits[kPlantedAt - 1]), std::string::npos) << one.stdout_text;
  }
  const ProcessResult time = History({"detect", "--metric=cpu_time", "--format=json"});
  EXPECT_EQ(time.exit_code, 1);
  bool within_one = false;
  for (int i = kPlantedAt - 1; i <= kPlantedAt + 1; ++i) {
    within_one = within_one ||
                 time.stdout_text.find("\"first_bad\":{\"commit\":\"" + commits[i]) != std::string::npos;
  }
  EXPECT_TRUE(within_one) << time.stdout_text;
  EXPECT_NE(time.stdout_text.find("\"change_point_count\":1,"), std::string::npos) << time.stdout_text;
  const ProcessResult text = History({"detect", "--metric=allocs/op"});
  EXPECT_NE(text.stdout_text.find("+50"), std::string::npos) << text.stdout_text;  // 2 -> 3
  EXPECT_NE(text.stdout_text.find(commits[kPlantedAt].substr(0, 10)), std::string::npos)
      << text.stdout_text;
}

TEST_P(HistoryFlowTest, PullRequestsAreGatedAgainstTheirForkPoint) {
  const std::vector<std::string> commits = RecordMain();

  // Forked from the newest main: its baseline is the level since the
  // change point (112 ns, 3 allocs), so the same values pass...
  Git({"checkout", "-q", "-b", "feature", commits.back()});
  Commit("feature work", 1700009000);
  ProcessResult same = History({"gate", "--repo=" + repo_, WriteResult("pr.json", 112, 3, 5)});
  EXPECT_EQ(same.exit_code, 0) << same.stdout_text << same.stderr_text;
  EXPECT_NE(same.stdout_text.find("main on testbed"), std::string::npos) << same.stdout_text;
  EXPECT_NE(same.stdout_text.find("4 runs"), std::string::npos) << same.stdout_text;
  // ...and one more allocation fails, naming the metric.
  ProcessResult more = History({"gate", "--repo=" + repo_, WriteResult("pr2.json", 112, 4, 5)});
  EXPECT_EQ(more.exit_code, 1) << more.stdout_text << more.stderr_text;
  EXPECT_NE(more.stdout_text.find("allocs/op"), std::string::npos);

  // Forked before the regression: its baseline is main up to the fork point
  // (100 ns, 2 allocs), so main's later level is a regression for it.
  Git({"checkout", "-q", "-b", "old-feature", commits[5]});
  Commit("old feature work", 1700009500);
  ProcessResult old_ok =
      History({"gate", "--repo=" + repo_, WriteResult("old.json", 100, 2, 17)});
  EXPECT_EQ(old_ok.exit_code, 0) << old_ok.stdout_text << old_ok.stderr_text;
  EXPECT_NE(old_ok.stdout_text.find("6 runs"), std::string::npos) << old_ok.stdout_text;
  ProcessResult old_bad =
      History({"gate", "--repo=" + repo_, WriteResult("old2.json", 112, 3, 17)});
  EXPECT_EQ(old_bad.exit_code, 1) << old_bad.stdout_text << old_bad.stderr_text;

  // A branch with no recorded ancestor: inconclusive, one line.
  Git({"checkout", "-q", "--orphan", "unrelated"});
  Commit("unrelated root", 1700009900);
  ProcessResult none = History({"gate", "--repo=" + repo_, WriteResult("u.json", 100, 2, 5)});
  EXPECT_EQ(none.exit_code, 2) << none.stdout_text << none.stderr_text;
  EXPECT_NE(none.stderr_text.find("no run of branch main"), std::string::npos) << none.stderr_text;
}

TEST_P(HistoryFlowTest, ReportDrawsTheTrendPage) {
  const std::vector<std::string> commits = RecordMain();
  const std::string page = dir_.File("trend.html");
  const ProcessResult r = History({"report", "-o", page});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("4 series"), std::string::npos) << r.stdout_text;
  const std::string html = ReadFile(page);
  EXPECT_NE(html.find("BM_Parse"), std::string::npos);
  // The allocs/op change point at run kPlantedAt of its series.
  EXPECT_NE(html.find("{\"i\":" + std::to_string(kPlantedAt) + ","), std::string::npos);
  EXPECT_NE(html.find(commits[kPlantedAt]), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Backends, HistoryFlowTest,
                         ::testing::Values(BackendName::kSqlite, BackendName::kPostgresql),
                         [](const ::testing::TestParamInfo<BackendName>& backend) {
                           return backend.param == BackendName::kSqlite ? "sqlite" : "postgresql";
                         });

}  // namespace
}  // namespace benchprof::history
