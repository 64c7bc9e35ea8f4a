// Monte Carlo checks of the gate's error rates on synthetic benchmarks with
// 3% Gaussian noise and 10 repetitions per side, the situation the tool is
// designed for:
//   - A/A (no change): a false alarm in at most alpha of the comparisons,
//     for one benchmark and for a family of 50 (Holm);
//   - A/B with a 10% slowdown: detected in at least 95% of the comparisons.
// The generator is seeded, so the rates are the same on every run; they are
// printed for the record.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "sample_sets.h"
#include "tools/compare/comparison.h"

namespace benchprof::compare {

using results::ResultSet;

namespace {

using testing::AddSamples;

constexpr double kNoise = 0.03;
constexpr int kRepetitions = 10;

class Simulation {
 public:
  explicit Simulation(uint64_t seed) : rng_(seed) {}

  std::vector<double> Sample(double center) {
    std::vector<double> v;
    for (int i = 0; i < kRepetitions; ++i) v.push_back(center * (1 + kNoise * normal_(rng_)));
    return v;
  }

  // The fraction of `trials` comparisons of `benchmarks` benchmarks whose
  // verdict is a regression when the first `slowed` benchmarks of head are
  // slower by `shift` (0.10 = 10%); with slowed = 1 and a shift, whether that
  // one benchmark is among the regressions.
  double RegressionRate(int trials, int benchmarks, double shift, const CompareOptions& options,
                        int slowed = 1 << 30) {
    int regressions = 0;
    for (int t = 0; t < trials; ++t) {
      ResultSet base, head;
      for (int b = 0; b < benchmarks; ++b) {
        const std::string name = "BM_Synthetic/" + std::to_string(b);
        const double center = 100.0 * (1 + b);
        AddSamples(base, name, "cpu_time", Sample(center));
        AddSamples(head, name, "cpu_time", Sample(center * (1 + (b < slowed ? shift : 0))));
      }
      const Comparison c = Compare(base, head, options);
      EXPECT_NE(c.verdict, Verdict::kInconclusive);
      if (slowed == 1 && shift > 0) {
        regressions += c.rows.front().outcome == Outcome::kRegression;
      } else {
        regressions += c.verdict == Verdict::kRegression;
      }
    }
    return static_cast<double>(regressions) / trials;
  }

 private:
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

CompareOptions PureStatistics() {
  // A zero threshold: any significant slowdown regresses, so the rates below
  // are those of the test itself.
  CompareOptions options;
  EXPECT_TRUE(options.thresholds.Add("time:0%").ok());
  return options;
}

void Report(const char* what, double rate) {
  std::printf("%-58s %6.2f%%\n", what, rate * 100);
  ::testing::Test::RecordProperty(what, std::to_string(rate));
}

TEST(SimulationTest, NoChangeRarelyAlarms) {
  Simulation sim(20261122);
  const double statistics_only = sim.RegressionRate(1000, 1, 0.0, PureStatistics());
  const double with_threshold = sim.RegressionRate(1000, 1, 0.0, CompareOptions{});
  Report("A/A false alarms, 1 benchmark, threshold 0%", statistics_only);
  Report("A/A false alarms, 1 benchmark, default threshold 5%", with_threshold);
  // Two-sided at alpha 0.05, one direction counts: about alpha / 2.
  EXPECT_LE(statistics_only, 0.05);
  EXPECT_LE(with_threshold, statistics_only);
}

TEST(SimulationTest, NoChangeAcrossFiftyBenchmarksRarelyAlarms) {
  Simulation sim(7);
  const double family = sim.RegressionRate(200, 50, 0.0, PureStatistics());
  Report("A/A false alarms, 50 benchmarks per comparison (Holm), 0%", family);
  EXPECT_LE(family, 0.05);
}

TEST(SimulationTest, TenPercentSlowdownIsDetected) {
  Simulation sim(42);
  const double power = sim.RegressionRate(1000, 1, 0.10, CompareOptions{});
  const double power_pure = sim.RegressionRate(1000, 1, 0.10, PureStatistics());
  Report("10% slowdown detected, 1 benchmark, default threshold 5%", power);
  Report("10% slowdown detected, 1 benchmark, threshold 0%", power_pure);
  EXPECT_GE(power, 0.95);
  EXPECT_GE(power_pure, 0.95);
  // The price of the correction: one slowed benchmark among 50 must reach
  // p <= 0.05 / 50 before it counts.
  const double one_of_fifty = sim.RegressionRate(200, 50, 0.10, CompareOptions{}, 1);
  Report("10% slowdown of 1 of 50 benchmarks detected (Holm)", one_of_fifty);
  EXPECT_GE(one_of_fifty, 0.80);
}

}  // namespace
}  // namespace benchprof::compare
