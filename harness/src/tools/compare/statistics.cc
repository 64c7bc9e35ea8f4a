#include "tools/compare/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

namespace benchprof::compare {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Standard normal upper tail, P(Z > z).
double NormalUpperTail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

// z such that P(Z <= z) = p, for 0 < p < 1. Bisection on erfc is slow next
// to a rational approximation but exact to the last bit that matters here,
// and it runs a few thousand times per comparison at most.
double NormalQuantile(double p) {
  double lo = -40, hi = 40;
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    if (1.0 - NormalUpperTail(mid) < p) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

// C(n, k) as a double; exact while the value fits in 53 bits.
double Choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  k = std::min(k, n - k);
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;  // C(n-k+i, i), an integer
  return c;
}

// P(U <= u) for u = 0 .. floor(n1 * n2 / 2) under the null hypothesis without
// ties. Built from the recurrence on the largest pooled value, which is an
// x (contributing n pairs) with probability m / (m + n):
//   p[m][n](u) = m/(m+n) p[m-1][n](u - n) + n/(m+n) p[m][n-1](u).
// Only the lower half is kept: the distribution is symmetric about n1 n2 / 2.
std::vector<double> ExactLowerCdf(int n1, int n2) {
  const int half = n1 * n2 / 2;
  const size_t width = static_cast<size_t>(half) + 1;
  // prev[n] = distribution for (m - 1, n); cur[n] = for (m, n).
  std::vector<std::vector<double>> prev(n2 + 1, std::vector<double>(width, 0.0));
  for (auto& v : prev) v[0] = 1;  // m = 0: U = 0 with certainty
  std::vector<std::vector<double>> cur = prev;
  for (int m = 1; m <= n1; ++m) {
    std::fill(cur[0].begin(), cur[0].end(), 0.0);
    cur[0][0] = 1;  // n = 0: U = 0 with certainty
    for (int n = 1; n <= n2; ++n) {
      const double px = static_cast<double>(m) / (m + n);
      const double py = 1 - px;
      std::vector<double>& out = cur[n];
      const std::vector<double>& from_x = prev[n];
      const std::vector<double>& from_y = cur[n - 1];
      for (size_t u = 0; u < width; ++u) {
        const double x_part = u >= static_cast<size_t>(n) ? from_x[u - n] : 0.0;
        out[u] = px * x_part + py * from_y[u];
      }
    }
    std::swap(prev, cur);
  }
  std::vector<double> cdf = std::move(prev[n2]);
  for (size_t u = 1; u < width; ++u) cdf[u] += cdf[u - 1];
  return cdf;
}

// The cached lower cdf for sample sizes {n1, n2} (order does not matter:
// swapping the samples maps U to n1 n2 - U, which has the same distribution).
const std::vector<double>& CachedLowerCdf(int n1, int n2) {
  thread_local std::map<std::pair<int, int>, std::vector<double>> cache;
  const std::pair<int, int> key(std::min(n1, n2), std::max(n1, n2));
  auto it = cache.find(key);
  if (it == cache.end()) {
    it = cache.emplace(key, ExactLowerCdf(key.first, key.second)).first;
  }
  return it->second;
}

// Exact two-sided p with ties: enumerates, group by group of equal values in
// ascending order, how many of each group go to x, counting assignments
// (C(t, j) ways to pick j of a group of t) per (x used so far, 2U so far).
// `groups` holds each group's size; `u2` is twice the observed U.
double ExactTiedP(const std::vector<int>& groups, int n1, int n2, int64_t u2) {
  const int max_u2 = 2 * n1 * n2;
  const size_t row = static_cast<size_t>(max_u2) + 1;
  std::vector<double> count(static_cast<size_t>(n1 + 1) * row, 0.0);
  std::vector<double> next(count.size(), 0.0);
  count[0] = 1;
  int seen = 0;
  for (int t : groups) {
    std::fill(next.begin(), next.end(), 0.0);
    for (int k = 0; k <= n1; ++k) {
      const int y_before = seen - k;
      if (y_before < 0 || y_before > n2) continue;
      for (int s = 0; s <= max_u2; ++s) {
        const double ways = count[k * row + s];
        if (ways == 0) continue;
        for (int j = 0; j <= t && k + j <= n1; ++j) {
          if (t - j > n2 - y_before) continue;  // not enough y left for the rest
          const int s2 = s + j * (2 * y_before + (t - j));
          next[(k + j) * row + s2] += ways * Choose(t, j);
        }
      }
    }
    std::swap(count, next);
    seen += t;
  }
  const double total = Choose(n1 + n2, n1);
  const int64_t center2 = static_cast<int64_t>(n1) * n2;  // 2 * (n1 n2 / 2)
  const int64_t distance = std::llabs(u2 - center2);
  double tail = 0;
  for (int s = 0; s <= max_u2; ++s) {
    if (std::llabs(s - center2) >= distance) tail += count[n1 * row + s];
  }
  return std::min(1.0, tail / total);
}

}  // namespace

double SortedMedian(std::span<const double> sorted) {
  const size_t n = sorted.size();
  if (n == 0) return kNaN;
  if (n % 2 == 1) return sorted[n / 2];
  // Halving each first keeps two huge values from overflowing.
  return sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2;
}

OrderInterval QuantileInterval(int n, double q, double confidence) {
  OrderInterval result;
  if (n <= 0) return result;
  if (n > kExactQuantileIntervalMaxN) {
    const double mean = n * q;
    const double sd = std::sqrt(n * q * (1 - q));
    const double z = NormalQuantile(0.5 + confidence / 2);
    // Coverage P(lo <= B <= hi) ~ Phi((hi + 1/2 - mean)/sd) - Phi((lo - 1/2 - mean)/sd).
    const int lo = std::max(0, static_cast<int>(std::floor(mean - z * sd + 0.5)));
    const int hi = std::min(n, static_cast<int>(std::ceil(mean + z * sd - 0.5)));
    result.lo_order = lo;
    result.hi_order = hi + 1;
    result.confidence =
        NormalUpperTail((lo - 0.5 - mean) / sd) - NormalUpperTail((hi + 0.5 - mean) / sd);
    return result;
  }
  std::vector<double> pmf(static_cast<size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) {
    pmf[i] = Choose(n, i) * std::pow(q, i) * std::pow(1 - q, n - i);
  }
  // Equal probabilities (the symmetric q = 0.5 case) must compare equal, so
  // the left bias is deterministic; allow for rounding in the products.
  auto greater = [](double a, double b) { return a > b * (1 + 1e-12); };
  int lo = 0;
  for (int i = 1; i <= n; ++i) {
    if (greater(pmf[i], pmf[lo])) lo = i;
  }
  int hi = lo;
  double covered = pmf[lo];
  while (covered < confidence && (lo > 0 || hi < n)) {
    const double left = lo > 0 ? pmf[lo - 1] : -1;
    const double right = hi < n ? pmf[hi + 1] : -1;
    if (greater(right, left)) {
      covered += pmf[++hi];
    } else {
      covered += pmf[--lo];
    }
  }
  result.lo_order = lo;
  result.hi_order = hi + 1;
  result.confidence = std::min(1.0, covered);
  return result;
}

bool Summary::finite() const { return std::isfinite(lo) && std::isfinite(hi); }

Summary Summarize(std::span<const double> sorted, double confidence) {
  Summary s;
  s.n = static_cast<int>(sorted.size());
  s.median = SortedMedian(sorted);
  if (s.n == 0) {
    s.lo = -kInf;
    s.hi = kInf;
    return s;
  }
  const OrderInterval ci = QuantileInterval(s.n, 0.5, confidence);
  s.lo = ci.lo_order > 0 ? sorted[ci.lo_order - 1] : -kInf;
  s.hi = ci.hi_order <= s.n ? sorted[ci.hi_order - 1] : kInf;
  s.confidence = ci.confidence;
  return s;
}

UTestResult MannWhitneyUTest(std::span<const double> x, std::span<const double> y) {
  UTestResult r;
  const int n1 = static_cast<int>(x.size());
  const int n2 = static_cast<int>(y.size());
  if (n1 == 0 || n2 == 0) return r;

  // Pool the values, x tagged true; sort by value only so that ties form
  // contiguous groups regardless of their tags.
  std::vector<std::pair<double, bool>> pooled;
  pooled.reserve(x.size() + y.size());
  for (double v : x) pooled.emplace_back(v, true);
  for (double v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });

  // 2U = sum over x of (2 * #y below it + #y equal to it), by tie group.
  int64_t u2 = 0;
  int y_before = 0;
  double tie_term = 0;  // sum of t^3 - t over tie groups
  std::vector<int> groups;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    int xs = 0, ys = 0;
    while (j < pooled.size() && !(pooled[i].first < pooled[j].first)) {
      (pooled[j].second ? xs : ys)++;
      ++j;
    }
    u2 += static_cast<int64_t>(xs) * (2 * y_before + ys);
    y_before += ys;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    groups.push_back(static_cast<int>(j - i));
    i = j;
  }
  r.u = static_cast<double>(u2) / 2;

  if (groups.size() == 1) {
    r.all_equal = true;
    r.exact = true;
    r.p = 1;
    return r;
  }
  const bool ties = groups.size() < pooled.size();
  const int64_t center2 = static_cast<int64_t>(n1) * n2;
  if (!ties && n1 <= kExactUTestMaxN && n2 <= kExactUTestMaxN) {
    const std::vector<double>& cdf = CachedLowerCdf(n1, n2);
    // Without ties U is an integer; by symmetry the two tails are equal.
    const int64_t u = u2 / 2;
    const int64_t near = std::min(u, center2 - u);
    r.p = std::min(1.0, 2 * cdf[static_cast<size_t>(near)]);
    r.exact = true;
    return r;
  }
  if (ties && n1 <= kExactUTestMaxNWithTies && n2 <= kExactUTestMaxNWithTies) {
    r.p = ExactTiedP(groups, n1, n2, u2);
    r.exact = true;
    return r;
  }
  const double n = static_cast<double>(n1) + n2;
  const double variance = static_cast<double>(n1) * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  const double distance = std::fabs(static_cast<double>(u2 - center2)) / 2;
  if (variance <= 0) {
    r.p = 1;
    return r;
  }
  const double z = std::max(0.0, distance - 0.5) / std::sqrt(variance);
  r.p = std::min(1.0, 2 * NormalUpperTail(z));
  return r;
}

double MinUTestP(int n1, int n2) {
  if (n1 <= 0 || n2 <= 0) return 1;
  return std::min(1.0, 2 / Choose(n1 + n2, n1));
}

std::vector<double> HolmAdjust(std::span<const double> p) {
  const size_t m = p.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p[a] < p[b]; });
  std::vector<double> adjusted(m);
  double running = 0;
  for (size_t rank = 0; rank < m; ++rank) {
    const double scaled = std::min(1.0, static_cast<double>(m - rank) * p[order[rank]]);
    running = std::max(running, scaled);
    adjusted[order[rank]] = running;
  }
  return adjusted;
}

double GeoMean(std::span<const double> values) {
  if (values.empty()) return kNaN;
  double sum = 0;
  for (double v : values) sum += std::log(v);
  return std::exp(sum / static_cast<double>(values.size()));
}

}  // namespace benchprof::compare
