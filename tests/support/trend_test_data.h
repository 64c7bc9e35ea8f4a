// Analysed series with planted steps, for tests of the trend page: runs on
// commits shared by every series (commit k is TrendCommitHash(k)), each run's
// repetitions spread uniformly around the level of its segment, and a change
// point at every planted step, as the detector would report it.
//
//   TrendPageInput input;
//   input.series.push_back(PlantedSeries({"BM_a", "cpu_time", "ci", "main"}, 1000, 10,
//                                        {{600, 0.05}}));
//   input.commits = TrendCommits(1000);
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TESTS_SUPPORT_TREND_TEST_DATA_H_
#define BENCHPROF_TESTS_SUPPORT_TREND_TEST_DATA_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "tools/history/series.h"

namespace benchprof::testing {

// A 40-digit hexadecimal hash of commit k: 8 digits that differ from
// commit to commit (as real hashes' short forms do), then k in hexadecimal.
inline std::string TrendCommitHash(size_t k) {
  const uint32_t mixed = static_cast<uint32_t>((k + 1) * 2654435761u);
  char hash[41];
  std::snprintf(hash, sizeof hash, "%08x%032zx", mixed, k);
  return hash;
}

// Commits 0 .. n-1, an hour apart from 2026-01-01, with subjects "Commit k".
inline std::map<std::string, history::CommitInfo> TrendCommits(size_t n) {
  std::map<std::string, history::CommitInfo> commits;
  for (size_t k = 0; k < n; ++k) {
    history::CommitInfo& c = commits[TrendCommitHash(k)];
    c.hash = TrendCommitHash(k);
    if (k > 0) c.parents = {TrendCommitHash(k - 1)};
    c.committer_time_ns = (1'767'225'600 + static_cast<int64_t>(k) * 3600) * 1'000'000'000;
    c.subject = "Commit " + std::to_string(k);
  }
  return commits;
}

struct PlantedStep {
  size_t index = 0;   // the first run at the new level
  double change = 0;  // relative: 0.05 is 5% higher
  bool regression = true;
};

// A series of `runs` runs of `repetitions` values each: level 1000 (in
// ns/op, or in the metric when it is a ".../op") times the planted steps, each value within
// +-`noise` (relative) of its level, drawn from a fixed-seed generator. Runs on commits 0 ..
// runs-1.
inline history::AnalysedSeries PlantedSeries(history::SeriesKey key, size_t runs,
                                             size_t repetitions,
                                             const std::vector<PlantedStep>& steps,
                                             double noise = 0.01, uint64_t seed = 1) {
  history::AnalysedSeries out;
  out.series.key = std::move(key);
  // "allocs/op" and the like are their own unit; times are in ns/op.
  const bool per_op = out.series.key.metric.find("/op") != std::string::npos;
  out.series.info.unit = per_op ? out.series.key.metric : "ns/op";
  out.series.info.kind = per_op ? results::MetricKind::kExact : results::MetricKind::kTime;
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  const auto uniform = [&state] {  // in [-1, 1)
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 4503599627370496.0 - 1.0;
  };
  double level = 1000;
  std::vector<double> levels;
  size_t next_step = 0;
  for (size_t k = 0; k < runs; ++k) {
    if (next_step < steps.size() && steps[next_step].index == k) {
      level *= 1 + steps[next_step].change;
      ++next_step;
    }
    levels.push_back(level);
    history::SeriesPoint point;
    point.run_id = static_cast<int64_t>(k + 1);
    point.commit = TrendCommitHash(k);
    point.recorded_at_ns = static_cast<int64_t>(k) * 1'000'000'000;
    for (size_t r = 0; r < repetitions; ++r)
      point.values.push_back(level * (1 + noise * uniform()));
    std::vector<double> sorted = point.values;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    point.median = n == 0 ? level : n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    out.series.points.push_back(std::move(point));
  }
  for (const PlantedStep& step : steps) {
    history::ChangePoint cp;
    cp.index = step.index;
    cp.last_good_commit = TrendCommitHash(step.index - 1);
    cp.first_bad_commit = TrendCommitHash(step.index);
    cp.before_median = levels[step.index - 1];
    cp.after_median = levels[step.index];
    cp.change = cp.after_median / cp.before_median - 1;
    cp.p = 0.001;
    cp.regression = step.regression;
    out.change_points.push_back(cp);
  }
  return out;
}

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_TREND_TEST_DATA_H_
