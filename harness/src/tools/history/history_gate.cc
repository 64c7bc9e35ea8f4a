#include "tools/history/history_gate.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <unordered_map>

#include "tools/compare/cell_format.h"

namespace benchprof::history {
namespace {

using compare::Comparison;
using compare::Outcome;
using compare::Row;
using compare::Rule;

// The benchmark named `name` in `set`, added (with `time_metric`) if new.
results::BenchmarkSamples& BenchmarkIn(results::ResultSet& set, const std::string& name,
                                       const std::string& time_metric) {
  auto [it, inserted] = set.index.try_emplace(name, set.benchmarks.size());
  if (inserted) set.benchmarks.push_back(results::BenchmarkSamples{name, time_metric, {}});
  return set.benchmarks[it->second];
}

// The points of `series` on the head's chain, in ancestry order, minus the
// excluded run.
Series OnChain(const Series& series, const std::unordered_map<std::string, size_t>& chain,
               int64_t exclude_run_id) {
  Series on{series.key, series.info, {}};
  for (const SeriesPoint& point : series.points) {
    if (point.run_id != exclude_run_id && chain.contains(point.commit)) on.points.push_back(point);
  }
  return on;
}

// The second-worst of `run_medians` (at least 2): the largest but one, or
// the smallest but one when higher is better.
double SecondWorst(std::vector<double> run_medians, bool higher_is_better) {
  if (higher_is_better) {
    std::nth_element(run_medians.begin(), run_medians.begin() + 1, run_medians.end());
  } else {
    std::nth_element(run_medians.begin(), run_medians.begin() + 1, run_medians.end(),
                     std::greater<>());
  }
  return run_medians[1];
}

// `value` moved by `threshold` in the metric's worse direction.
double WorsenedBy(double value, const compare::Threshold& threshold, bool higher_is_better) {
  const double step = threshold.relative ? std::fabs(value) * threshold.value : threshold.value;
  return higher_is_better ? value - step : value + step;
}

}  // namespace

HistoryBaseline SelectBaseline(const std::vector<Series>& series,
                               const std::vector<std::string>& head_chain,
                               const results::ResultSet& head, const BaselineOptions& options) {
  std::unordered_map<std::string, size_t> chain;
  for (size_t i = 0; i < head_chain.size(); ++i) chain.try_emplace(head_chain[i], i);

  HistoryBaseline baseline;
  baseline.samples.format = results::InputFormat::kGoogleBenchmarkJson;
  std::set<int64_t> runs;
  std::set<std::string> commits;
  std::vector<std::pair<size_t, std::string>> commit_order;  // chain position, hash
  for (const Series& whole : series) {
    const results::BenchmarkSamples* in_head = head.Find(whole.key.benchmark);
    if (in_head == nullptr) continue;
    const Series on_chain = OnChain(whole, chain, options.exclude_run_id);
    if (on_chain.points.empty()) continue;

    size_t begin = 0;
    const std::vector<ChangePoint> changes = FindChangePoints(on_chain, options.detect);
    const std::pair<std::string, std::string> key{whole.key.benchmark, whole.key.metric};
    // The newest change point with a level after it: a change at the last
    // run or two (which the detector reports at once) is not yet one, and
    // cutting there would leave a baseline of a run or two.
    for (auto c = changes.rbegin(); c != changes.rend(); ++c) {
      if (on_chain.points.size() - c->index >= kMinRunsAfterCut) {
        begin = c->index;
        baseline.cut_at.emplace(key, *c);
        break;
      }
    }
    if (on_chain.points.size() - begin > options.max_runs) {
      begin = on_chain.points.size() - options.max_runs;
    }

    results::BenchmarkSamples& b = BenchmarkIn(baseline.samples, whole.key.benchmark,
                                               in_head->time_metric);
    std::vector<double> pooled;
    std::vector<double>& medians = baseline.run_medians[key];
    for (size_t i = begin; i < on_chain.points.size(); ++i) {
      const SeriesPoint& point = on_chain.points[i];
      pooled.insert(pooled.end(), point.values.begin(), point.values.end());
      medians.push_back(point.median);
      runs.insert(point.run_id);
      if (commits.insert(point.commit).second) {
        commit_order.emplace_back(chain.at(point.commit), point.commit);
      }
    }
    b.metrics.emplace_back(whole.key.metric, std::move(pooled));
    baseline.samples.metrics.try_emplace(whole.key.metric, whole.info);
  }
  // Oldest first: the chain runs newest first.
  std::sort(commit_order.begin(), commit_order.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& [position, hash] : commit_order) baseline.commits.push_back(std::move(hash));
  baseline.runs = runs.size();
  return baseline;
}

Comparison JudgeAgainstHistory(const HistoryBaseline& baseline, const std::string& baseline_name,
                               const results::ResultSet& head,
                               const compare::CompareOptions& options) {
  Comparison c = compare::Compare(baseline.samples, head, options);
  c.base_files = {baseline_name};
  bool downgraded = false;
  for (Row& row : c.rows) {
    if (row.rule != Rule::kStatistical || row.outcome != Outcome::kRegression) continue;
    const auto medians = baseline.run_medians.find({row.benchmark, row.metric});
    if (medians == baseline.run_medians.end() || medians->second.size() < kMinRunsForCeiling) {
      continue;
    }
    const bool higher_is_better = row.info.higher_is_better;
    const double second_worst = SecondWorst(medians->second, higher_is_better);
    const double ceiling = WorsenedBy(second_worst, *row.threshold, higher_is_better);
    // The head's whole confidence interval must be beyond it: a head run
    // whose own repetitions scatter (a neighbour busy for part of it) is
    // not a clear regression. Without a finite interval, its median.
    const double head_best = !row.head.finite() ? row.head.median
                             : higher_is_better ? row.head.hi
                                                : row.head.lo;
    const bool beyond = higher_is_better ? head_best < ceiling : head_best > ceiling;
    if (beyond) continue;
    row.outcome = Outcome::kWithinThreshold;
    row.reason = std::string("within the baseline's noise: the head's ") +
                 (row.head.finite() ? "confidence interval reaches " : "median ") +
                 compare::FormatValue(head_best, row.info) + ", not beyond " +
                 compare::FormatValue(ceiling, row.info) + ", the second-worst of the " +
                 std::to_string(medians->second.size()) + " baseline runs (" +
                 compare::FormatValue(second_worst, row.info) + ") worsened by the threshold " +
                 row.threshold->ToString() + " (" + row.reason + ")";
    downgraded = true;
  }
  if (downgraded) c.verdict = compare::VerdictOfRows(c.rows);
  return c;
}

}  // namespace benchprof::history
