// Distribution-free statistics for comparing two samples of benchmark
// measurements, with the rules benchstat (golang.org/x/perf) uses, so a
// table from `benchprof compare` means what Go users expect:
//
//   - the summary of a sample is its median, with a confidence interval made
//     of two order statistics (exact on Binomial(n, q) up to n = 30, the
//     normal approximation with continuity correction above);
//   - two samples are compared with the two-sided Mann-Whitney U test, exact
//     for n1, n2 <= 50 without ties and n1, n2 <= 9 with ties, otherwise the
//     normal approximation with tie and continuity correction;
//   - p-values of many comparisons are corrected with Holm's step-down
//     method, so that 50 unchanged benchmarks do not raise a false alarm
//     with probability 1 - 0.95^50.
//
//   std::vector<double> base = {...}, head = {...};
//   std::sort(base.begin(), base.end());
//   Summary s = Summarize(base, 0.95);       // s.median, s.lo, s.hi
//   UTestResult t = MannWhitneyUTest(base, head);
//   if (t.p <= 0.05) { ... }                 // the locations differ
//
// Nothing here knows about benchmarks, files or output.
//
// Thread-safety: every function is thread-safe. MannWhitneyUTest keeps a
// per-thread cache of exact null distributions.
#ifndef BENCHPROF_TOOLS_COMPARE_STATISTICS_H_
#define BENCHPROF_TOOLS_COMPARE_STATISTICS_H_

#include <span>
#include <vector>

namespace benchprof::compare {

// The largest sample sizes for which the U test computes an exact p-value:
// without ties, and with ties (benchstat's limits).
inline constexpr int kExactUTestMaxN = 50;
inline constexpr int kExactUTestMaxNWithTies = 9;

// The largest sample size for which QuantileInterval() is exact on the
// binomial distribution (benchstat's limit); above it, a normal approximation.
inline constexpr int kExactQuantileIntervalMaxN = 30;

// The median of `sorted`, which must be in ascending order: the middle value,
// or the mean of the two middle values. NaN if `sorted` is empty.
double SortedMedian(std::span<const double> sorted);

// A confidence interval for a quantile, as two order statistics of a sorted
// sample of size n. Orders are 1-based; lo_order == 0 stands for -infinity and
// hi_order == n + 1 for +infinity.
struct OrderInterval {
  int lo_order = 0;
  int hi_order = 0;
  double confidence = 0;  // the coverage achieved, >= the one requested

  // True if both bounds are sample values.
  bool finite(int n) const { return lo_order > 0 && hi_order <= n; }
};

// The distribution-free confidence interval for the q-quantile (0 < q < 1)
// of a sample of size n >= 1 at `confidence` (0 < confidence < 1): the
// interval [X(lo), X(hi)) covers the quantile with probability
// P(lo <= B < hi), B ~ Binomial(n, q). For n <= 30 the set of B values grows
// from the (leftmost) mode, one value at a time on the side with the larger
// probability, the left side on ties, until it reaches `confidence`. Above 30
// the bounds come from the normal approximation with continuity correction.
// For the median at 95% the interval is finite from n = 6 on.
OrderInterval QuantileInterval(int n, double q, double confidence);

// The median of a sample and its confidence interval.
struct Summary {
  int n = 0;
  double median = 0;      // NaN when n == 0
  double lo = 0, hi = 0;  // -inf / +inf when the interval is not finite
  double confidence = 0;  // the coverage achieved
  bool finite() const;    // both bounds are finite
};

// Summarizes `sorted` (ascending) at the given confidence level.
Summary Summarize(std::span<const double> sorted, double confidence);

// The result of a two-sided Mann-Whitney U test.
struct UTestResult {
  // U of the first sample: the number of pairs (x, y) with x > y, ties
  // counting one half. Ranges over [0, n1 * n2].
  double u = 0;
  double p = 1;            // two-sided p-value, in (0, 1]
  bool exact = false;      // false: normal approximation
  bool all_equal = false;  // every value of both samples is the same (p = 1)
};

// Tests whether the locations of `x` and `y` differ (two-sided). Both must
// be non-empty; neither needs to be sorted. The exact p-value is the
// probability, over all equally likely assignments of the pooled values to
// the two samples, of a U at least as far from n1 * n2 / 2 as the one
// observed. Exact for n1, n2 <= kExactUTestMaxN without ties and n1, n2 <=
// kExactUTestMaxNWithTies with ties; otherwise the normal approximation with
// tie correction of the variance and a continuity correction of 1/2.
UTestResult MannWhitneyUTest(std::span<const double> x, std::span<const double> y);

// The smallest two-sided p-value the U test can give for sample sizes n1 and
// n2 (no ties): 2 / C(n1 + n2, n1), at most 1. For n1 = n2 it is 0.1 at 3,
// 0.0286 at 4 and 0.0079 at 5, which is why at least 4 samples per side are
// needed to claim anything at alpha = 0.05.
double MinUTestP(int n1, int n2);

// Holm's step-down adjustment of a family of p-values: the i-th smallest p
// becomes max over j <= i of min(1, (m - j + 1) * p_(j)). Rejecting where the
// adjusted p <= alpha keeps the family-wise error rate at most alpha for any
// dependence between the tests. Returns the adjusted values in input order.
std::vector<double> HolmAdjust(std::span<const double> p);

// The geometric mean of `values`, which must all be > 0; NaN if empty.
double GeoMean(std::span<const double> values);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_STATISTICS_H_
