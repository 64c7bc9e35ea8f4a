// Compares two ResultSets (base and head) benchmark by benchmark and metric
// by metric, and decides the verdict a CI gate acts on.
//
// Rules, in the order they apply to one (benchmark, metric) row:
//   1. A row is gated if the ThresholdPolicy gives it a threshold (by
//      default each benchmark's time metric at 5%, allocs/op and B/op at 0);
//      other rows are informational.
//   2. Exact rule: an exact metric (allocs/op, B/op, Go units marked
//      `assume=exact`) whose values are constant on each side is compared
//      without statistics: it regresses when the head value exceeds the base
//      value by more than the threshold.
//   3. Statistical rule, for everything else: medians with
//      distribution-free confidence intervals, and the two-sided
//      Mann-Whitney U test. A gated row regresses when its p-value, Holm-
//      adjusted over all gated statistical rows, is <= alpha AND the median
//      moved in the worse direction by more than the threshold.
//   4. A gated statistical row is inconclusive when a side has fewer than 4
//      samples, or when the sample sizes cannot reach the Holm-corrected
//      significance level at all (p >= 2 / C(n1 + n2, n1) > alpha / tests);
//      a gated metric present on one side only is inconclusive too.
// Verdict: regression if any gated row regresses; else inconclusive if any
// gated row is inconclusive or the two sides share no benchmark; else no
// regression. (row_judgment.h applies rules 2 to 4 to one row.) A benchmark
// that skipped itself (SkipWithMessage) has no samples in that file: it is
// listed as skipped, and is not counted as only in the other side.
//
//   StatusOr<ResultSet> base = ReadResultFiles({"base.json"}), head = ...;
//   CompareOptions options;                       // alpha 0.05, confidence 0.95
//   Comparison c = Compare(*base, *head, options);
//   return static_cast<int>(c.verdict);           // 0, 1 or 2
//
// Thread-safety: thread-safe (a pure function of its arguments).
#ifndef BENCHPROF_TOOLS_COMPARE_COMPARISON_H_
#define BENCHPROF_TOOLS_COMPARE_COMPARISON_H_

#include <optional>
#include <string>
#include <vector>

#include "tools/compare/name_pattern.h"
#include "tools/compare/statistics.h"
#include "tools/compare/thresholds.h"
#include "tools/results/result_reader.h"

namespace benchprof::compare {

// The fewest samples per side for the statistical rule to claim anything at
// alpha = 0.05 (benchstat's rule; see MinUTestP).
inline constexpr int kMinSamplesPerSide = 4;

struct CompareOptions {
  double alpha = 0.05;       // significance level, 0 < alpha < 1
  double confidence = 0.95;  // of the median intervals, 0 < confidence < 1
  ThresholdPolicy thresholds = ThresholdPolicy::Defaults();
  // When set, only benchmarks whose name it matches (searched) are compared.
  std::optional<NamePattern> filter;
};

// How a row was judged.
enum class Rule {
  kStatistical,  // U test + medians
  kExact,        // constant exact metric: values compared directly
  kMissing,      // the metric is on one side only
};

// What a row says. Only gated rows affect the verdict.
enum class Outcome {
  kUnchanged,        // no significant change, equal, or better but within the threshold
  kRegression,       // gated, significant and beyond the threshold, worse
  kWithinThreshold,  // gated, significant and worse, but not beyond the threshold
  kImprovement,      // gated, significant (or exact) and beyond the threshold, better
  kInconclusive,     // gated, but the data cannot support a verdict
  kChanged,          // informational row with a significant change
};

struct Row {
  std::string benchmark;
  std::string metric;
  results::MetricInfo info;
  bool is_time_metric = false;         // the benchmark's "time"
  std::optional<Threshold> threshold;  // set iff the row is gated
  Rule rule = Rule::kStatistical;
  Summary base, head;  // n = 0 on a side for kMissing
  // head / base - 1 of the medians; +-inf when base is 0 and head is not,
  // 0 when both are 0.
  double delta = 0;
  UTestResult test;          // statistical rows
  double p = 1;              // the p that decided: Holm-adjusted if gated
  bool significant = false;  // p <= alpha (statistical) or values differ (exact)
  Outcome outcome = Outcome::kUnchanged;
  std::string reason;  // one sentence on which rule decided, for gated rows

  bool gated() const { return threshold.has_value(); }
};

// The geometric means of one metric's medians.
struct GeoMeanRow {
  std::string metric;
  bool valid = false;  // false when some median is <= 0
  double base = 0, head = 0;
  double delta = 0;  // geomean of head/base ratios, minus 1
};

enum class Verdict { kNoRegression = 0, kRegression = 1, kInconclusive = 2 };

// "no regression", "regression", "inconclusive".
std::string_view VerdictName(Verdict verdict);

struct Comparison {
  double alpha = 0.05;
  double confidence = 0.95;
  std::vector<std::string> base_files, head_files;
  // The Google Benchmark version that wrote each file, in file order; ""
  // where unknown.
  std::vector<std::string> base_gbench_versions, head_gbench_versions;
  // Metric names in display order (time metrics, allocs/op, B/op, others).
  std::vector<std::string> metrics;
  std::vector<Row> rows;             // grouped by metric (in `metrics` order), then benchmark
  std::vector<GeoMeanRow> geomeans;  // one per metric with more than one row
  int holm_tests = 0;                // gated statistical rows in the Holm family
  std::vector<std::string> only_in_base, only_in_head;
  // Benchmarks that skipped themselves, among those the filter selects.
  std::vector<results::SkipInFile> skipped_in_base, skipped_in_head;
  std::vector<std::string> warnings;
  Verdict verdict = Verdict::kNoRegression;
  std::vector<std::string> verdict_notes;  // why inconclusive when no row says so
};

// The verdict `rows` give, for a comparison whose sides share a benchmark:
// regression if a row regressed, else inconclusive if a gated row is, else
// no regression. (For a caller that re-judges rows after Compare.)
Verdict VerdictOfRows(const std::vector<Row>& rows);

// Compares `head` against `base`. Never fails: problems with the data become
// warnings and an inconclusive verdict.
Comparison Compare(const results::ResultSet& base, const results::ResultSet& head,
                   const CompareOptions& options);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_COMPARISON_H_
