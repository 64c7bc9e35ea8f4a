#include "tools/compare/row_judgment.h"

#include <algorithm>
#include <cmath>

#include "tools/compare/cell_format.h"

namespace benchprof::compare {

using results::MetricKind;

namespace {

// +1 if head is worse than base, -1 if better, 0 if equal.
int Direction(const Row& row) {
  if (row.head.median == row.base.median) return 0;
  const bool up = row.head.median > row.base.median;
  return up != row.info.higher_is_better ? 1 : -1;
}

bool BeyondThreshold(const Row& row) {
  const Threshold& t = *row.threshold;
  if (t.relative) return std::fabs(row.delta) > t.value;
  return std::fabs(row.head.median - row.base.median) > t.value;
}

// The change as the threshold measures it: "+10.03%" or "+1".
std::string Effect(const Row& row) {
  if (row.threshold && !row.threshold->relative) {
    const double diff = row.head.median - row.base.median;
    return (diff > 0 ? "+" : "") + FormatValue(diff, row.info);
  }
  return FormatDelta(row.delta);
}

std::string ThresholdText(const Row& row) {
  if (!row.threshold->relative && row.info.kind == MetricKind::kTime) {
    return FormatValue(row.threshold->value, row.info);
  }
  return row.threshold->ToString();
}

// The smallest n per side that can reach `level` with the exact U test.
int SamplesNeeded(double level) {
  for (int n = 1; n <= 60; ++n) {
    if (MinUTestP(n, n) <= level) return n;
  }
  return 61;
}

}  // namespace

void JudgeExact(Row& row, bool constant) {
  row.rule = Rule::kExact;
  row.significant = row.base.median != row.head.median;
  row.p = row.significant ? 0 : 1;
  const int direction = Direction(row);
  const std::string change = FormatValue(row.base.median, row.info) + " → " +
                             FormatValue(row.head.median, row.info) + " " + row.info.unit;
  if (!row.gated()) {
    row.outcome = direction == 0 ? Outcome::kUnchanged : Outcome::kChanged;
    return;
  }
  const std::string rule = std::string(constant ? "exact rule (constant on both sides): "
                                                : "exact rule (deterministic count, medians): ") +
                           change;
  if (direction == 0) {
    row.outcome = Outcome::kUnchanged;
  } else if (direction < 0) {
    row.outcome = BeyondThreshold(row) ? Outcome::kImprovement : Outcome::kUnchanged;
    if (row.outcome == Outcome::kImprovement) row.reason = rule;
  } else if (BeyondThreshold(row)) {
    row.outcome = Outcome::kRegression;
    row.reason = rule + ", " + Effect(row) + " > threshold " + ThresholdText(row);
  } else {
    row.outcome = Outcome::kWithinThreshold;
    row.reason = rule + ", " + Effect(row) + " within threshold " + ThresholdText(row);
  }
}

void JudgeStatistical(Row& row, double alpha, int tests) {
  row.significant = row.p <= alpha;
  const int direction = Direction(row);
  if (!row.gated()) {
    row.outcome = row.significant && direction != 0 ? Outcome::kChanged : Outcome::kUnchanged;
    return;
  }
  const std::string counts = std::to_string(row.base.n) + "+" + std::to_string(row.head.n);
  if (row.base.n < kMinSamplesPerSide || row.head.n < kMinSamplesPerSide) {
    row.outcome = Outcome::kInconclusive;
    row.reason = "only " + counts + " samples; at least " + std::to_string(kMinSamplesPerSide) +
                 " per side are needed to detect a difference (run more repetitions)";
    return;
  }
  const std::string test = "U test p=" + FormatP(row.p) +
                           (tests > 1 ? " (Holm-adjusted over " + std::to_string(tests) +
                                            " tests, raw " + FormatP(row.test.p) + ")"
                                      : "");
  const std::string rule = row.info.kind == MetricKind::kExact
                               ? "statistical rule (values vary between repetitions): "
                               : "statistical rule: ";
  if (!row.significant || direction == 0) {
    const double level = alpha / tests;
    if (MinUTestP(row.base.n, row.head.n) > level) {
      row.outcome = Outcome::kInconclusive;
      row.reason = counts + " samples cannot reach p <= " + FormatP(level) + " (alpha " +
                   FormatP(alpha) + " over " + std::to_string(tests) +
                   " tests, Holm); use at least " + std::to_string(SamplesNeeded(level)) +
                   " per side";
    } else {
      row.outcome = Outcome::kUnchanged;
    }
    return;
  }
  if (direction < 0) {
    // An improvement is held to the same bar as a regression.
    if (BeyondThreshold(row)) {
      row.outcome = Outcome::kImprovement;
      row.reason = rule + Effect(row) + ", " + test;
    } else {
      row.outcome = Outcome::kUnchanged;
    }
  } else if (BeyondThreshold(row)) {
    row.outcome = Outcome::kRegression;
    row.reason = rule + Effect(row) + " > threshold " + ThresholdText(row) + ", " + test +
                 " <= alpha " + FormatP(alpha);
  } else {
    row.outcome = Outcome::kWithinThreshold;
    row.reason = rule + Effect(row) + " is significant (" + test + ") but within threshold " +
                 ThresholdText(row);
  }
}

void JudgeMissing(Row& row, const std::string& side, const std::vector<double>& values,
                  double confidence) {
  row.rule = Rule::kMissing;
  row.outcome = Outcome::kInconclusive;
  std::vector<double> present = values;
  std::sort(present.begin(), present.end());
  (side == "base" ? row.base : row.head) = Summarize(present, confidence);
  row.reason = row.metric + " is only in " + side + " (measure both sides alike, or --threshold=" +
               (row.is_time_metric ? std::string("time") : row.metric) + ":off)";
}

}  // namespace benchprof::compare
