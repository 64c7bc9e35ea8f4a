// Finds where a series' level changed: E-divisive means with a t-test for
// the statistical metrics (times and user counters), the exact rule for the
// exact ones (allocs/op, B/op, instructions/op).
//
// Statistical metrics: the series is the points' medians, one value a run.
// A weak pass walks windows of `window` points (each window half over the
// previous one, so every position is well inside one): in each it finds the
// split with the largest energy statistic (the E-divisive means divergence
// of the two sides), tests it with a t-test between the sides, and if the
// p-value is at most `weak_p` keeps it as a candidate and searches both
// sides again. The strict pass then tests each candidate against its
// neighbouring candidates (at most `window` points on each side) and drops
// the least significant one whose p-value is above `max_p`, again and
// again, until every one left passes. The strict p-value is multiplied by
// the number of positions of the tested stretch (Bonferroni): the split is
// the most divergent of them, and without the factor noise alone passed in
// a quarter of 200-run series (pairs of candidates holding up a short bump
// between them); with it, none in 100 and 2 in 900 more, while a 5% step
// in 1% noise is still found within one run in 99 of 100 series. Last,
// change points around an interior segment shorter than `min_segment` go,
// the least significant first: a few slow runs are an outlier, not a level. This is the method of
// Apache Otava (p <= 0.001, windows of 50), in our own code; it is deterministic — no permutations,
// no randomness, nothing depends on hash order.
//
// Exact metrics (MetricKind::kExact whose every run's repetitions agree, as
// the compare engine's exact rule asks, and those with exact_medians): a
// change point at every point whose median differs from the previous
// point's by more than the metric's threshold (compare::ThresholdPolicy:
// allocs/op and B/op any change, instructions/op 1%; 0 when the policy
// gates nothing), at the exact commit, with no p-value.
//
//   DetectOptions options;                      // window 50, p <= 0.001
//   std::vector<ChangePoint> found = FindChangePoints(series, options);
//   for (const ChangePoint& c : found) ... c.first_bad_commit, c.change ...
//   bool fail = NewestIsRegression(AnalysedSeries{series, found});
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_HISTORY_CHANGE_POINTS_H_
#define BENCHPROF_TOOLS_HISTORY_CHANGE_POINTS_H_

#include <span>
#include <vector>

#include "tools/compare/thresholds.h"
#include "tools/history/series.h"

namespace benchprof::history {

struct DetectOptions {
  // Points a window of the weak pass holds, and the most points on each
  // side of a candidate the strict pass tests. At least 4.
  int window = 50;
  // The strict pass keeps a change point whose t-test p-value, times the
  // positions it was chosen among, is at most this.
  double max_p = 0.001;
  // The weak pass keeps a candidate whose p-value is at most this (it only
  // proposes: the strict pass decides).
  double weak_p = 0.05;
  // The fewest points between two statistical change points: a shorter run
  // of points that differ is an outlier (a runner slow for a while), not a
  // level. Segments at either end may be shorter, so that a step at the
  // newest run is found at once.
  int min_segment = 3;
  // Student's t-test with pooled variance (a step moves a runner's level,
  // not its noise, and a side of one point can still be tested — the newest
  // run, say), or Welch's (unequal variances; needs 2 points a side and has
  // little power when one side is short).
  bool welch = false;
  // The smallest spread of the points the t-test assumes, as a fraction of
  // their level. Run medians are written with a few significant digits, and
  // on a steady machine two stretches of runs can each agree to the last
  // one: without a floor, 111.9 against 112.1 would be a certain change.
  double min_relative_noise = 0.001;
  // The exact rule's thresholds: Find(benchmark, metric, false).
  compare::ThresholdPolicy thresholds = compare::ThresholdPolicy::Defaults();
};

// The change points of `series`, in index order, every field filled: before
// and after medians over the segments between neighbouring change points
// (medians of the points' medians), change = after / before - 1 (+inf or
// -inf when before is 0 and after is not, 0 when both are), regression when
// the change is in the metric's worse direction (info.higher_is_better).
// The points' `median` fields are read; `values` are not. Medians must be
// finite. Fewer than 2 points have no change point; a statistical change
// point may be at any index from 1 to n - 1 (a side of one point is tested
// against the other side's spread), but needs 3 points in all, and two of
// them are at least `min_segment` points apart.
std::vector<ChangePoint> FindChangePoints(const Series& series, const DetectOptions& options);

// Whether the series' newest point is regressed: its last change point (by
// index) is a regression, so the segment the newest point is in began with a change
// for the worse and nothing since changed it back. This stays true on
// every later run until a change point back (an improvement) follows, so a
// regression cannot pass unnoticed by landing between two checks. False
// with no change point.
bool NewestIsRegression(const AnalysedSeries& series);

// The energy statistic of splitting `x` before index k (0 < k < x.size()):
// the E-divisive means divergence with exponent 1,
//   m n / (m + n) * (2/(m n) sum|a_i - b_j| - 1/m^2 sum|a_i - a_i'|
//                    - 1/n^2 sum|b_j - b_j'|)
// for a = x[0, k) (m values) and b = x[k, n) (n values). Exposed for tests.
double EnergyStatistic(std::span<const double> x, size_t k);

// The k in [1, x.size()) with the largest energy statistic (the smallest
// such k on ties), in O(n^2); 0 when x has fewer than 2 values. Exposed for
// tests.
size_t BestEnergySplit(std::span<const double> x);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_CHANGE_POINTS_H_
