// Student's t distribution against values from tables and closed forms, and
// the two t-tests on small samples worked by hand.
#include "tools/history/t_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace benchprof::history {
namespace {

TEST(TDistribution, IncompleteBetaClosedForms) {
  EXPECT_NEAR(RegularizedIncompleteBeta(0.3, 1, 1), 0.3, 1e-14);
  EXPECT_NEAR(RegularizedIncompleteBeta(0.3, 4, 1), std::pow(0.3, 4), 1e-14);
  EXPECT_NEAR(RegularizedIncompleteBeta(0.5, 7.5, 7.5), 0.5, 1e-13);
  // I_x(1, b) = 1 - (1 - x)^b.
  EXPECT_NEAR(RegularizedIncompleteBeta(0.2, 1, 3), 1 - std::pow(0.8, 3), 1e-14);
  EXPECT_EQ(RegularizedIncompleteBeta(0, 2, 3), 0);
  EXPECT_EQ(RegularizedIncompleteBeta(1, 2, 3), 1);
  EXPECT_TRUE(std::isnan(RegularizedIncompleteBeta(0.5, 0, 3)));
}

TEST(TDistribution, TwoSidedPAgainstTables) {
  struct Case {
    double t, df, p;
  };
  // Critical values of two-sided tests from printed t tables, and the
  // issue's example.
  const std::vector<Case> cases = {
      {2.0, 10, 0.07339},   {2.228139, 10, 0.05},  {12.7062, 1, 0.05},    {4.032143, 5, 0.01},
      {2.749996, 30, 0.01}, {3.849516, 20, 0.001}, {3.460200, 60, 0.001}, {1.983972, 100, 0.05},
      {636.6192, 1, 0.001}, {0.6998, 10, 0.5},
  };
  for (const Case& c : cases) {
    EXPECT_NEAR(StudentTTwoSidedP(c.t, c.df), c.p, c.p * 2e-4) << "t=" << c.t << " df=" << c.df;
    EXPECT_NEAR(StudentTTwoSidedP(-c.t, c.df), c.p, c.p * 2e-4) << "t=" << -c.t;
  }
}

TEST(TDistribution, TwoSidedPClosedForms) {
  // df = 1 is Cauchy: p = 1 - 2 atan(t) / pi; df = 2: p = 1 - t / sqrt(2 + t^2).
  for (double t : {0.1, 1.0, 3.0, 50.0}) {
    EXPECT_NEAR(StudentTTwoSidedP(t, 1), 1 - 2 * std::atan(t) / M_PI, 1e-12) << t;
    EXPECT_NEAR(StudentTTwoSidedP(t, 2), 1 - t / std::sqrt(2 + t * t), 1e-12) << t;
  }
  EXPECT_EQ(StudentTTwoSidedP(0, 7), 1);
  EXPECT_EQ(StudentTTwoSidedP(INFINITY, 7), 0);
  EXPECT_TRUE(std::isnan(StudentTTwoSidedP(NAN, 7)));
  EXPECT_TRUE(std::isnan(StudentTTwoSidedP(1, 0)));
  // Far tails stay positive and tiny, not 0 or negative.
  const double tail = StudentTTwoSidedP(40, 100);
  EXPECT_GT(tail, 0);
  EXPECT_LT(tail, 1e-60);
}

TEST(TTests, PooledAndWelchByHand) {
  const std::vector<double> a = {1, 2, 3}, b = {4, 5, 6};
  // Means 2 and 5, variances 1: t = 3 / sqrt(2/3), df 4 for both tests.
  const TTestResult pooled = PooledTTest(a, b);
  EXPECT_NEAR(pooled.t, 3.674235, 1e-6);
  EXPECT_EQ(pooled.df, 4);
  EXPECT_NEAR(pooled.p, 0.021312, 1e-6);
  const TTestResult welch = WelchTTest(a, b);
  EXPECT_NEAR(welch.t, pooled.t, 1e-12);
  EXPECT_NEAR(welch.df, 4, 1e-12);
  EXPECT_NEAR(welch.p, pooled.p, 1e-12);
  EXPECT_LT(PooledTTest(b, a).t, 0);
}

TEST(TTests, PooledTestsOneValueAgainstTheOtherSidesSpread) {
  // Mean 2, sum of squares 2, df 2: se = sqrt(1 + 1/3), t = 8 / se.
  const TTestResult r = PooledTTest(std::vector<double>{1, 2, 3}, std::vector<double>{10});
  EXPECT_NEAR(r.t, 6.928203, 1e-6);
  EXPECT_EQ(r.df, 2);
  EXPECT_NEAR(r.p, 1 - r.t / std::sqrt(2 + r.t * r.t), 1e-12);
  // Welch cannot estimate a variance from one value.
  EXPECT_EQ(WelchTTest(std::vector<double>{1, 2, 3}, std::vector<double>{10}).p, 1);
}

TEST(TTests, DegenerateSamples) {
  const std::vector<double> three = {3, 3, 3}, four = {4, 4}, zeros = {0, 0, 0};
  EXPECT_EQ(PooledTTest(three, four).p, 0);
  EXPECT_EQ(PooledTTest(three, three).p, 1);
  EXPECT_EQ(PooledTTest(zeros, zeros).p, 1);
  EXPECT_EQ(WelchTTest(three, four).p, 0);
  EXPECT_EQ(PooledTTest(std::vector<double>{1}, std::vector<double>{2}).p, 1);  // no df
  EXPECT_EQ(PooledTTest(std::vector<double>{}, four).p, 1);
  EXPECT_FALSE(std::isnan(PooledTTest(zeros, std::vector<double>{0, 1}).p));
}

}  // namespace
}  // namespace benchprof::history
