#include "tools/compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/compare/cell_format.h"
#include "tools/compare/row_judgment.h"

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

bool Constant(const std::vector<double>& sorted) {
  return !sorted.empty() && sorted.front() == sorted.back();
}

using BenchmarkPair = std::pair<const BenchmarkSamples*, const BenchmarkSamples*>;

// Ungated metrics that only one side has, by (metric, side): the benchmarks
// that have them. They are counted in a warning rather than shown as rows.
using OneSidedMetrics = std::map<std::pair<std::string, std::string>, std::vector<std::string>>;

// The names of the benchmarks that skipped themselves in some file of `set`.
std::set<std::string> SkippedNames(const ResultSet& set) {
  std::set<std::string> names;
  for (const results::SkipInFile& s : set.skipped) names.insert(s.skip.run_name);
  return names;
}

// Benchmarks of both sides that the filter selects, in base order; the
// others go to c.only_in_base and c.only_in_head, unless the other side
// skipped them, and the skipped ones to c.skipped_in_base and
// c.skipped_in_head.
std::vector<BenchmarkPair> MatchBenchmarks(const ResultSet& base, const ResultSet& head,
                                           const CompareOptions& options, Comparison& c) {
  auto selected = [&](const std::string& name) {
    return !options.filter || options.filter->Search(name);
  };
  const std::set<std::string> skipped_by_base = SkippedNames(base);
  const std::set<std::string> skipped_by_head = SkippedNames(head);
  std::vector<BenchmarkPair> common;
  for (const BenchmarkSamples& b : base.benchmarks) {
    if (!selected(b.name)) continue;
    const BenchmarkSamples* h = head.Find(b.name);
    if (h != nullptr) {
      common.emplace_back(&b, h);
    } else if (skipped_by_head.count(b.name) == 0) {
      c.only_in_base.push_back(b.name);
    }
  }
  for (const BenchmarkSamples& h : head.benchmarks) {
    if (selected(h.name) && base.Find(h.name) == nullptr && skipped_by_base.count(h.name) == 0) {
      c.only_in_head.push_back(h.name);
    }
  }
  for (const results::SkipInFile& s : base.skipped) {
    if (selected(s.skip.run_name)) c.skipped_in_base.push_back(s);
  }
  for (const results::SkipInFile& s : head.skipped) {
    if (selected(s.skip.run_name)) c.skipped_in_head.push_back(s);
  }
  return common;
}

// Warns when base and head ran on different hosts.
void WarnAboutHosts(const ResultSet& base, const ResultSet& head,
                    std::vector<std::string>& warnings) {
  for (const auto& [key, value] : base.config) {
    if (key != "host_name") continue;
    for (const auto& [hkey, hvalue] : head.config) {
      if (hkey == key && hvalue != value) {
        warnings.push_back("base ran on host " + value + " and head on host " + hvalue +
                           "; differences may come from the machines");
      }
    }
  }
}

// What base (or else head) says about `metric`; a plain counter if neither does.
MetricInfo InfoOf(const std::string& metric, const ResultSet& base, const ResultSet& head) {
  auto it = base.metrics.find(metric);
  if (it != base.metrics.end()) return it->second;
  it = head.metrics.find(metric);
  return it != head.metrics.end() ? it->second : MetricInfo{metric, MetricKind::kCounter, false};
}

// The metrics of the common benchmarks, in display order.
std::vector<std::string> MetricsInDisplayOrder(const std::vector<BenchmarkPair>& common,
                                               const ResultSet& base, const ResultSet& head) {
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
    return MetricRank(a, InfoOf(a, base, head)) < MetricRank(b, InfoOf(b, base, head));
  });
  return seen;
}

// Rule 1: a row of `benchmark`'s `metric`, gated if the policy gives it a
// threshold.
Row NewRow(const std::string& metric, const MetricInfo& info, const BenchmarkSamples& benchmark,
           const CompareOptions& options) {
  Row row;
  row.benchmark = benchmark.name;
  row.metric = metric;
  row.info = info;
  row.is_time_metric = benchmark.time_metric == metric;
  row.threshold = options.thresholds.Find(benchmark.name, metric, row.is_time_metric);
  return row;
}

// Rules 2 and 3 for a row with values on both sides: summarises them and
// judges a constant exact metric at once; any other row gets its U test,
// and is judged once the Holm adjustment is known. `sorted_base` and
// `sorted_head` are scratch space, reused between rows.
void MeasureRow(Row& row, const std::vector<double>& base_values,
                const std::vector<double>& head_values, double confidence,
                std::vector<double>& sorted_base, std::vector<double>& sorted_head) {
  sorted_base = base_values;
  sorted_head = head_values;
  std::sort(sorted_base.begin(), sorted_base.end());
  std::sort(sorted_head.begin(), sorted_head.end());
  row.base = Summarize(sorted_base, confidence);
  row.head = Summarize(sorted_head, confidence);
  row.delta = RelativeDelta(row.base.median, row.head.median);
  const bool constant = Constant(sorted_base) && Constant(sorted_head);
  if (row.info.kind == MetricKind::kExact && (constant || row.info.exact_medians)) {
    JudgeExact(row, constant);
  } else {
    row.rule = Rule::kStatistical;
    row.test = MannWhitneyUTest(sorted_base, sorted_head);
    row.p = row.test.p;
  }
}

// The rows of every (metric, common benchmark) pair, by metric in display
// order then by benchmark, into c.rows. `holm_family` receives the indexes
// of the gated statistical rows that can be tested at all; `one_sided` the
// ungated metrics only one side has, which get no row.
void ClassifyRows(const std::vector<BenchmarkPair>& common, const ResultSet& base,
                  const ResultSet& head, const CompareOptions& options, Comparison& c,
                  std::vector<size_t>& holm_family, OneSidedMetrics& one_sided) {
  std::vector<double> sorted_base, sorted_head;
  for (const std::string& metric : c.metrics) {
    const MetricInfo info = InfoOf(metric, base, head);
    for (const auto& [b, h] : common) {
      const std::vector<double>* bv = b->Find(metric);
      const std::vector<double>* hv = h->Find(metric);
      if (bv == nullptr && hv == nullptr) continue;
      Row row = NewRow(metric, info, *b, options);
      if (bv == nullptr || hv == nullptr || bv->empty() || hv->empty()) {
        const bool in_base = !(bv == nullptr || bv->empty());
        const std::string side = in_base ? "base" : "head";
        if (!row.gated()) {
          one_sided[{metric, side}].push_back(b->name);
          continue;
        }
        JudgeMissing(row, side, in_base ? *bv : *hv, options.confidence);
      } else {
        MeasureRow(row, *bv, *hv, options.confidence, sorted_base, sorted_head);
        if (row.rule == Rule::kStatistical && row.gated() && row.base.n >= kMinSamplesPerSide &&
            row.head.n >= kMinSamplesPerSide) {
          holm_family.push_back(c.rows.size());
        }
      }
      c.rows.push_back(std::move(row));
    }
  }
}

// Rule 3's p: Holm-adjusts the p of the rows in `holm_family`, then judges
// every statistical row.
void ApplyStatisticalRule(const std::vector<size_t>& holm_family, double alpha, Comparison& c) {
  std::vector<double> raw;
  raw.reserve(holm_family.size());
  for (size_t i : holm_family) raw.push_back(c.rows[i].test.p);
  const std::vector<double> adjusted = HolmAdjust(raw);
  for (size_t k = 0; k < holm_family.size(); ++k) c.rows[holm_family[k]].p = adjusted[k];
  c.holm_tests = static_cast<int>(holm_family.size());
  for (Row& row : c.rows) {
    if (row.rule == Rule::kStatistical) JudgeStatistical(row, alpha, std::max(1, c.holm_tests));
  }
}

// benchstat's sample-size warnings, once per comparison.
void WarnAboutSampleSizes(const CompareOptions& options, Comparison& c) {
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
}

// A --threshold for a metric no compared row has changes nothing: say so.
void WarnAboutUnmatchedThresholds(const ThresholdPolicy& thresholds, Comparison& c) {
  for (const std::string& metric : thresholds.AddedMetrics()) {
    const bool matched = std::any_of(c.rows.begin(), c.rows.end(), [&](const Row& row) {
      return row.metric == metric || (metric == "time" && row.is_time_metric);
    });
    if (!matched) {
      c.warnings.push_back("--threshold names metric \"" + metric +
                           "\", which no compared benchmark has; the rule changes nothing");
    }
  }
}

// One warning per (metric, side) of `one_sided`.
void WarnAboutOneSidedMetrics(const OneSidedMetrics& one_sided,
                              std::vector<std::string>& warnings) {
  for (const auto& [key, names] : one_sided) {
    std::string message = key.first + " is only in " + key.second + " for " +
                          std::to_string(names.size()) + " benchmark" +
                          (names.size() == 1 ? "" : "s") + " (" + names.front() +
                          (names.size() > 1 ? ", ..." : "") + "); not compared";
    warnings.push_back(std::move(message));
  }
}

// Geometric means per metric with more than one row, over rows with both
// sides.
std::vector<GeoMeanRow> GeoMeans(const Comparison& c) {
  std::vector<GeoMeanRow> geomeans;
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
    geomeans.push_back(g);
  }
  return geomeans;
}

// The verdict from the gated rows, with a note when no row says why it is
// inconclusive or why nothing could regress.
void DecideVerdict(const ResultSet& base, const CompareOptions& options, bool share_benchmarks,
                   Comparison& c) {
  if (!share_benchmarks) {
    const bool skips = !c.skipped_in_base.empty() || !c.skipped_in_head.empty();
    c.verdict_notes.push_back(options.filter && !base.benchmarks.empty()
                                  ? "no benchmark of both sides matches the filter"
                              : skips ? "base and head share no benchmark that ran on both"
                                      : "base and head share no benchmark");
  } else if (std::none_of(c.rows.begin(), c.rows.end(), [](const Row& r) { return r.gated(); })) {
    c.verdict_notes.push_back("no metric is gated (every threshold is off)");
  }
  c.verdict = VerdictOfRows(c.rows);
  if (!share_benchmarks && c.verdict == Verdict::kNoRegression) c.verdict = Verdict::kInconclusive;
}

}  // namespace

Verdict VerdictOfRows(const std::vector<Row>& rows) {
  bool regression = false, inconclusive = false;
  for (const Row& row : rows) {
    regression = regression || row.outcome == Outcome::kRegression;
    inconclusive = inconclusive || (row.gated() && row.outcome == Outcome::kInconclusive);
  }
  return regression     ? Verdict::kRegression
         : inconclusive ? Verdict::kInconclusive
                        : Verdict::kNoRegression;
}

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
  c.base_gbench_versions = base.gbench_versions;
  c.head_gbench_versions = head.gbench_versions;
  c.warnings = base.warnings;
  c.warnings.insert(c.warnings.end(), head.warnings.begin(), head.warnings.end());

  const std::vector<BenchmarkPair> common = MatchBenchmarks(base, head, options, c);
  WarnAboutHosts(base, head, c.warnings);
  c.metrics = MetricsInDisplayOrder(common, base, head);

  std::vector<size_t> holm_family;
  OneSidedMetrics one_sided;
  ClassifyRows(common, base, head, options, c, holm_family, one_sided);
  ApplyStatisticalRule(holm_family, options.alpha, c);

  WarnAboutSampleSizes(options, c);
  WarnAboutOneSidedMetrics(one_sided, c.warnings);
  WarnAboutUnmatchedThresholds(options.thresholds, c);
  c.geomeans = GeoMeans(c);
  DecideVerdict(base, options, !common.empty(), c);
  return c;
}

}  // namespace benchprof::compare
