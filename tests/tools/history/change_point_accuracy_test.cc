// The accuracy targets on seeded synthetic series: a planted step
// is found at its commit (statistical: within one) in >= 95 of 100 series,
// and 100 A/A series of 200 runs have at most 1 false change point in all.
// The measured rates are printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "synthetic_series.h"
#include "tools/history/change_points.h"

namespace benchprof::history {
namespace {

using testing::AllocsInfo;
using testing::MakeSeries;
using testing::NormalNoise;
using testing::StepLevels;
using testing::TimeInfo;

struct StepRates {
  int found = 0;       // series with a change point at the planted index (+-1)
  int extra = 0;       // change points elsewhere, over all series
  int regression = 0;  // of the found ones, marked a regression
};

// 100 seeded series of `n` runs with a step of `step` (relative) in
// `noise` (relative), planted at a different index in each.
StepRates PlantedSteps(size_t n, double step, double noise, uint64_t seed_base) {
  StepRates rates;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    NormalNoise gen(seed_base + seed);
    const size_t planted = 10 + static_cast<size_t>(seed * 37 % (n - 20));
    const Series s =
        MakeSeries(StepLevels(n, 1000, planted, 1000 * (1 + step)), noise, &gen, TimeInfo());
    bool found = false;
    for (const ChangePoint& c : FindChangePoints(s, DetectOptions{})) {
      const size_t distance = c.index > planted ? c.index - planted : planted - c.index;
      if (distance <= 1 && !found) {
        found = true;
        rates.regression += c.regression ? 1 : 0;
      } else {
        ++rates.extra;
      }
    }
    rates.found += found ? 1 : 0;
  }
  return rates;
}

TEST(ChangePointAccuracy, FivePercentStepInOnePercentNoise) {
  const StepRates r = PlantedSteps(150, 0.05, 0.01, 1000);
  std::printf(
      "5%% step in 1%% noise: found in %d/100 series (+-1), %d regressions, %d other change "
      "points\n",
      r.found, r.regression, r.extra);
  EXPECT_GE(r.found, 95);
  EXPECT_EQ(r.regression, r.found);
  // Not a target of the issue, but a step must not bring a cloud of others.
  EXPECT_LE(r.extra, 5);
}

TEST(ChangePointAccuracy, TwoPercentStepInHalfPercentNoise) {
  const StepRates r = PlantedSteps(200, 0.02, 0.005, 2000);
  std::printf(
      "2%% step in 0.5%% noise: found in %d/100 series (+-1), %d regressions, %d other change "
      "points\n",
      r.found, r.regression, r.extra);
  EXPECT_GE(r.found, 95);
  EXPECT_EQ(r.regression, r.found);
  // Not a target of the issue, but a step must not bring a cloud of others.
  EXPECT_LE(r.extra, 5);
}

TEST(ChangePointAccuracy, ExactMetricStepAtTheExactCommit) {
  int exact_hits = 0, others = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const size_t planted = 1 + static_cast<size_t>(seed * 53 % 149);
    const Series s = MakeSeries(StepLevels(150, 3, planted, 4), 0, nullptr, AllocsInfo());
    const std::vector<ChangePoint> found = FindChangePoints(s, DetectOptions{});
    for (const ChangePoint& c : found) {
      if (c.index == planted && c.exact && !c.p && c.regression) {
        ++exact_hits;
      } else {
        ++others;
      }
    }
  }
  std::printf(
      "allocs/op 3 -> 4: found at the exact index in %d/100 series, %d other change points\n",
      exact_hits, others);
  EXPECT_EQ(exact_hits, 100);
  EXPECT_EQ(others, 0);
}

// The number of change points found in 100 A/A series of 200 runs.
int FalseChangePoints(uint64_t seed_base, double noise) {
  int found = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    NormalNoise gen(seed_base + seed);
    const Series s = MakeSeries(std::vector<double>(200, 1000), noise, &gen, TimeInfo());
    found += static_cast<int>(FindChangePoints(s, DetectOptions{}).size());
  }
  return found;
}

TEST(ChangePointAccuracy, NoStepNoChangePoint) {
  const int false_points = FalseChangePoints(3000, 0.01);
  std::printf("A/A: %d false change points in 100 series of 200 runs\n", false_points);
  EXPECT_LE(false_points, 1);
  // Other seeds, for the record (the rate, not one draw, is the target).
  int more = 0;
  for (uint64_t batch = 1; batch <= 9; ++batch) more += FalseChangePoints(3000 + batch * 100, 0.01);
  std::printf("A/A, 900 more series: %d false change points\n", more);
  EXPECT_LE(more, 18);
}

}  // namespace
}  // namespace benchprof::history
