// Comparing two result files of 1,000 benchmarks x 20 repetitions (with
// Google Benchmark's aggregate rows and allocation counters, ~10 MB each):
// the whole pipeline — read, parse, compare, render — and its wall time,
// which the issue budgets at under 1 s. The time is printed, not asserted.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "support/subprocess.h"
#include "tools/compare/comparison.h"
#include "tools/compare/table_writer.h"
#include "tools/results/result_reader.h"

namespace benchprof::compare {

using results::ReadResultFiles;
using results::ResultSet;

namespace {

constexpr int kBenchmarks = 1000;
constexpr int kRepetitions = 20;

// Google Benchmark 1.7.1's JSON layout; every 100th benchmark of the head
// is 20% slower.
std::string MakeResults(uint64_t seed, bool head) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.03);
  std::string out =
      "{\n  \"context\": {\"host_name\": \"vm\", \"num_cpus\": 2},\n  \"benchmarks\": [\n";
  char row[1024];
  bool first = true;
  for (int b = 0; b < kBenchmarks; ++b) {
    const std::string name = "BM_Scale" + std::to_string(b) + "/" + std::to_string(b % 64);
    const double center = 100.0 * (1 + b % 37) * (head && b % 100 == 0 ? 1.2 : 1.0);
    for (int r = 0; r < kRepetitions + 4; ++r) {
      const bool aggregate = r >= kRepetitions;
      static const char* kAggregates[] = {"mean", "median", "stddev", "cv"};
      const double t = center * (1 + noise(rng));
      std::snprintf(row, sizeof row,
                    "%s    {\"name\": \"%s%s%s\", \"family_index\": %d, "
                    "\"per_family_instance_index\": 0, \"run_name\": \"%s\", \"run_type\": \"%s\", "
                    "\"repetitions\": %d, \"threads\": 1, \"iterations\": 1000000, "
                    "\"real_time\": %.16e, \"cpu_time\": %.16e, \"time_unit\": \"ns\", "
                    "\"B/op\": 6.4000000000000000e+01, \"allocs/op\": 2.0000000000000000e+00}",
                    first ? "" : ",\n", name.c_str(), aggregate ? "_" : "",
                    aggregate ? kAggregates[r - kRepetitions] : "", b, name.c_str(),
                    aggregate ? "aggregate" : "iteration", kRepetitions, t * 1.01, t);
      out += row;
      first = false;
    }
  }
  return out + "\n  ]\n}\n";
}

TEST(CompareScaleTest, ThousandBenchmarksTimesTwentyRepetitions) {
  testing::TempDir dir;
  std::ofstream(dir.File("base.json")) << MakeResults(1, false);
  std::ofstream(dir.File("head.json")) << MakeResults(2, true);

  const auto start = std::chrono::steady_clock::now();
  StatusOr<ResultSet> base = ReadResultFiles({dir.File("base.json")});
  StatusOr<ResultSet> head = ReadResultFiles({dir.File("head.json")});
  ASSERT_TRUE(base.ok() && head.ok());
  const auto read = std::chrono::steady_clock::now();
  const Comparison c = Compare(*base, *head, CompareOptions{});
  const auto compared = std::chrono::steady_clock::now();
  const std::string text = RenderComparison(c, OutputFormat::kText);
  const std::string json = RenderComparison(c, OutputFormat::kJson);
  const auto end = std::chrono::steady_clock::now();

  auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
  std::printf(
      "1000 benchmarks x 20 repetitions: read %.0f ms, compare %.0f ms, render %.0f ms, "
      "total %.0f ms\n",
      ms(read - start), ms(compared - read), ms(end - compared), ms(end - start));
  RecordProperty("total_ms", std::to_string(ms(end - start)));

  // The ten slowed benchmarks, and only they, regress (Holm over 1000 tests).
  EXPECT_EQ(c.holm_tests, kBenchmarks);
  int regressions = 0;
  for (const Row& row : c.rows) {
    if (row.outcome == Outcome::kRegression) {
      ++regressions;
      EXPECT_EQ(row.benchmark.rfind("BM_Scale", 0), 0u);
      EXPECT_EQ(std::stoi(row.benchmark.substr(8)) % 100, 0) << row.benchmark;
    }
  }
  EXPECT_EQ(regressions, 10);
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_FALSE(text.empty());
  EXPECT_FALSE(json.empty());
}

}  // namespace
}  // namespace benchprof::compare
