// The rules that turn two sets of samples into rows and a verdict.
#include "tools/compare/comparison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sample_sets.h"

namespace benchprof::compare {

using results::ResultSet;

namespace {

using testing::AddSamples;
using testing::Around;

const Row* FindRow(const Comparison& c, const std::string& benchmark, const std::string& metric) {
  for (const Row& row : c.rows) {
    if (row.benchmark == benchmark && row.metric == metric) return &row;
  }
  return nullptr;
}

CompareOptions WithThreshold(const std::string& spec) {
  CompareOptions options;
  EXPECT_TRUE(options.thresholds.Add(spec).ok()) << spec;
  return options;
}

TEST(CompareTest, SignificantSlowdownBeyondThresholdIsARegression) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_A", "cpu_time", Around(120, 10));
  const Comparison c = Compare(base, head, CompareOptions{});
  const Row* row = FindRow(c, "BM_A", "cpu_time");
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE(row->gated());
  EXPECT_EQ(row->rule, Rule::kStatistical);
  EXPECT_EQ(row->outcome, Outcome::kRegression);
  EXPECT_NEAR(row->delta, 0.20, 1e-12);
  EXPECT_NEAR(row->p, 2.0 / 184756, 1e-15);  // complete separation, n = 10 + 10
  EXPECT_NE(row->reason.find("statistical rule"), std::string::npos) << row->reason;
  EXPECT_NE(row->reason.find("> threshold 5%"), std::string::npos) << row->reason;
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_EQ(c.holm_tests, 1);
}

TEST(CompareTest, ImprovementUnchangedAndWithinThresholdPass) {
  ResultSet base, head;
  AddSamples(base, "BM_Faster", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_Faster", "cpu_time", Around(80, 10));
  AddSamples(base, "BM_Same", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_Same", "cpu_time", Around(100, 10));
  AddSamples(base, "BM_Bit", "cpu_time", Around(100, 10, 0.005));
  AddSamples(head, "BM_Bit", "cpu_time", Around(103, 10, 0.005));
  const Comparison c = Compare(base, head, CompareOptions{});
  EXPECT_EQ(FindRow(c, "BM_Faster", "cpu_time")->outcome, Outcome::kImprovement);
  EXPECT_EQ(FindRow(c, "BM_Same", "cpu_time")->outcome, Outcome::kUnchanged);
  EXPECT_EQ(FindRow(c, "BM_Same", "cpu_time")->p, 1);
  const Row* bit = FindRow(c, "BM_Bit", "cpu_time");
  EXPECT_EQ(bit->outcome, Outcome::kWithinThreshold);
  EXPECT_TRUE(bit->significant);
  EXPECT_NE(bit->reason.find("within threshold 5%"), std::string::npos) << bit->reason;
  EXPECT_EQ(c.verdict, Verdict::kNoRegression);
  EXPECT_EQ(c.holm_tests, 3);
}

TEST(CompareTest, ConstantAllocationsUseTheExactRuleEvenWithOneSample) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "allocs/op", {2});
  AddSamples(head, "BM_A", "allocs/op", {3});
  AddSamples(base, "BM_A", "B/op", {64});
  AddSamples(head, "BM_A", "B/op", {64});
  AddSamples(base, "BM_B", "allocs/op", {4, 4, 4});
  AddSamples(head, "BM_B", "allocs/op", {1, 1, 1});
  const Comparison c = Compare(base, head, CompareOptions{});
  const Row* allocs = FindRow(c, "BM_A", "allocs/op");
  EXPECT_EQ(allocs->rule, Rule::kExact);
  EXPECT_EQ(allocs->outcome, Outcome::kRegression);
  EXPECT_NE(allocs->reason.find("exact rule"), std::string::npos) << allocs->reason;
  EXPECT_NE(allocs->reason.find("2 → 3 allocs/op"), std::string::npos) << allocs->reason;
  EXPECT_EQ(FindRow(c, "BM_A", "B/op")->outcome, Outcome::kUnchanged);
  EXPECT_EQ(FindRow(c, "BM_B", "allocs/op")->outcome, Outcome::kImprovement);
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_EQ(c.holm_tests, 0);  // exact rows are not tests
}

TEST(CompareTest, ExactThresholdsCanAllowSomeGrowth) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "B/op", {100});
  AddSamples(head, "BM_A", "B/op", {108});
  EXPECT_EQ(Compare(base, head, WithThreshold("B/op:10%")).verdict, Verdict::kNoRegression);
  EXPECT_EQ(Compare(base, head, WithThreshold("B/op:8")).verdict, Verdict::kNoRegression);
  EXPECT_EQ(Compare(base, head, WithThreshold("B/op:7")).verdict, Verdict::kRegression);
  // From zero, any growth is infinite relative growth.
  ResultSet zero;
  AddSamples(zero, "BM_A", "B/op", {0});
  const Comparison c = Compare(zero, head, WithThreshold("B/op:50%"));
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_TRUE(std::isinf(FindRow(c, "BM_A", "B/op")->delta));
}

TEST(CompareTest, VaryingExactMetricsFallBackToStatistics) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "allocs/op", Around(2, 10, 0.01));
  AddSamples(head, "BM_A", "allocs/op", Around(2.5, 10, 0.01));
  const Comparison c = Compare(base, head, CompareOptions{});
  const Row* row = FindRow(c, "BM_A", "allocs/op");
  EXPECT_EQ(row->rule, Rule::kStatistical);
  EXPECT_EQ(row->outcome, Outcome::kRegression);
  EXPECT_NE(row->reason.find("values vary"), std::string::npos) << row->reason;
}

TEST(CompareTest, TooFewSamplesIsInconclusive) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "cpu_time", Around(100, 3));
  AddSamples(head, "BM_A", "cpu_time", Around(200, 3));
  const Comparison c = Compare(base, head, CompareOptions{});
  const Row* row = FindRow(c, "BM_A", "cpu_time");
  EXPECT_EQ(row->outcome, Outcome::kInconclusive);
  EXPECT_NE(row->reason.find("at least 4 per side"), std::string::npos) << row->reason;
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);
  EXPECT_EQ(c.holm_tests, 0);  // not part of the correction
}

TEST(CompareTest, RegressionWinsOverInconclusive) {
  ResultSet base, head;
  AddSamples(base, "BM_Few", "cpu_time", Around(100, 2));
  AddSamples(head, "BM_Few", "cpu_time", Around(100, 2));
  AddSamples(base, "BM_Slow", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_Slow", "cpu_time", Around(150, 10));
  EXPECT_EQ(Compare(base, head, CompareOptions{}).verdict, Verdict::kRegression);
}

TEST(CompareTest, NoCommonBenchmarkIsInconclusive) {
  ResultSet base, head;
  AddSamples(base, "BM_Old", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_New", "cpu_time", Around(100, 10));
  const Comparison c = Compare(base, head, CompareOptions{});
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);
  EXPECT_EQ(c.only_in_base, std::vector<std::string>{"BM_Old"});
  EXPECT_EQ(c.only_in_head, std::vector<std::string>{"BM_New"});
  ASSERT_EQ(c.verdict_notes.size(), 1u);
  EXPECT_EQ(c.verdict_notes[0], "base and head share no benchmark");
}

TEST(CompareTest, GatedMetricOnOneSideIsInconclusiveOthersAreWarnings) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_A", "cpu_time", Around(100, 10));
  AddSamples(base, "BM_A", "allocs/op", {1});
  AddSamples(head, "BM_A", "items", Around(5, 10));
  const Comparison c = Compare(base, head, CompareOptions{});
  const Row* allocs = FindRow(c, "BM_A", "allocs/op");
  ASSERT_NE(allocs, nullptr);
  EXPECT_EQ(allocs->rule, Rule::kMissing);
  EXPECT_EQ(allocs->outcome, Outcome::kInconclusive);
  EXPECT_NE(allocs->reason.find("only in base"), std::string::npos);
  EXPECT_EQ(FindRow(c, "BM_A", "items"), nullptr);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("items is only in head"), std::string::npos) << c.warnings[0];
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);
  // Turning the gate off makes it a warning too.
  EXPECT_EQ(Compare(base, head, WithThreshold("allocs/op:off")).verdict, Verdict::kNoRegression);
}

TEST(CompareTest, ThresholdsPerBenchmarkRegex) {
  ResultSet base, head;
  for (const char* name : {"BM_Noisy/1", "BM_Noisy/2", "BM_Quiet"}) {
    AddSamples(base, name, "cpu_time", Around(100, 10));
    AddSamples(head, name, "cpu_time", Around(120, 10));
  }
  Comparison c = Compare(base, head, WithThreshold("BM_Noisy=time:25%"));
  EXPECT_EQ(FindRow(c, "BM_Noisy/1", "cpu_time")->outcome, Outcome::kWithinThreshold);
  EXPECT_EQ(FindRow(c, "BM_Noisy/2", "cpu_time")->outcome, Outcome::kWithinThreshold);
  EXPECT_EQ(FindRow(c, "BM_Quiet", "cpu_time")->outcome, Outcome::kRegression);

  c = Compare(base, head, WithThreshold("BM_Quiet|BM_Noisy=time:off"));
  EXPECT_FALSE(FindRow(c, "BM_Quiet", "cpu_time")->gated());
  EXPECT_EQ(FindRow(c, "BM_Quiet", "cpu_time")->outcome, Outcome::kChanged);
  EXPECT_EQ(c.verdict, Verdict::kNoRegression);
  ASSERT_EQ(c.verdict_notes.size(), 1u);
  EXPECT_NE(c.verdict_notes[0].find("no metric is gated"), std::string::npos);
}

TEST(CompareTest, RealTimeBenchmarksAreGatedOnRealTime) {
  ResultSet base, head;
  AddSamples(base, "BM_Io/real_time", "cpu_time", Around(10, 10));
  AddSamples(head, "BM_Io/real_time", "cpu_time", Around(20, 10));
  AddSamples(base, "BM_Io/real_time", "real_time", Around(100, 10));
  AddSamples(head, "BM_Io/real_time", "real_time", Around(100, 10));
  const Comparison c = Compare(base, head, CompareOptions{});
  EXPECT_FALSE(FindRow(c, "BM_Io/real_time", "cpu_time")->gated());
  EXPECT_TRUE(FindRow(c, "BM_Io/real_time", "real_time")->gated());
  EXPECT_EQ(c.verdict, Verdict::kNoRegression);
  // Naming cpu_time explicitly gates it as well.
  EXPECT_EQ(Compare(base, head, WithThreshold("cpu_time:5%")).verdict, Verdict::kRegression);
}

TEST(CompareTest, CountersAreInformationalUnlessNamed) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_A", "cpu_time", Around(100, 10));
  AddSamples(base, "BM_A", "bytes_per_second", Around(1000, 10));
  AddSamples(head, "BM_A", "bytes_per_second", Around(800, 10));
  AddSamples(base, "BM_A", "cache_misses", Around(10, 10));
  AddSamples(head, "BM_A", "cache_misses", Around(8, 10));
  Comparison c = Compare(base, head, CompareOptions{});
  EXPECT_EQ(FindRow(c, "BM_A", "bytes_per_second")->outcome, Outcome::kChanged);
  EXPECT_EQ(c.verdict, Verdict::kNoRegression);
  // Higher is better for rates: a drop is a regression once gated; fewer
  // cache misses are an improvement.
  CompareOptions options = WithThreshold("bytes_per_second:10%,cache_misses:10%");
  c = Compare(base, head, options);
  EXPECT_EQ(FindRow(c, "BM_A", "bytes_per_second")->outcome, Outcome::kRegression);
  EXPECT_EQ(FindRow(c, "BM_A", "cache_misses")->outcome, Outcome::kImprovement);
  EXPECT_EQ(c.verdict, Verdict::kRegression);
}

TEST(CompareTest, HolmCorrectionAndWhenItMakesTheDataInsufficient) {
  // One benchmark 8% slower with n = 5 (raw p = 2/252 = 0.0079), among 19
  // unchanged: alone it is a regression; among 20 tests the corrected level
  // is 0.05 / 20 = 0.0025, which n = 5 cannot reach at all.
  ResultSet base, head;
  AddSamples(base, "BM_Slow", "cpu_time", Around(100, 5, 0.01));
  AddSamples(head, "BM_Slow", "cpu_time", Around(108, 5, 0.01));
  Comparison c = Compare(base, head, CompareOptions{});
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_NEAR(FindRow(c, "BM_Slow", "cpu_time")->p, 2.0 / 252, 1e-12);

  for (int i = 0; i < 19; ++i) {
    const std::string name = "BM_Same/" + std::to_string(i);
    AddSamples(base, name, "cpu_time", Around(100, 5));
    AddSamples(head, name, "cpu_time", Around(100, 5));
  }
  c = Compare(base, head, CompareOptions{});
  EXPECT_EQ(c.holm_tests, 20);
  const Row* slow = FindRow(c, "BM_Slow", "cpu_time");
  EXPECT_NEAR(slow->test.p, 2.0 / 252, 1e-12);
  EXPECT_NEAR(slow->p, 20 * 2.0 / 252, 1e-12);
  EXPECT_EQ(slow->outcome, Outcome::kInconclusive);
  EXPECT_NE(slow->reason.find("cannot reach p <= 0.0025"), std::string::npos) << slow->reason;
  EXPECT_NE(slow->reason.find("use at least 6 per side"), std::string::npos) << slow->reason;
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);

  // With 10 samples per side the same family detects it.
  ResultSet base10, head10;
  AddSamples(base10, "BM_Slow", "cpu_time", Around(100, 10, 0.01));
  AddSamples(head10, "BM_Slow", "cpu_time", Around(108, 10, 0.01));
  for (int i = 0; i < 19; ++i) {
    const std::string name = "BM_Same/" + std::to_string(i);
    AddSamples(base10, name, "cpu_time", Around(100, 10));
    AddSamples(head10, name, "cpu_time", Around(100, 10));
  }
  c = Compare(base10, head10, CompareOptions{});
  EXPECT_EQ(FindRow(c, "BM_Slow", "cpu_time")->outcome, Outcome::kRegression);
  EXPECT_EQ(c.verdict, Verdict::kRegression);
}

TEST(CompareTest, GeomeanAndOrder) {
  ResultSet base, head;
  AddSamples(base, "BM_B", "cpu_time", Around(100, 6));
  AddSamples(head, "BM_B", "cpu_time", Around(200, 6));
  AddSamples(base, "BM_A", "cpu_time", Around(400, 6));
  AddSamples(head, "BM_A", "cpu_time", Around(200, 6));
  AddSamples(base, "BM_B", "allocs/op", {0});
  AddSamples(head, "BM_B", "allocs/op", {0});
  AddSamples(base, "BM_A", "allocs/op", {1});
  AddSamples(head, "BM_A", "allocs/op", {1});
  AddSamples(base, "BM_A", "real_time", Around(400, 6));
  AddSamples(head, "BM_A", "real_time", Around(400, 6));
  const Comparison c = Compare(base, head, CompareOptions{});
  EXPECT_EQ(c.metrics, (std::vector<std::string>{"cpu_time", "real_time", "allocs/op"}));
  ASSERT_GE(c.rows.size(), 2u);
  EXPECT_EQ(c.rows[0].benchmark, "BM_B");  // base file order
  ASSERT_EQ(c.geomeans.size(), 2u);        // real_time has one row only
  EXPECT_EQ(c.geomeans[0].metric, "cpu_time");
  EXPECT_TRUE(c.geomeans[0].valid);
  EXPECT_DOUBLE_EQ(c.geomeans[0].base, 200);  // sqrt(100 * 400)
  EXPECT_DOUBLE_EQ(c.geomeans[0].head, 200);
  EXPECT_NEAR(c.geomeans[0].delta, 0, 1e-12);  // x2 and x0.5
  EXPECT_EQ(c.geomeans[1].metric, "allocs/op");
  EXPECT_FALSE(c.geomeans[1].valid);  // a zero
}

TEST(CompareTest, FilterSelectsBenchmarks) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_A", "cpu_time", Around(200, 10));
  AddSamples(base, "BM_B", "cpu_time", Around(100, 10));
  AddSamples(head, "BM_B", "cpu_time", Around(100, 10));
  CompareOptions options;
  options.filter = *NamePattern::Compile("BM_B");
  Comparison c = Compare(base, head, options);
  EXPECT_EQ(c.verdict, Verdict::kNoRegression);
  EXPECT_EQ(c.rows.size(), 1u);
  options.filter = *NamePattern::Compile("nothing");
  c = Compare(base, head, options);
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);
  EXPECT_EQ(c.verdict_notes,
            std::vector<std::string>{"no benchmark of both sides matches the filter"});
}

TEST(CompareTest, StricterAlphaNeedsMoreSamples) {
  ResultSet base, head;
  AddSamples(base, "BM_A", "cpu_time", Around(100, 4));
  AddSamples(head, "BM_A", "cpu_time", Around(150, 4));
  CompareOptions options;
  EXPECT_EQ(Compare(base, head, options).verdict, Verdict::kRegression);  // p = 0.0286
  options.alpha = 0.01;
  const Comparison c = Compare(base, head, options);
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);
  EXPECT_NE(c.rows[0].reason.find("use at least 5 per side"), std::string::npos)
      << c.rows[0].reason;
}

}  // namespace
}  // namespace benchprof::compare
