// Student's t distribution and the two-sample t-tests the change-point
// detector judges its splits with. The distribution is computed here, from
// the regularised incomplete beta function, so a p-value is the same on
// every machine and standard library (only std::lgamma, std::log and
// std::exp of the C library are used).
//
//   double p = StudentTTwoSidedP(2.0, 10);        // 0.0734
//   TTestResult r = PooledTTest(before, after);    // r.t, r.df, r.p
//   if (r.p <= 0.001) { ... }                      // the means differ
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_HISTORY_T_TEST_H_
#define BENCHPROF_TOOLS_HISTORY_T_TEST_H_

#include <span>

namespace benchprof::history {

// The regularised incomplete beta function I_x(a, b) for a, b > 0 and x in
// [0, 1] (clamped outside), with a relative accuracy of about 1e-14. NaN
// for a or b not > 0.
double RegularizedIncompleteBeta(double x, double a, double b);

// P(|T| >= |t|) for T with Student's t distribution of `df` > 0 degrees of
// freedom (df need not be an integer: Welch's test gives fractional ones).
// 1 for t == 0; 0 for an infinite t; NaN for a NaN t or df not > 0.
double StudentTTwoSidedP(double t, double df);

// The result of a two-sample test: the statistic (positive when the second
// sample's mean is larger), its degrees of freedom and the two-sided p-value.
struct TTestResult {
  double t = 0;
  double df = 0;
  double p = 1;
};

// Student's two-sample t-test with pooled variance: the samples are assumed
// to share one variance, which a step in a benchmark's level leaves as it
// was, so even a side of one value is tested (against the spread of the
// other side). Needs a.size() + b.size() >= 3 and both non-empty; otherwise
// p = 1. The values' standard deviation is taken as at least
// `min_relative_sd` times the larger mean's magnitude (0: no floor). When
// both samples are constant and there is no floor: p = 0 if the means
// differ, else 1.
TTestResult PooledTTest(std::span<const double> a, std::span<const double> b,
                        double min_relative_sd = 0);

// Welch's two-sample t-test (unequal variances, Welch–Satterthwaite degrees
// of freedom). Needs two values on each side; otherwise p = 1. When both
// samples are constant and there is no floor (`min_relative_sd`, as for
// PooledTTest): p = 0 if the means differ, else 1.
TTestResult WelchTTest(std::span<const double> a, std::span<const double> b,
                       double min_relative_sd = 0);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_T_TEST_H_
