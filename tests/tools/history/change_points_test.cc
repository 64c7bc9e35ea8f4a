// The change-point detector on small cases worked by hand: the energy
// statistic, the exact rule and its thresholds, the fields of a change
// point, edges (0-2 points, constant series, zeros, steps at the first and
// last positions, several steps) and determinism.
#include "tools/history/change_points.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "synthetic_series.h"

namespace benchprof::history {
namespace {

using testing::AllocsInfo;
using testing::MakeSeries;
using testing::NormalNoise;
using testing::StepLevels;
using testing::TimeInfo;

std::vector<size_t> Indices(const std::vector<ChangePoint>& found) {
  std::vector<size_t> out;
  for (const ChangePoint& c : found) out.push_back(c.index);
  return out;
}

TEST(EnergyStatistic, HandComputedSplits) {
  const std::vector<double> x = {0, 0, 1, 1};
  // k = 2: across 2/(2*2) * 4 = 2, within 0: Q = 2*2/4 * 2 = 2.
  EXPECT_DOUBLE_EQ(EnergyStatistic(x, 2), 2);
  // k = 1: across 2/3 * 2 = 4/3, right side 4/9: Q = 3/4 * 8/9 = 2/3.
  EXPECT_DOUBLE_EQ(EnergyStatistic(x, 1), 2.0 / 3);
  EXPECT_DOUBLE_EQ(EnergyStatistic(x, 3), 2.0 / 3);
  EXPECT_EQ(BestEnergySplit(x), 2u);
  // Two values: across 2 * 3, Q = 1/2 * 6.
  EXPECT_DOUBLE_EQ(EnergyStatistic(std::vector<double>{0, 3}, 1), 3);
  // {1, 2, 4} at k = 1: across 2/2 * (1 + 3) = 4, right 2/4 * 2 = 1: Q = 2/3 * 3.
  EXPECT_DOUBLE_EQ(EnergyStatistic(std::vector<double>{1, 2, 4}, 1), 2);
  // At k = 2: across 2/2 * 5 = 5, left 2/4 * 1: Q = 2/3 * 4.5 = 3.
  EXPECT_DOUBLE_EQ(EnergyStatistic(std::vector<double>{1, 2, 4}, 2), 3);
  EXPECT_EQ(BestEnergySplit(std::vector<double>{1, 2, 4}), 2u);
}

TEST(EnergyStatistic, EdgesAndTies) {
  EXPECT_EQ(BestEnergySplit(std::vector<double>{}), 0u);
  EXPECT_EQ(BestEnergySplit(std::vector<double>{5}), 0u);
  EXPECT_EQ(BestEnergySplit(std::vector<double>{5, 5, 5, 5}), 1u);  // all 0: the first
  EXPECT_EQ(EnergyStatistic(std::vector<double>{1, 2}, 0), 0);
  EXPECT_EQ(EnergyStatistic(std::vector<double>{1, 2}, 2), 0);
}

TEST(ChangePoints, TooFewPoints) {
  for (size_t n : {0u, 1u, 2u}) {
    EXPECT_TRUE(
        FindChangePoints(MakeSeries(StepLevels(n, 1, 1, 2), 0, nullptr, TimeInfo()), {}).empty())
        << n;
  }
  // Two exact points that differ are a change.
  const std::vector<ChangePoint> two =
      FindChangePoints(MakeSeries(StepLevels(2, 3, 1, 4), 0, nullptr, AllocsInfo()), {});
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].index, 1u);
}

TEST(ChangePoints, ConstantAndZeroSeries) {
  for (double level : {0.0, 1000.0}) {
    EXPECT_TRUE(
        FindChangePoints(MakeSeries(std::vector<double>(100, level), 0, nullptr, TimeInfo()), {})
            .empty());
    EXPECT_TRUE(
        FindChangePoints(MakeSeries(std::vector<double>(100, level), 0, nullptr, AllocsInfo()), {})
            .empty());
  }
  // From 0 allocations to 1: an infinite change, not NaN; and back: -100%.
  std::vector<double> levels(20, 0);
  for (size_t i = 10; i < 15; ++i) levels[i] = 1;
  const std::vector<ChangePoint> found =
      FindChangePoints(MakeSeries(levels, 0, nullptr, AllocsInfo()), {});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_TRUE(std::isinf(found[0].change) && found[0].change > 0);
  EXPECT_TRUE(found[0].regression);
  EXPECT_EQ(found[1].change, -1);
  EXPECT_FALSE(found[1].regression);
  // A statistical series stepping from exactly 0 (a constant side).
  const std::vector<ChangePoint> time_found =
      FindChangePoints(MakeSeries(StepLevels(40, 0, 20, 5), 0, nullptr, TimeInfo()), {});
  ASSERT_EQ(Indices(time_found), std::vector<size_t>{20});
  EXPECT_TRUE(std::isinf(time_found[0].change));
  // Constant sides: the spread is the floor's (0.1% of the level), so the
  // step is all but certain, not certain.
  ASSERT_TRUE(time_found[0].p.has_value());
  EXPECT_LT(*time_found[0].p, 1e-20);
}

TEST(ChangePoints, FieldsOfAStatisticalChange) {
  NormalNoise noise(7);
  Series s = MakeSeries(StepLevels(100, 1000, 60, 1100), 0.01, &noise, TimeInfo());
  const std::vector<ChangePoint> found = FindChangePoints(s, {});
  ASSERT_EQ(Indices(found), std::vector<size_t>{60});
  const ChangePoint& c = found[0];
  EXPECT_EQ(c.last_good_commit, "c59");
  EXPECT_EQ(c.first_bad_commit, "c60");
  EXPECT_NEAR(c.before_median, 1000, 10);
  EXPECT_NEAR(c.after_median, 1100, 10);  // 40 points of 1% noise: 1106 with this seed
  EXPECT_DOUBLE_EQ(c.change, c.after_median / c.before_median - 1);
  ASSERT_TRUE(c.p.has_value());
  EXPECT_LT(*c.p, 1e-10);
  EXPECT_FALSE(c.exact);
  EXPECT_TRUE(c.regression);
  // Higher is better (bytes_per_second): the same step is an improvement.
  s.info.higher_is_better = true;
  EXPECT_FALSE(FindChangePoints(s, {})[0].regression);
}

TEST(ChangePoints, BeforeAndAfterAreTheSegmentsBetweenNeighbours) {
  // 3 3 3 | 5 5 | 4 4 4 4 (allocs/op): medians of each segment.
  const Series s = MakeSeries({3, 3, 3, 5, 5, 4, 4, 4, 4}, 0, nullptr, AllocsInfo());
  const std::vector<ChangePoint> found = FindChangePoints(s, {});
  ASSERT_EQ(Indices(found), (std::vector<size_t>{3, 5}));
  EXPECT_EQ(found[0].before_median, 3);
  EXPECT_EQ(found[0].after_median, 5);
  EXPECT_EQ(found[1].before_median, 5);
  EXPECT_EQ(found[1].after_median, 4);
  EXPECT_DOUBLE_EQ(found[1].change, -0.2);
  EXPECT_FALSE(found[1].regression);
}

TEST(ChangePoints, ExactThresholds) {
  // instructions/op: 1% by default; 0.5% drifts pass, 2% is a change.
  results::MetricInfo instructions{"instructions/op", results::MetricKind::kExact, false, true};
  Series s = MakeSeries({1000, 1005, 1000, 1020, 1020}, 0, nullptr, instructions);
  s.key.metric = "instructions/op";
  EXPECT_EQ(Indices(FindChangePoints(s, {})), std::vector<size_t>{3});
  // A user's threshold: allocs/op may move by 1.
  DetectOptions loose;
  ASSERT_TRUE(loose.thresholds.Add("allocs/op:1").ok());
  const Series allocs = MakeSeries({3, 4, 4, 6}, 0, nullptr, AllocsInfo());
  EXPECT_EQ(Indices(FindChangePoints(allocs, loose)), std::vector<size_t>{3});
  // No threshold for the metric ("off"): any change.
  DetectOptions off;
  ASSERT_TRUE(off.thresholds.Add("allocs/op:off").ok());
  EXPECT_EQ(Indices(FindChangePoints(allocs, off)), (std::vector<size_t>{1, 3}));
}

TEST(ChangePoints, StepsAtTheFirstAndLastPositions) {
  // A side of one point is tested against the other side's spread.
  NormalNoise noise(11);
  const Series first = MakeSeries(StepLevels(60, 1100, 1, 1000), 0.01, &noise, TimeInfo());
  EXPECT_EQ(Indices(FindChangePoints(first, {})), std::vector<size_t>{1});
  const Series last = MakeSeries(StepLevels(60, 1000, 59, 1100), 0.01, &noise, TimeInfo());
  const std::vector<ChangePoint> found = FindChangePoints(last, {});
  EXPECT_EQ(Indices(found), std::vector<size_t>{59});
  EXPECT_TRUE(NewestIsRegression(AnalysedSeries{last, found}));
  // Exact metrics: at index 1 and n - 1 as anywhere.
  const Series exact = MakeSeries({2, 3, 3, 3, 4}, 0, nullptr, AllocsInfo());
  EXPECT_EQ(Indices(FindChangePoints(exact, {})), (std::vector<size_t>{1, 4}));
}

TEST(ChangePoints, SeveralSteps) {
  std::vector<double> levels(300, 1000);
  for (size_t i = 70; i < 300; ++i) levels[i] = 1060;
  for (size_t i = 150; i < 300; ++i) levels[i] = 1000;
  for (size_t i = 230; i < 300; ++i) levels[i] = 1120;
  NormalNoise noise(5);
  const std::vector<ChangePoint> found =
      FindChangePoints(MakeSeries(levels, 0.01, &noise, TimeInfo()), {});
  ASSERT_EQ(found.size(), 3u);
  EXPECT_NEAR(static_cast<double>(found[0].index), 70, 1);
  EXPECT_NEAR(static_cast<double>(found[1].index), 150, 1);
  EXPECT_NEAR(static_cast<double>(found[2].index), 230, 1);
  EXPECT_TRUE(found[0].regression);
  EXPECT_FALSE(found[1].regression);
  EXPECT_TRUE(found[2].regression);
}

TEST(ChangePoints, OutliersAreNotLevels) {
  // One slow run, and two, in the middle: no level changed.
  NormalNoise noise(21);
  Series s = MakeSeries(std::vector<double>(120, 1000), 0.01, &noise, TimeInfo());
  s.points[40].median *= 1.3;
  s.points[80].median *= 1.3;
  s.points[81].median *= 1.3;
  EXPECT_TRUE(FindChangePoints(s, {}).empty());
  // Where runs of a point or two may be levels, the pair is one. (A single
  // point never is: no split around it has the largest energy.)
  DetectOptions every_run;
  every_run.min_segment = 1;
  EXPECT_EQ(Indices(FindChangePoints(s, every_run)), (std::vector<size_t>{80, 82}));
  // Three runs are a level at the default.
  s.points[82].median *= 1.3;
  EXPECT_EQ(Indices(FindChangePoints(s, {})), (std::vector<size_t>{80, 83}));
}

TEST(ChangePoints, Options) {
  NormalNoise noise(8);
  const Series s = MakeSeries(StepLevels(100, 1000, 50, 1030), 0.01, &noise, TimeInfo());
  EXPECT_EQ(Indices(FindChangePoints(s, {})), std::vector<size_t>{50});
  // Welch's test finds a step with enough points on both sides too.
  DetectOptions welch;
  welch.welch = true;
  EXPECT_EQ(Indices(FindChangePoints(s, welch)), std::vector<size_t>{50});
  // A 3-sigma step cannot pass p <= 1e-30.
  DetectOptions strict;
  strict.max_p = 1e-30;
  EXPECT_TRUE(FindChangePoints(s, strict).empty());
  // Smaller windows still find it; windows of 4 (the least: 0 means 4)
  // have too few points for p <= 0.001.
  for (int window : {10, 20}) {
    DetectOptions small;
    small.window = window;
    EXPECT_EQ(Indices(FindChangePoints(s, small)), std::vector<size_t>{50}) << window;
  }
  for (int window : {0, 4}) {
    DetectOptions tiny;
    tiny.window = window;
    EXPECT_TRUE(FindChangePoints(s, tiny).empty()) << window;
  }
}

TEST(ChangePoints, Deterministic) {
  NormalNoise noise(99);
  const Series s = MakeSeries(StepLevels(500, 1000, 321, 1030), 0.01, &noise, TimeInfo());
  const std::vector<ChangePoint> a = FindChangePoints(s, {});
  const std::vector<ChangePoint> b = FindChangePoints(s, {});
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].p, b[i].p);
    EXPECT_EQ(a[i].before_median, b[i].before_median);
  }
  // Equal values in any order: the same split (the first of equal energies).
  const Series plateaus = MakeSeries({5, 5, 5, 5, 9, 9, 9, 9, 9, 9}, 0, nullptr, TimeInfo());
  EXPECT_EQ(Indices(FindChangePoints(plateaus, {})), std::vector<size_t>{4});
}

TEST(ChangePoints, NewestIsRegression) {
  const Series s = MakeSeries({3, 4, 4, 3}, 0, nullptr, AllocsInfo());
  const std::vector<ChangePoint> found = FindChangePoints(s, {});
  ASSERT_EQ(found.size(), 2u);
  // Regressed at 1, back at 3: the newest point is fine.
  EXPECT_FALSE(NewestIsRegression(AnalysedSeries{s, found}));
  // Regressed at 1 and still so at the newest point, 2 runs later.
  EXPECT_TRUE(NewestIsRegression(AnalysedSeries{s, {found[0]}}));
  EXPECT_FALSE(NewestIsRegression(AnalysedSeries{s, {}}));
}

TEST(ChangePoints, AnExactCountThatVariesWithinRunsIsStatistical) {
  // Allocations of a thread pool: each run's repetitions differ, and every
  // run's median differs from the last. Compared exactly, every run would
  // be a change point; as the compare engine does, such a count is
  // statistical, and this one has no step.
  Series pool = MakeSeries(StepLevels(40, 1, 1000, 1000), 0, nullptr, AllocsInfo());
  for (size_t i = 0; i < pool.points.size(); ++i) {
    const double wobble = static_cast<double>(i % 5);
    pool.points[i].values = {998 + wobble, 1000 + wobble, 1003 + wobble};
    pool.points[i].median = 1000 + wobble;
  }
  EXPECT_TRUE(FindChangePoints(pool, {}).empty());

  // The same counts constant within each run are exact: every change counts.
  for (SeriesPoint& p : pool.points) p.values = {p.median, p.median};
  EXPECT_FALSE(FindChangePoints(pool, {}).empty());
}

TEST(ChangePoints, StretchesEqualToTheirLastDigitAreNotCertainChanges) {
  // Run medians as Google Benchmark writes them, four digits: a 12% step
  // after 8 runs, each stretch agreeing to the last digit in pairs. The
  // pairs 111.9, 111.9 | 112.1, 112.1 have no spread at all; without a
  // floor under the spread they were a certain change, which crowded out
  // the step (nothing was found).
  const std::vector<double> medians = {100.1, 99.9,  99.9,  100.1, 100.0, 99.9,
                                       100.1, 100.1, 111.9, 111.9, 112.1, 112.1};
  Series s = MakeSeries(medians, 0, nullptr, TimeInfo());
  EXPECT_EQ(Indices(FindChangePoints(s, {})), (std::vector<size_t>{8}));

  DetectOptions no_floor;
  no_floor.min_relative_noise = 0;
  EXPECT_NE(Indices(FindChangePoints(s, no_floor)), (std::vector<size_t>{8}));
}

}  // namespace
}  // namespace benchprof::history
