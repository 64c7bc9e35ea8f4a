// Comparing across a Google Benchmark upgrade: a base written by 1.7.1 and
// a head written by 1.9.1 (testdata/upgrade_*.json, in each version's exact
// JSON shape) compare like any two runs; the head's skipped benchmark
// (State::SkipWithMessage) is listed, never judged, and never changes the
// verdict; the version of each side is reported, and that they differ.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/compare/comparison.h"
#include "tools/compare/output_content.h"
#include "tools/results/result_reader.h"

namespace benchprof::compare {

using results::AddResultText;
using results::ReadResultFiles;
using results::ResultSet;

namespace {

const std::string kBase171 = std::string(COMPARE_TESTDATA_DIR) + "/upgrade_base_1.7.1.json";
const std::string kHead191 = std::string(COMPARE_TESTDATA_DIR) + "/upgrade_head_1.9.1.json";

ResultSet Read(const std::string& path) {
  StatusOr<ResultSet> set = ReadResultFiles({path});
  EXPECT_TRUE(set.ok()) << set.status().message();
  return set.ok() ? std::move(*set) : ResultSet{};
}

const Row* FindRow(const Comparison& c, const std::string& benchmark, const std::string& metric) {
  for (const Row& row : c.rows) {
    if (row.benchmark == benchmark && row.metric == metric) return &row;
  }
  return nullptr;
}

CompareOptions Filtered(const std::string& regex) {
  CompareOptions options;
  StatusOr<NamePattern> pattern = NamePattern::Compile(regex);
  EXPECT_TRUE(pattern.ok());
  options.filter = std::move(*pattern);
  return options;
}

TEST(GbenchUpgradeTest, Base171AndHead191CompareAsUsual) {
  const ResultSet base = Read(kBase171);
  const ResultSet head = Read(kHead191);
  EXPECT_EQ(base.gbench_versions, std::vector<std::string>{"1.7.1"});
  EXPECT_EQ(head.gbench_versions, std::vector<std::string>{"1.9.1"});

  const Comparison c = Compare(base, head, CompareOptions{});
  // BM_AlgorithmOne is 20% slower in head, BM_AlgorithmTwo 0.1%.
  const Row* one = FindRow(c, "BM_AlgorithmOne", "cpu_time");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->outcome, Outcome::kRegression);
  EXPECT_NEAR(one->delta, 0.20, 1e-9);
  EXPECT_EQ(one->base.n, 6);
  EXPECT_EQ(one->head.n, 6);
  EXPECT_NEAR(one->p, 2 * (2.0 / 924), 1e-12);  // complete separation, Holm over 2 tests
  const Row* two = FindRow(c, "BM_AlgorithmTwo", "cpu_time");
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->outcome, Outcome::kUnchanged);
  EXPECT_FALSE(two->significant);
  const Row* allocs = FindRow(c, "BM_AlgorithmOne", "allocs/op");
  ASSERT_NE(allocs, nullptr);
  EXPECT_EQ(allocs->rule, Rule::kExact);
  EXPECT_EQ(allocs->outcome, Outcome::kUnchanged);
  EXPECT_EQ(allocs->head.median, 2);
  EXPECT_EQ(c.holm_tests, 2);
  EXPECT_EQ(c.verdict, Verdict::kRegression);

  // BM_Gpu ran in base and skipped itself in head: no row, not "only in
  // base", listed as skipped. BM_Broken failed: a warning, as before.
  for (const Row& row : c.rows) EXPECT_NE(row.benchmark, "BM_Gpu") << row.metric;
  EXPECT_TRUE(c.only_in_base.empty());
  EXPECT_TRUE(c.only_in_head.empty());
  EXPECT_TRUE(c.skipped_in_base.empty());
  ASSERT_EQ(c.skipped_in_head.size(), 1u);
  EXPECT_EQ(SkippedLines(c),
            std::vector<std::string>{kHead191 + ": BM_Gpu: skipped (no GPU on this machine)"});
  EXPECT_EQ(c.warnings,
            std::vector<std::string>{kHead191 + ": BM_Broken: 6 of 6 repetitions failed (boom); "
                                                "they are ignored"});

  EXPECT_EQ(GbenchVersionSuffix(c.base_gbench_versions), " (Google Benchmark 1.7.1)");
  EXPECT_EQ(GbenchVersionSuffix(c.head_gbench_versions), " (Google Benchmark 1.9.1)");
  EXPECT_EQ(GbenchVersionNote(c),
            "base and head were written by different Google Benchmark versions (base 1.7.1, "
            "head 1.9.1); differences may come from the library");
}

TEST(GbenchUpgradeTest, ASkippedBenchmarkDoesNotChangeTheVerdict) {
  const ResultSet base = Read(kBase171);
  const ResultSet head = Read(kHead191);
  // Without the regressed benchmark: no regression, though BM_Gpu skipped.
  const Comparison c = Compare(base, head, Filtered("BM_AlgorithmTwo|BM_Gpu"));
  EXPECT_EQ(c.verdict, Verdict::kNoRegression);
  EXPECT_TRUE(c.verdict_notes.empty());
  ASSERT_EQ(c.skipped_in_head.size(), 1u);
  EXPECT_EQ(c.skipped_in_head[0].skip.run_name, "BM_Gpu");
  // The filter applies to skipped benchmarks too.
  EXPECT_TRUE(Compare(base, head, Filtered("BM_AlgorithmTwo")).skipped_in_head.empty());
}

TEST(GbenchUpgradeTest, SameVerdictAndRowsWithOrWithoutASkippedRow) {
  auto rows = [](bool with_skip) {
    std::string text = R"({"context": {"library_version": "v1.9.1", "json_schema_version": 1},
      "benchmarks": [)";
    for (int i = 0; i < 5; ++i) {
      text += R"({"name": "BM_A", "run_type": "iteration", "iterations": 100, "time_unit": "ns",
                  "real_time": )" +
              std::to_string(100 + i) + R"(, "cpu_time": )" + std::to_string(100 + i) + "},";
    }
    if (with_skip) {
      text += R"({"name": "BM_S", "run_type": "iteration", "skipped": true,
                  "skip_message": "not here", "iterations": 0, "real_time": 0,
                  "cpu_time": 0, "time_unit": "ns"},)";
    }
    text.pop_back();
    return text + "]}";
  };
  for (const bool base_skips : {false, true}) {
    ResultSet base, with, without;
    ASSERT_TRUE(AddResultText("base.json", rows(base_skips), base).ok());
    ASSERT_TRUE(AddResultText("with.json", rows(true), with).ok());
    ASSERT_TRUE(AddResultText("without.json", rows(false), without).ok());
    const Comparison a = Compare(base, with, CompareOptions{});
    const Comparison b = Compare(base, without, CompareOptions{});
    EXPECT_EQ(a.verdict, Verdict::kNoRegression);
    EXPECT_EQ(a.verdict, b.verdict);
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (size_t i = 0; i < a.rows.size(); ++i) {
      EXPECT_EQ(a.rows[i].benchmark, b.rows[i].benchmark);
      EXPECT_EQ(a.rows[i].outcome, b.rows[i].outcome);
    }
    EXPECT_EQ(a.warnings, b.warnings);
    EXPECT_TRUE(a.only_in_base.empty() && a.only_in_head.empty());
    EXPECT_EQ(a.skipped_in_head.size(), 1u);
    EXPECT_EQ(a.skipped_in_base.size(), base_skips ? 1u : 0u);
    EXPECT_EQ(GbenchVersionNote(a), "");  // 1.9.1 on both sides
  }
}

TEST(GbenchUpgradeTest, NothingRanOnBothSidesIsInconclusive) {
  // Every head benchmark skipped itself: nothing was compared, which is not
  // "no regression"; the note says why.
  ResultSet base, head;
  ASSERT_TRUE(AddResultText("base.json", R"({"benchmarks": [
      {"name": "BM_Gpu", "real_time": 1, "cpu_time": 1, "iterations": 1}]})",
                            base)
                  .ok());
  ASSERT_TRUE(AddResultText("head.json", R"({"benchmarks": [
      {"name": "BM_Gpu", "skipped": true, "skip_message": "no GPU", "real_time": 0,
       "cpu_time": 0, "iterations": 0}]})",
                            head)
                  .ok());
  const Comparison c = Compare(base, head, CompareOptions{});
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);
  EXPECT_EQ(c.verdict_notes,
            std::vector<std::string>{"base and head share no benchmark that ran on both"});
  EXPECT_TRUE(c.only_in_base.empty());
}

TEST(GbenchUpgradeTest, SkipMessagesStayOnOneLine) {
  ResultSet base, head;
  ASSERT_TRUE(AddResultText("base.json", R"({"benchmarks": [
      {"name": "BM_A", "real_time": 1, "cpu_time": 1, "iterations": 1}]})",
                            base)
                  .ok());
  ASSERT_TRUE(AddResultText("head.json", R"({"benchmarks": [
      {"name": "BM_A", "real_time": 1, "cpu_time": 1, "iterations": 1},
      {"name": "BM_B", "skipped": true, "skip_message": "no\ndevice", "real_time": 0,
       "cpu_time": 0, "iterations": 0}]})",
                            head)
                  .ok());
  const Comparison c = Compare(base, head, CompareOptions{});
  EXPECT_EQ(SkippedLines(c), std::vector<std::string>{"head.json: BM_B: skipped (no device)"});
  EXPECT_EQ(c.skipped_in_head.at(0).skip.message, "no\ndevice");  // JSON keeps it as written
}

TEST(GbenchUpgradeTest, VersionsInTheHeader) {
  Comparison c;
  EXPECT_EQ(GbenchVersionSuffix({""}), "");
  EXPECT_EQ(GbenchVersionSuffix({}), "");
  EXPECT_EQ(GbenchVersionSuffix({"1.9.1", "", "1.9.1"}), " (Google Benchmark 1.9.1)");
  EXPECT_EQ(GbenchVersionSuffix({"1.7.1", "1.8.3", "1.9.1"}),
            " (Google Benchmark 1.7.1, 1.8.3 and 1.9.1)");
  // Unknown on one side: nothing to say.
  c.base_gbench_versions = {""};
  c.head_gbench_versions = {"1.9.1"};
  EXPECT_EQ(GbenchVersionNote(c), "");
  c.base_gbench_versions = {"1.9.1", "1.9.1"};
  EXPECT_EQ(GbenchVersionNote(c), "");
  // Mixed within a side.
  c.base_gbench_versions = {"1.7.1", "1.9.1"};
  EXPECT_EQ(GbenchVersionNote(c),
            "base and head were written by different Google Benchmark versions (base 1.7.1 and "
            "1.9.1, head 1.9.1); differences may come from the library");
  c.head_gbench_versions = {""};
  EXPECT_EQ(GbenchVersionNote(c),
            "base and head were written by different Google Benchmark versions (base 1.7.1 and "
            "1.9.1, head unknown); differences may come from the library");
}

}  // namespace
}  // namespace benchprof::compare
