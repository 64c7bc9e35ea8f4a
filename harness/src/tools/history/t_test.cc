#include "tools/history/t_test.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace benchprof::history {
namespace {

// The continued fraction of I_x(a, b) (the form that converges fast for
// x < (a + 1) / (a + b + 2)), evaluated with the modified Lentz method.
double BetaContinuedFraction(double x, double a, double b) {
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  constexpr int kMaxTerms = 1000;
  double c = 1;
  double d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double f = d;
  for (int m = 1; m <= kMaxTerms; ++m) {
    // The even term d_{2m}, then the odd term d_{2m+1}.
    const double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + even / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    f *= d * c;
    const double odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + odd / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = d * c;
    f *= step;
    if (std::fabs(step - 1) < kEpsilon) break;
  }
  return f;
}

double Mean(std::span<const double> v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

// The sum of squared deviations from `mean`.
double SumOfSquares(std::span<const double> v, double mean) {
  double sum = 0;
  for (double x : v) sum += (x - mean) * (x - mean);
  return sum;
}

// The result for a difference of means with no spread at all: certain.
TTestResult Degenerate(double difference, double df) {
  if (difference == 0) return TTestResult{0, df, 1};
  return TTestResult{difference > 0 ? std::numeric_limits<double>::infinity()
                                    : -std::numeric_limits<double>::infinity(),
                     df, 0};
}

}  // namespace

double RegularizedIncompleteBeta(double x, double a, double b) {
  if (!(a > 0) || !(b > 0) || std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  // The prefactor x^a (1-x)^b / (a B(a, b)), in logarithms to stay finite.
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1) / (a + b + 2)) return front * BetaContinuedFraction(x, a, b) / a;
  // The symmetry I_x(a, b) = 1 - I_{1-x}(b, a) keeps the fraction convergent.
  return 1 - front * BetaContinuedFraction(1 - x, b, a) / b;
}

double StudentTTwoSidedP(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return 0;
  // P(|T| >= |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2).
  const double x = df / (df + t * t);
  return std::clamp(RegularizedIncompleteBeta(x, df / 2, 0.5), 0.0, 1.0);
}

TTestResult PooledTTest(std::span<const double> a, std::span<const double> b,
                        double min_relative_sd) {
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  if (a.empty() || b.empty() || a.size() + b.size() < 3) return TTestResult{};
  const double m1 = Mean(a);
  const double m2 = Mean(b);
  const double df = n1 + n2 - 2;
  const double min_sd = min_relative_sd * std::max(std::fabs(m1), std::fabs(m2));
  const double pooled_variance =
      std::max((SumOfSquares(a, m1) + SumOfSquares(b, m2)) / df, min_sd * min_sd);
  const double standard_error = std::sqrt(pooled_variance * (1 / n1 + 1 / n2));
  // A spread lost below rounding counts as none: the means' difference is
  // then certain, or nothing.
  if (!(standard_error > 1e-12 * std::max(std::fabs(m1), std::fabs(m2)))) {
    return Degenerate(m2 - m1, df);
  }
  const double t = (m2 - m1) / standard_error;
  return TTestResult{t, df, StudentTTwoSidedP(t, df)};
}

TTestResult WelchTTest(std::span<const double> a, std::span<const double> b,
                       double min_relative_sd) {
  if (a.size() < 2 || b.size() < 2) return TTestResult{};
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  const double m1 = Mean(a);
  const double m2 = Mean(b);
  const double min_sd = min_relative_sd * std::max(std::fabs(m1), std::fabs(m2));
  // The variances of the means.
  const double v1 = std::max(SumOfSquares(a, m1) / (n1 - 1), min_sd * min_sd) / n1;
  const double v2 = std::max(SumOfSquares(b, m2) / (n2 - 1), min_sd * min_sd) / n2;
  const double standard_error = std::sqrt(v1 + v2);
  if (!(standard_error > 1e-12 * std::max(std::fabs(m1), std::fabs(m2)))) {
    return Degenerate(m2 - m1, n1 + n2 - 2);
  }
  const double df = (v1 + v2) * (v1 + v2) / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1));
  const double t = (m2 - m1) / standard_error;
  return TTestResult{t, df, StudentTTwoSidedP(t, df)};
}

}  // namespace benchprof::history
