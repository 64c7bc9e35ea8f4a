// The statistics behind `benchprof compare`, checked against values worked
// out by hand (small exact U distributions, binomial order statistics) and
// against brute-force enumeration written independently here.
#include "tools/compare/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace benchprof::compare {
namespace {

// ---- median and its interval ----

TEST(SortedMedianTest, OddEvenAndEmpty) {
  EXPECT_EQ(SortedMedian(std::vector<double>{3}), 3);
  EXPECT_EQ(SortedMedian(std::vector<double>{1, 2, 10}), 2);
  EXPECT_EQ(SortedMedian(std::vector<double>{1, 2, 4, 10}), 3);
  EXPECT_TRUE(std::isnan(SortedMedian(std::vector<double>{})));
  const double big = std::numeric_limits<double>::max();
  EXPECT_EQ(SortedMedian(std::vector<double>{big, big}), big);  // no overflow
}

// Exact P(lo <= B < hi) for B ~ Binomial(n, 1/2), summed independently.
double Coverage(int n, int lo, int hi) {
  double total = 0;
  for (int i = std::max(lo, 0); i < std::min(hi, n + 1); ++i) {
    total += std::exp(std::lgamma(n + 1) - std::lgamma(i + 1) - std::lgamma(n - i + 1) -
                      n * std::log(2.0));
  }
  return total;
}

TEST(QuantileIntervalTest, MatchesBinomialOrderStatisticsByHand) {
  // Worked out on Binomial(n, 1/2) (x 2^n): grow from the mode, the side
  // with more mass first, the left side on ties, until >= 95%.
  struct Case {
    int n, lo, hi;
    double coverage;
  };
  const Case cases[] = {
      {4, 0, 5, 1.0},        // 16/16: both bounds infinite
      {5, 0, 5, 31.0 / 32},  // left-biased: only X(0) = -inf reaches 95%
      {6, 1, 6, 62.0 / 64},  // the first finite interval: min..max
      {7, 1, 7, 126.0 / 128},
      {8, 1, 7, 246.0 / 256},
      {9, 2, 8, 492.0 / 512},
      {10, 2, 9, 1002.0 / 1024},  // the textbook X(2)..X(9)
      {15, 4, 12, 31616.0 / 32768},
      {20, 6, 15, 0.9586105346679688},  // the textbook X(6)..X(15)
      {30, 10, 21, 0.9572260547429323},
  };
  for (const Case& c : cases) {
    const OrderInterval ci = QuantileInterval(c.n, 0.5, 0.95);
    EXPECT_EQ(ci.lo_order, c.lo) << "n=" << c.n;
    EXPECT_EQ(ci.hi_order, c.hi) << "n=" << c.n;
    EXPECT_NEAR(ci.confidence, c.coverage, 1e-12) << "n=" << c.n;
    EXPECT_EQ(ci.finite(c.n), c.n >= 6) << "n=" << c.n;
  }
}

TEST(QuantileIntervalTest, ExactRangeCoversAndIsTight) {
  for (int n = 1; n <= kExactQuantileIntervalMaxN; ++n) {
    for (double confidence : {0.8, 0.9, 0.95, 0.99}) {
      const OrderInterval ci = QuantileInterval(n, 0.5, confidence);
      const double covered = Coverage(n, ci.lo_order, ci.hi_order);
      EXPECT_NEAR(ci.confidence, covered, 1e-9) << n;
      EXPECT_GE(covered, std::min(confidence, Coverage(n, 0, n + 1)) - 1e-12) << n;
      // Dropping either end would fall below the level.
      if (ci.hi_order - ci.lo_order > 1) {
        EXPECT_LT(Coverage(n, ci.lo_order + 1, ci.hi_order), confidence) << n;
        EXPECT_LT(Coverage(n, ci.lo_order, ci.hi_order - 1), confidence) << n;
      }
    }
  }
}

TEST(QuantileIntervalTest, NormalApproximationAboveThirtyCoversTheLevel) {
  for (int n = kExactQuantileIntervalMaxN + 1; n <= 400; n += 7) {
    const OrderInterval ci = QuantileInterval(n, 0.5, 0.95);
    ASSERT_TRUE(ci.finite(n)) << n;
    EXPECT_GE(Coverage(n, ci.lo_order, ci.hi_order), 0.95) << n;
    EXPECT_LT(Coverage(n, ci.lo_order, ci.hi_order), 0.975) << n;  // not needlessly wide
    EXPECT_EQ(ci.lo_order + ci.hi_order, n + 1) << n;              // symmetric
  }
}

TEST(SummarizeTest, PicksTheOrderStatistics) {
  std::vector<double> v = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  const Summary s = Summarize(v, 0.95);
  EXPECT_EQ(s.n, 10);
  EXPECT_EQ(s.median, 14.5);
  EXPECT_EQ(s.lo, 11);  // X(2)
  EXPECT_EQ(s.hi, 18);  // X(9)
  EXPECT_TRUE(s.finite());

  const Summary five = Summarize(std::vector<double>{1, 2, 3, 4, 5}, 0.95);
  EXPECT_TRUE(std::isinf(five.lo));
  EXPECT_FALSE(five.finite());
  const Summary none = Summarize(std::vector<double>{}, 0.95);
  EXPECT_EQ(none.n, 0);
  EXPECT_FALSE(none.finite());
}

// ---- Mann-Whitney U ----

struct UCase {
  std::vector<double> x, y;
  double u, p;
};

TEST(MannWhitneyUTest, ExactSmallSamplesByHand) {
  const UCase cases[] = {
      // Complete separation: the only arrangements as extreme are the two
      // fully separated ones, so p = 2 / C(n1 + n2, n1).
      {{1, 2, 3}, {4, 5, 6}, 0, 2.0 / 20},
      {{4, 5, 6}, {1, 2, 3}, 9, 2.0 / 20},
      {{1, 2, 3, 4}, {5, 6, 7, 8}, 0, 2.0 / 70},
      {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, 0, 2.0 / 252},
      // n1 = n2 = 2: the 6 arrangements give U = 0, 1, 2, 2, 3, 4; U = 1 is
      // 1 from the center 2, and 4 of 6 are at least that far.
      {{1, 3}, {2, 4}, 1, 4.0 / 6},
      // n = 3, 4: U <= 1 in 2 of C(7,3) = 35 arrangements (U = 0: one, U = 1:
      // one), doubled.
      {{1, 2, 4}, {3, 5, 6, 7}, 1, 4.0 / 35},
      // n = 4, 5: U <= 1 in 2 of 126.
      {{1, 2, 3, 5}, {4, 6, 7, 8, 9}, 1, 4.0 / 126},
      // The center itself: p = 1.
      {{1, 4}, {2, 3}, 2, 1.0},
  };
  for (const UCase& c : cases) {
    const UTestResult r = MannWhitneyUTest(c.x, c.y);
    EXPECT_TRUE(r.exact);
    EXPECT_EQ(r.u, c.u);
    EXPECT_NEAR(r.p, c.p, 1e-12) << "u=" << c.u;
  }
}

TEST(MannWhitneyUTest, ExactWithTies) {
  const UCase cases[] = {
      // x = {1,2,2}, y = {2,3,3}: U = 0 + 1/2 + 1/2 = 1, 3.5 from the center
      // 4.5. Of the C(6,3) = 20 ways to pick x from the pooled values, 6 are
      // at least that far: U = 1 and U = 8, three ways each.
      {{1, 2, 2}, {2, 3, 3}, 1, 0.3},
      {{1, 1, 2, 3}, {2, 3, 3, 4}, 2.5, 0.2},
      // Nine per side, many ties (the largest exact-with-ties size):
      // 333 of 4862 (C(18,9) / 10) by enumeration.
      {{5, 5, 5, 6, 7, 7, 8, 9, 9}, {6, 7, 7, 8, 8, 9, 10, 10, 11}, 19.5, 333.0 / 4862},
  };
  for (const UCase& c : cases) {
    const UTestResult r = MannWhitneyUTest(c.x, c.y);
    EXPECT_TRUE(r.exact);
    EXPECT_FALSE(r.all_equal);
    EXPECT_EQ(r.u, c.u);
    EXPECT_NEAR(r.p, c.p, 1e-12) << "u=" << c.u;
  }
}

// Brute force: every way to choose which pooled values are x.
double EnumeratedP(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> pooled = x;
  pooled.insert(pooled.end(), y.begin(), y.end());
  const int n = static_cast<int>(pooled.size());
  const int n1 = static_cast<int>(x.size());
  auto u_of = [&](unsigned mask) {
    double u = 0;
    for (int i = 0; i < n; ++i) {
      if (!(mask & (1u << i))) continue;
      for (int j = 0; j < n; ++j) {
        if (mask & (1u << j)) continue;
        u += pooled[i] > pooled[j] ? 1 : pooled[i] == pooled[j] ? 0.5 : 0;
      }
    }
    return u;
  };
  const double center = static_cast<double>(x.size() * y.size()) / 2;
  const double observed = std::fabs(u_of((1u << n1) - 1) - center);
  int total = 0, extreme = 0;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    if (__builtin_popcount(mask) != n1) continue;
    ++total;
    if (std::fabs(u_of(mask) - center) >= observed - 1e-9) ++extreme;
  }
  return static_cast<double>(extreme) / total;
}

TEST(MannWhitneyUTest, ExactMatchesEnumerationWithAndWithoutTies) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 300; ++trial) {
    const int n1 = 1 + static_cast<int>(rng() % 7);
    const int n2 = 1 + static_cast<int>(rng() % 7);
    // Few distinct values make ties; many make none.
    const int levels = trial % 2 == 0 ? 4 : 1000000;
    std::vector<double> x(n1), y(n2);
    for (double& v : x) v = static_cast<double>(rng() % levels);
    for (double& v : y) v = static_cast<double>(rng() % levels) + (trial % 3 == 0 ? 1 : 0);
    const UTestResult r = MannWhitneyUTest(x, y);
    ASSERT_TRUE(r.exact);
    EXPECT_NEAR(r.p, EnumeratedP(x, y), 1e-12) << "trial " << trial;
  }
}

TEST(MannWhitneyUTest, NormalApproximationWithTieAndContinuityCorrection) {
  // Expected values from the textbook formula evaluated separately:
  // z = (|U - n1 n2 / 2| - 1/2) / sqrt(n1 n2 / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1)))).
  std::vector<double> x, y;
  for (int i = 0; i < 60; ++i) {
    x.push_back(2 * i);
    y.push_back(2 * i + 51);
  }
  UTestResult r = MannWhitneyUTest(x, y);  // n = 60 > 50: approximated
  EXPECT_FALSE(r.exact);
  EXPECT_EQ(r.u, 595);
  EXPECT_NEAR(r.p / 2.582237035570103e-10, 1, 1e-6);

  x.clear();
  y.clear();
  for (int i = 0; i < 60; ++i) {
    x.push_back(i / 3);  // every value three times: ties
    y.push_back(i / 3 + 4);
  }
  r = MannWhitneyUTest(x, y);
  EXPECT_FALSE(r.exact);
  EXPECT_EQ(r.u, 1152);
  EXPECT_NEAR(r.p / 0.0006689655596650387, 1, 1e-6);

  // Ties with n = 10 > 9: approximated too.
  x = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
  y = {3, 3, 4, 4, 5, 5, 6, 6, 7, 7};
  EXPECT_FALSE(MannWhitneyUTest(x, y).exact);
}

TEST(MannWhitneyUTest, ExactUpToFiftyWithoutTies) {
  std::vector<double> x, y;
  for (int i = 0; i < 51; ++i) {
    x.push_back(2 * i);
    y.push_back(2 * i + 31);
  }
  // 51 per side: the normal approximation.
  UTestResult approx = MannWhitneyUTest(x, y);
  EXPECT_FALSE(approx.exact);
  EXPECT_NEAR(approx.p / 7.321754129409504e-06, 1, 1e-6);
  // 50 per side: exact. Checked against a different recurrence: the number
  // of ways to pick 50 of the ranks 1..100 with a given rank sum R, where
  // U = R - 50 * 51 / 2.
  x.pop_back();
  y.pop_back();
  const UTestResult exact = MannWhitneyUTest(x, y);
  EXPECT_TRUE(exact.exact);
  EXPECT_EQ(exact.u, 595);
  const int n = 100, k = 50, max_sum = 100 * 101 / 2;
  std::vector<std::vector<double>> ways(k + 1, std::vector<double>(max_sum + 1, 0));
  ways[0][0] = 1;
  for (int rank = 1; rank <= n; ++rank) {
    for (int taken = std::min(rank, k); taken >= 1; --taken) {
      for (int sum = max_sum; sum >= rank; --sum) ways[taken][sum] += ways[taken - 1][sum - rank];
    }
  }
  double total = 0, tail = 0;
  for (int sum = 0; sum <= max_sum; ++sum) {
    total += ways[k][sum];
    if (sum - k * (k + 1) / 2 <= 595) tail += ways[k][sum];
  }
  EXPECT_NEAR(exact.p / (2 * tail / total), 1, 1e-9);
  // The normal approximation for the same data (6.42e-06) is in the same
  // range but not the same: why small samples need the exact test.
  EXPECT_LT(exact.p, 6.421764116299693e-06);
  EXPECT_GT(exact.p, 6.421764116299693e-06 / 3);
}

TEST(MannWhitneyUTest, SymmetricAndScaleFree) {
  const std::vector<double> x = {3.1, 4.7, 2.2, 9.0, 5.5, 6.1};
  const std::vector<double> y = {7.7, 8.1, 6.6, 9.9, 10.2, 5.9, 8.8};
  const UTestResult a = MannWhitneyUTest(x, y);
  const UTestResult b = MannWhitneyUTest(y, x);
  EXPECT_DOUBLE_EQ(a.p, b.p);
  EXPECT_EQ(a.u + b.u, 42);
  std::vector<double> xs = x, ys = y;
  for (double& v : xs) v = v * 1000 + 7;
  for (double& v : ys) v = v * 1000 + 7;
  EXPECT_DOUBLE_EQ(MannWhitneyUTest(xs, ys).p, a.p);
}

TEST(MannWhitneyUTest, AllEqualIsPOne) {
  const UTestResult r = MannWhitneyUTest(std::vector<double>{5, 5, 5}, std::vector<double>{5, 5});
  EXPECT_TRUE(r.all_equal);
  EXPECT_EQ(r.p, 1);
  // Constant but different sides are as extreme as the test can see.
  const UTestResult d =
      MannWhitneyUTest(std::vector<double>{5, 5, 5, 5}, std::vector<double>{6, 6, 6, 6});
  EXPECT_FALSE(d.all_equal);
  EXPECT_NEAR(d.p, 2.0 / 70, 1e-12);
}

TEST(MinUTestPTest, BenchstatThresholds) {
  EXPECT_NEAR(MinUTestP(3, 3), 0.1, 1e-12);
  EXPECT_NEAR(MinUTestP(4, 4), 0.0286, 1e-4);
  EXPECT_NEAR(MinUTestP(5, 5), 0.0079, 1e-4);
  EXPECT_GT(MinUTestP(3, 3), 0.05);  // n = 3 per side can never be significant
  EXPECT_LE(MinUTestP(4, 4), 0.05);  // n = 4 can
  EXPECT_EQ(MinUTestP(1, 1), 1);
  EXPECT_EQ(MinUTestP(0, 3), 1);
}

// ---- multiple comparisons, geomean ----

TEST(HolmAdjustTest, StepDownByHand) {
  // Sorted: 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06, 0.04 x1 = 0.04
  // -> kept monotone: 0.02, 0.03, 0.06, 0.06.
  const std::vector<double> adjusted = HolmAdjust(std::vector<double>{0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adjusted.size(), 4u);
  EXPECT_NEAR(adjusted[0], 0.03, 1e-15);
  EXPECT_NEAR(adjusted[1], 0.06, 1e-15);
  EXPECT_NEAR(adjusted[2], 0.06, 1e-15);
  EXPECT_NEAR(adjusted[3], 0.02, 1e-15);
  EXPECT_EQ(HolmAdjust(std::vector<double>{0.7, 0.9}), (std::vector<double>{1, 1}));
  EXPECT_TRUE(HolmAdjust(std::vector<double>{}).empty());
  EXPECT_EQ(HolmAdjust(std::vector<double>{0.04}), std::vector<double>{0.04});
}

TEST(GeoMeanTest, Values) {
  EXPECT_DOUBLE_EQ(GeoMean(std::vector<double>{1, 4}), 2);
  EXPECT_DOUBLE_EQ(GeoMean(std::vector<double>{2, 8, 4}), 4);
  EXPECT_TRUE(std::isnan(GeoMean(std::vector<double>{})));
}

}  // namespace
}  // namespace benchprof::compare
