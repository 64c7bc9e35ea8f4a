// The gate against history on series built here: which runs make the
// baseline (the head's ancestry only, after the last change point, the
// newest max_runs, never the head's own run), and how the head is judged
// against it (the compare engine's rules, plus the baseline-spread rule).
#include "tools/history/history_gate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace benchprof::history {
namespace {

using compare::Outcome;
using compare::Verdict;

std::string Commit(int i) { return "c" + std::to_string(i); }

// The head's first-parent chain: commits n-1 .. 0, newest first.
std::vector<std::string> Chain(int n) {
  std::vector<std::string> chain;
  for (int i = n - 1; i >= 0; --i) chain.push_back(Commit(i));
  return chain;
}

results::MetricInfo TimeInfo() { return {"ns/op", results::MetricKind::kTime, false, false}; }
results::MetricInfo AllocsInfo() { return {"allocs/op", results::MetricKind::kExact, false, false}; }

// A series of `medians.size()` runs at commits c0, c1, ..., each run's
// repetitions spread +-0.1% around its median.
Series MakeSeries(const std::string& metric, const results::MetricInfo& info,
                  const std::vector<double>& medians) {
  Series s{{"BM_X", metric, "tb", "main"}, info, {}};
  for (size_t i = 0; i < medians.size(); ++i) {
    SeriesPoint p;
    p.run_id = static_cast<int64_t>(i + 1);
    p.commit = Commit(static_cast<int>(i));
    p.recorded_at_ns = static_cast<int64_t>(i);
    for (double f : {0.999, 0.9995, 1.0, 1.0005, 1.001}) p.values.push_back(medians[i] * f);
    p.median = medians[i];
    s.points.push_back(p);
  }
  return s;
}

// A head run of BM_X: `time` in 5 repetitions (+-0.1%), `allocs` constant.
results::ResultSet Head(double time, double allocs) {
  results::ResultSet head;
  head.format = results::InputFormat::kGoogleBenchmarkJson;
  head.files = {"head.json"};
  results::BenchmarkSamples b{"BM_X", "cpu_time", {}};
  std::vector<double> times;
  for (double f : {0.999, 0.9995, 1.0, 1.0005, 1.001}) times.push_back(time * f);
  b.metrics.emplace_back("cpu_time", times);
  b.metrics.emplace_back("allocs/op", std::vector<double>(5, allocs));
  head.index.emplace("BM_X", 0);
  head.benchmarks.push_back(b);
  head.metrics.emplace("cpu_time", TimeInfo());
  head.metrics.emplace("allocs/op", AllocsInfo());
  return head;
}

// A head run of BM_X with the repetitions `times` and no allocation.
results::ResultSet HeadOf(const std::vector<double>& times) {
  results::ResultSet head = Head(100, 0);
  head.benchmarks[0].metrics[0].second = times;
  head.benchmarks[0].metrics[1].second = std::vector<double>(times.size(), 0);
  return head;
}

// Run medians alternating around 100 by +-`spread` (a runner whose level
// moves between runs, not within one).
std::vector<double> Alternating(int n, double spread) {
  std::vector<double> medians;
  for (int i = 0; i < n; ++i) medians.push_back(100 * (1 + ((i % 4) - 1.5) / 1.5 * spread));
  return medians;
}

TEST(HistoryBaselineTest, PoolsTheNewestRunsOnTheHeadsChain) {
  const Series s = MakeSeries("cpu_time", TimeInfo(), Alternating(30, 0.01));
  BaselineOptions options;
  options.max_runs = 8;
  const HistoryBaseline b = SelectBaseline({s}, Chain(30), Head(100, 0), options);
  EXPECT_EQ(b.runs, 8u);
  ASSERT_EQ(b.commits.size(), 8u);
  EXPECT_EQ(b.commits.front(), Commit(22));
  EXPECT_EQ(b.commits.back(), Commit(29));
  ASSERT_NE(b.samples.Find("BM_X"), nullptr);
  EXPECT_EQ(b.samples.Find("BM_X")->Find("cpu_time")->size(), 8u * 5);
  EXPECT_EQ(b.samples.Find("BM_X")->time_metric, "cpu_time");
}

TEST(HistoryBaselineTest, LeavesOutRunsOffTheChainAndTheHeadsOwnRun) {
  const Series s = MakeSeries("cpu_time", TimeInfo(), Alternating(10, 0.01));
  // The head descends from c0..c5 only: c6..c9 are another branch's.
  BaselineOptions options;
  options.exclude_run_id = 6;  // c5's run: the head itself, recorded already
  const HistoryBaseline b = SelectBaseline({s}, Chain(6), Head(100, 0), options);
  EXPECT_EQ(b.commits, (std::vector<std::string>{Commit(0), Commit(1), Commit(2), Commit(3),
                                                 Commit(4)}));
}

TEST(HistoryBaselineTest, StartsAfterTheLastChangePoint) {
  std::vector<double> medians(40, 100);
  std::fill(medians.begin() + 25, medians.end(), 130);
  const Series s = MakeSeries("allocs/op", AllocsInfo(), medians);
  const HistoryBaseline b = SelectBaseline({s}, Chain(40), Head(100, 130), BaselineOptions{});
  EXPECT_EQ(b.runs, 15u);
  EXPECT_EQ(b.commits.front(), Commit(25));
  ASSERT_TRUE(b.cut_at.contains({"BM_X", "allocs/op"}));
  EXPECT_EQ(b.cut_at.at({"BM_X", "allocs/op"}).first_bad_commit, Commit(25));
}

TEST(HistoryBaselineTest, AChangeAtTheNewestRunsDoesNotCutIt) {
  // The detector reports a step at the newest run at once; a baseline of
  // that one run would be no baseline.
  std::vector<double> medians(20, 2);
  medians[19] = 3;
  const Series s = MakeSeries("allocs/op", AllocsInfo(), medians);
  const HistoryBaseline b = SelectBaseline({s}, Chain(20), Head(100, 3), BaselineOptions{});
  EXPECT_EQ(b.runs, 20u);
  EXPECT_TRUE(b.cut_at.empty());
  medians[17] = medians[18] = 3;  // three runs: a level
  const HistoryBaseline cut = SelectBaseline({MakeSeries("allocs/op", AllocsInfo(), medians)},
                                             Chain(20), Head(100, 3), BaselineOptions{});
  EXPECT_EQ(cut.runs, 3u);
}

TEST(HistoryGateTest, AHeadWithinTheBaselinesNoiseIsNoRegression) {
  // Run medians 90, 96.7, 103.3, 110, ... (a runner whose level moves
  // between runs): the pooled median is 100, the second-worst run 110, so
  // the noise ceiling is 110 + 5% = 115.5. A head at 112 is 12% above the
  // pooled median and significant against 100 tightly pooled repetitions,
  // but baseline runs were about as slow.
  const Series time = MakeSeries("cpu_time", TimeInfo(), Alternating(20, 0.10));
  const Series allocs = MakeSeries("allocs/op", AllocsInfo(), std::vector<double>(20, 2));
  const HistoryBaseline b =
      SelectBaseline({time, allocs}, Chain(20), Head(112, 2), BaselineOptions{});
  const compare::Comparison c =
      JudgeAgainstHistory(b, "main: 20 runs", Head(112, 2), compare::CompareOptions{});
  EXPECT_EQ(c.verdict, Verdict::kNoRegression);
  const auto row = std::find_if(c.rows.begin(), c.rows.end(),
                                [](const compare::Row& r) { return r.metric == "cpu_time"; });
  ASSERT_NE(row, c.rows.end());
  EXPECT_EQ(row->outcome, Outcome::kWithinThreshold);
  EXPECT_NE(row->reason.find("115.5"), std::string::npos) << row->reason;
  EXPECT_EQ(c.base_files, std::vector<std::string>{"main: 20 runs"});

  // Without the rule the same data is a regression: the rule decided.
  const compare::Comparison pooled = compare::Compare(b.samples, Head(112, 2), {});
  EXPECT_EQ(pooled.verdict, Verdict::kRegression);
  // Beyond the ceiling it regresses.
  EXPECT_EQ(JudgeAgainstHistory(b, "main", Head(118, 2), {}).verdict, Verdict::kRegression);
}

TEST(HistoryGateTest, ANeighbourSlowingSomeRunsIsNoRegression) {
  // 12 quiet runs at 100 and 8 runs slowed 6% by a neighbour on the runner,
  // each run's repetitions tight: the pooled median is 100, so a head slowed
  // the same way is +6% and significant, and the runs' median absolute
  // deviation is small (most runs are quiet). Two and more baseline runs
  // were as slow: no regression.
  std::vector<double> medians(20, 100);
  for (int i : {1, 4, 6, 9, 11, 14, 16, 19}) medians[i] = 106;
  const Series time = MakeSeries("cpu_time", TimeInfo(), medians);
  const Series allocs = MakeSeries("allocs/op", AllocsInfo(), std::vector<double>(20, 0));
  const HistoryBaseline b =
      SelectBaseline({time, allocs}, Chain(20), Head(106.2, 0), BaselineOptions{});
  EXPECT_EQ(compare::Compare(b.samples, Head(106.2, 0), {}).verdict, Verdict::kRegression);
  EXPECT_EQ(JudgeAgainstHistory(b, "main", Head(106.2, 0), {}).verdict, Verdict::kNoRegression);
}

TEST(HistoryGateTest, AHeadWhoseRepetitionsScatterAcrossTheCeilingIsNoClearRegression) {
  // Runs at 98 to 102: the ceiling is 107.1. Both heads have the median 112;
  // one's 10 repetitions are tight, the other's scatter from 100 to 124 (a
  // neighbour busy for part of the run), so its median's 95% interval
  // reaches below the ceiling.
  const Series time = MakeSeries("cpu_time", TimeInfo(), Alternating(20, 0.02));
  const Series allocs = MakeSeries("allocs/op", AllocsInfo(), std::vector<double>(20, 0));
  const std::vector<double> tight = {111.5, 111.6, 111.7, 111.8, 111.9,
                                     112.1, 112.2, 112.3, 112.4, 112.5};
  const std::vector<double> scattered = {100, 101, 103, 106, 111, 113, 118, 120, 122, 124};
  const HistoryBaseline b = SelectBaseline({time, allocs}, Chain(20), HeadOf(tight), {});
  EXPECT_EQ(JudgeAgainstHistory(b, "main", HeadOf(tight), {}).verdict, Verdict::kRegression);
  const compare::Comparison c = JudgeAgainstHistory(b, "main", HeadOf(scattered), {});
  EXPECT_EQ(c.verdict, Verdict::kNoRegression);
  EXPECT_EQ(compare::Compare(b.samples, HeadOf(scattered), {}).verdict, Verdict::kRegression);
  const auto row = std::find_if(c.rows.begin(), c.rows.end(),
                                [](const compare::Row& r) { return r.metric == "cpu_time"; });
  ASSERT_NE(row, c.rows.end());
  EXPECT_NE(row->reason.find("confidence interval reaches"), std::string::npos) << row->reason;
}

TEST(HistoryGateTest, AHeadBeyondTheBaselinesNoiseRegresses) {
  // Runs at 98 to 102: the ceiling is 102 + 5% = 107.1.
  const Series time = MakeSeries("cpu_time", TimeInfo(), Alternating(20, 0.02));
  const HistoryBaseline b = SelectBaseline({time}, Chain(20), Head(110, 0), BaselineOptions{});
  const compare::Comparison c = JudgeAgainstHistory(b, "main", Head(110, 0), {});
  EXPECT_EQ(c.verdict, Verdict::kRegression);
}

TEST(HistoryGateTest, OneSlowBaselineRunDoesNotBlindTheGate) {
  std::vector<double> medians = Alternating(20, 0.02);
  medians[7] = 150;
  const Series time = MakeSeries("cpu_time", TimeInfo(), medians);
  const HistoryBaseline b = SelectBaseline({time}, Chain(20), Head(110, 0), BaselineOptions{});
  EXPECT_EQ(JudgeAgainstHistory(b, "main", Head(110, 0), {}).verdict, Verdict::kRegression);
}

TEST(HistoryGateTest, OneMoreAllocationRegressesExactly) {
  const Series time = MakeSeries("cpu_time", TimeInfo(), Alternating(20, 0.10));
  const Series allocs = MakeSeries("allocs/op", AllocsInfo(), std::vector<double>(20, 0));
  const HistoryBaseline b =
      SelectBaseline({time, allocs}, Chain(20), Head(100, 1), BaselineOptions{});
  const compare::Comparison c = JudgeAgainstHistory(b, "main", Head(100, 1), {});
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  const auto row = std::find_if(c.rows.begin(), c.rows.end(),
                                [](const compare::Row& r) { return r.metric == "allocs/op"; });
  ASSERT_NE(row, c.rows.end());
  EXPECT_EQ(row->outcome, Outcome::kRegression);
  EXPECT_EQ(row->rule, compare::Rule::kExact);
}

}  // namespace
}  // namespace benchprof::history
