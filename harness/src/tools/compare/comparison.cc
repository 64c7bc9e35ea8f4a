#include "tools/compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "tools/compare/cell_format.h"

namespace benchprof::compare {

using results::BenchmarkSamples;
using results::MetricInfo;
using results::MetricKind;
using results::ResultSet;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Display order of metrics: the time metrics first, then the exact ones,
// then the rest as first seen.
int MetricRank(const std::string& metric, const MetricInfo& info) {
  if (metric == "cpu_time") return 0;
  if (metric == "real_time") return 1;
  if (metric == "ns/op" || metric == "sec/op") return 2;
  if (info.kind == MetricKind::kTime) return 3;
  if (metric == "allocs/op") return 4;
  if (metric == "B/op") return 5;
  if (info.kind == MetricKind::kExact) return 6;
  return 7;
}

double RelativeDelta(double base, double head) {
  if (base == head) return 0;
  if (base == 0) return head > 0 ? kInf : -kInf;
  return (head - base) / std::fabs(base);
}

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

void JudgeExact(Row& row) {
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
  const std::string rule = "exact rule (constant on both sides): " + change;
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

// Decides a statistical row once its p (adjusted when gated) is known.
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

bool Constant(const std::vector<double>& sorted) {
  return !sorted.empty() && sorted.front() == sorted.back();
}

}  // namespace

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kNoRegression:
      return "no regression";
    case Verdict::kRegression:
      return "regression";
    case Verdict::kInconclusive:
      return "inconclusive";
  }
  return "?";
}

Comparison Compare(const ResultSet& base, const ResultSet& head, const CompareOptions& options) {
  Comparison c;
  c.alpha = options.alpha;
  c.confidence = options.confidence;
  c.base_files = base.files;
  c.head_files = head.files;
  c.warnings = base.warnings;
  c.warnings.insert(c.warnings.end(), head.warnings.begin(), head.warnings.end());

  auto selected = [&](const std::string& name) {
    return !options.filter || options.filter->Search(name);
  };
  std::vector<std::pair<const BenchmarkSamples*, const BenchmarkSamples*>> common;
  for (const BenchmarkSamples& b : base.benchmarks) {
    if (!selected(b.name)) continue;
    const BenchmarkSamples* h = head.Find(b.name);
    if (h == nullptr) {
      c.only_in_base.push_back(b.name);
    } else {
      common.emplace_back(&b, h);
    }
  }
  for (const BenchmarkSamples& h : head.benchmarks) {
    if (selected(h.name) && base.Find(h.name) == nullptr) c.only_in_head.push_back(h.name);
  }

  for (const auto& [key, value] : base.config) {
    if (key != "host_name") continue;
    for (const auto& [hkey, hvalue] : head.config) {
      if (hkey == key && hvalue != value) {
        c.warnings.push_back("base ran on host " + value + " and head on host " + hvalue +
                             "; differences may come from the machines");
      }
    }
  }

  // Metrics in display order.
  auto info_of = [&](const std::string& metric) {
    auto it = base.metrics.find(metric);
    if (it != base.metrics.end()) return it->second;
    it = head.metrics.find(metric);
    return it != head.metrics.end() ? it->second : MetricInfo{metric, MetricKind::kCounter, false};
  };
  std::vector<std::string> seen;
  std::unordered_map<std::string, size_t> seen_index;
  for (const auto& [b, h] : common) {
    for (const auto* side : {b, h}) {
      for (const auto& [metric, values] : side->metrics) {
        if (seen_index.try_emplace(metric, seen.size()).second) seen.push_back(metric);
      }
    }
  }
  std::stable_sort(seen.begin(), seen.end(), [&](const std::string& a, const std::string& b) {
    return MetricRank(a, info_of(a)) < MetricRank(b, info_of(b));
  });
  c.metrics = seen;

  // Rows; missing one-sided informational metrics are only counted.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> one_sided;
  std::vector<size_t> family;  // rows in the Holm family
  std::vector<double> scratch_base, scratch_head;
  for (const std::string& metric : c.metrics) {
    const MetricInfo info = info_of(metric);
    for (const auto& [b, h] : common) {
      const std::vector<double>* bv = b->Find(metric);
      const std::vector<double>* hv = h->Find(metric);
      if (bv == nullptr && hv == nullptr) continue;
      Row row;
      row.benchmark = b->name;
      row.metric = metric;
      row.info = info;
      row.is_time_metric = b->time_metric == metric;
      row.threshold = options.thresholds.Find(b->name, metric, row.is_time_metric);
      if (bv == nullptr || hv == nullptr || bv->empty() || hv->empty()) {
        const std::string side = bv == nullptr || bv->empty() ? "head" : "base";
        if (!row.gated()) {
          one_sided[{metric, side}].push_back(b->name);
          continue;
        }
        row.rule = Rule::kMissing;
        row.outcome = Outcome::kInconclusive;
        std::vector<double> present = bv != nullptr && !bv->empty() ? *bv : *hv;
        std::sort(present.begin(), present.end());
        (side == "base" ? row.base : row.head) = Summarize(present, options.confidence);
        row.reason = metric + " is only in " + side +
                     " (measure both sides alike, or --threshold=" +
                     (row.is_time_metric ? std::string("time") : metric) + ":off)";
        c.rows.push_back(std::move(row));
        continue;
      }
      scratch_base = *bv;
      scratch_head = *hv;
      std::sort(scratch_base.begin(), scratch_base.end());
      std::sort(scratch_head.begin(), scratch_head.end());
      row.base = Summarize(scratch_base, options.confidence);
      row.head = Summarize(scratch_head, options.confidence);
      row.delta = RelativeDelta(row.base.median, row.head.median);
      if (info.kind == MetricKind::kExact && Constant(scratch_base) && Constant(scratch_head)) {
        JudgeExact(row);
      } else {
        row.rule = Rule::kStatistical;
        row.test = MannWhitneyUTest(scratch_base, scratch_head);
        row.p = row.test.p;
        if (row.gated() && row.base.n >= kMinSamplesPerSide && row.head.n >= kMinSamplesPerSide) {
          family.push_back(c.rows.size());
        }
      }
      c.rows.push_back(std::move(row));
    }
  }

  // Holm over the gated statistical rows that can be tested at all.
  std::vector<double> raw;
  raw.reserve(family.size());
  for (size_t i : family) raw.push_back(c.rows[i].test.p);
  const std::vector<double> adjusted = HolmAdjust(raw);
  for (size_t k = 0; k < family.size(); ++k) c.rows[family[k]].p = adjusted[k];
  c.holm_tests = static_cast<int>(family.size());
  for (Row& row : c.rows) {
    if (row.rule == Rule::kStatistical) {
      JudgeStatistical(row, options.alpha, std::max(1, c.holm_tests));
    }
  }

  // benchstat's sample-size warnings, once per comparison.
  int min_n = std::numeric_limits<int>::max();
  for (const Row& row : c.rows) {
    if (row.rule == Rule::kStatistical) min_n = std::min({min_n, row.base.n, row.head.n});
  }
  if (min_n < kMinSamplesPerSide) {
    c.warnings.push_back("some rows have fewer than " + std::to_string(kMinSamplesPerSide) +
                         " samples on a side, too few to detect a difference at alpha " +
                         FormatP(options.alpha) + "; run 10 or more repetitions");
  }
  if (min_n != std::numeric_limits<int>::max() &&
      !QuantileInterval(min_n, 0.5, options.confidence).finite(min_n)) {
    c.warnings.push_back("some rows have too few samples for a finite " +
                         FormatP(options.confidence * 100) + "% confidence interval (± ∞)");
  }

  for (const auto& [key, names] : one_sided) {
    std::string message = key.first + " is only in " + key.second + " for " +
                          std::to_string(names.size()) + " benchmark" +
                          (names.size() == 1 ? "" : "s") + " (" + names.front() +
                          (names.size() > 1 ? ", ..." : "") + "); not compared";
    c.warnings.push_back(std::move(message));
  }

  // Geometric means per metric, over rows with both sides.
  for (const std::string& metric : c.metrics) {
    GeoMeanRow g;
    g.metric = metric;
    std::vector<double> bs, hs, ratios;
    bool positive = true;
    for (const Row& row : c.rows) {
      if (row.metric != metric || row.rule == Rule::kMissing) continue;
      positive = positive && row.base.median > 0 && row.head.median > 0;
      bs.push_back(row.base.median);
      hs.push_back(row.head.median);
      if (positive) ratios.push_back(row.head.median / row.base.median);
    }
    if (bs.size() < 2) continue;
    g.valid = positive;
    if (positive) {
      g.base = GeoMean(bs);
      g.head = GeoMean(hs);
      g.delta = GeoMean(ratios) - 1;
    }
    c.geomeans.push_back(g);
  }

  bool regression = false, inconclusive = false;
  for (const Row& row : c.rows) {
    regression = regression || row.outcome == Outcome::kRegression;
    inconclusive = inconclusive || (row.gated() && row.outcome == Outcome::kInconclusive);
  }
  if (common.empty()) {
    inconclusive = true;
    c.verdict_notes.push_back(options.filter && !base.benchmarks.empty()
                                  ? "no benchmark of both sides matches the filter"
                                  : "base and head share no benchmark");
  } else if (std::none_of(c.rows.begin(), c.rows.end(), [](const Row& r) { return r.gated(); })) {
    c.verdict_notes.push_back("no metric is gated (every threshold is off)");
  }
  c.verdict = regression     ? Verdict::kRegression
              : inconclusive ? Verdict::kInconclusive
                             : Verdict::kNoRegression;
  return c;
}

}  // namespace benchprof::compare
