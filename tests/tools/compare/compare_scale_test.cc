// Comparing two result files of 1,000 benchmarks x 20 repetitions (with
// Google Benchmark's aggregate rows and allocation counters, ~10 MB each):
// the whole pipeline — read, parse, compare, render — and its wall time,
// which the issue budgets at under 1 s. The time is printed, not asserted.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "support/sanitizer_build.h"
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

// Google Benchmark 1.7.1's own layout (an indented member per line, 17
// significant digits), in rows of `benchmarks` x 20 repetitions + 4
// aggregates, until the file is at least `bytes` long (one benchmark at
// least). Returns the number of benchmarks written.
int WriteLibraryLayout(const std::string& path, size_t bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0.0, 0.03);
  out << "{\n  \"context\": {\n    \"host_name\": \"vm\",\n    \"num_cpus\": 2\n  },\n"
         "  \"benchmarks\": [\n";
  static const char* kAggregates[] = {"mean", "median", "stddev", "cv"};
  char row[2048];
  int benchmarks = 0;
  for (; benchmarks == 0 || static_cast<size_t>(out.tellp()) < bytes; ++benchmarks) {
    const std::string name =
        "BM_Read" + std::to_string(benchmarks) + "/" + std::to_string(benchmarks % 64);
    for (int r = 0; r < kRepetitions + 4; ++r) {
      const bool aggregate = r >= kRepetitions;
      const double t = 100.0 * (1 + benchmarks % 37) * (1 + noise(rng));
      std::snprintf(
          row, sizeof row,
          "%s    {\n      \"name\": \"%s%s%s\",\n      \"family_index\": %d,\n"
          "      \"per_family_instance_index\": 0,\n      \"run_name\": \"%s\",\n"
          "      \"run_type\": \"%s\",\n      \"repetitions\": %d,\n      \"threads\": 1,\n"
          "      \"iterations\": %d,\n      \"real_time\": %.16e,\n"
          "      \"cpu_time\": %.16e,\n      \"time_unit\": \"ns\",\n"
          "      \"B/op\": 3.7000000000000000e+01,\n      \"allocs/op\": 2.0000000000000000e+00,\n"
          "      \"bytes_per_second\": %.16e\n    }",
          benchmarks == 0 && r == 0 ? "" : ",\n", name.c_str(), aggregate ? "_" : "",
          aggregate ? kAggregates[r - kRepetitions] : "", benchmarks, name.c_str(),
          aggregate ? "aggregate" : "iteration", kRepetitions, aggregate ? kRepetitions : 8275,
          t * 1.01, t, 6.6e7 * (1 + noise(rng)));
      out << row;
    }
  }
  out << "\n  ]\n}\n";
  return benchmarks;
}

// A result file of 100 MB as the library writes it, given to `benchprof
// compare` (against a one-benchmark base): prints the time and throughput
// (not asserted: shared machines) and checks that the command's peak memory
// is at most twice the file's size; then checks every sample, read in this
// process. The command, not this test binary, is timed: the test code is
// built at -O0, and the linker may take its copies of inline functions.
// Sanitizer builds read 10 MB: there the volume is not the point.
TEST(CompareScaleTest, HundredMegabyteResultFileInTheLibrarysLayout) {
  testing::TempDir dir;
  const std::string path = dir.File("results.json");
  const size_t target = testing::kSanitizerBuild ? 10'000'000 : 100'000'000;
  const int benchmarks = WriteLibraryLayout(path, target);
  ASSERT_EQ(WriteLibraryLayout(dir.File("base.json"), 1), 1);
  const double megabytes = static_cast<double>(std::filesystem::file_size(path)) / 1e6;

  const auto start = std::chrono::steady_clock::now();
  const testing::ProcessResult compare =
      testing::RunProcess({BENCHPROF_PATH, "compare", dir.File("base.json"), path});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(compare.term_signal, 0) << compare.stderr_text;
  ASSERT_TRUE(compare.exit_code >= 0 && compare.exit_code <= 2)
      << compare.exit_code << ": " << compare.stderr_text;
  const double peak_megabytes = static_cast<double>(compare.max_rss_kb) * 1024 / 1e6;
  std::printf(
      "benchprof compare of a %.1f MB result file (%d benchmarks x %d repetitions): "
      "%.3f s, %.0f MB/s, peak memory %.1f MB\n",
      megabytes, benchmarks, kRepetitions, seconds, megabytes / seconds, peak_megabytes);
  RecordProperty("mb_per_s", std::to_string(megabytes / seconds));
  if (!testing::kSanitizerBuild) {
    EXPECT_LE(peak_megabytes, 2 * megabytes);
  }

  StatusOr<ResultSet> read = ReadResultFiles({path});
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->benchmarks.size(), static_cast<size_t>(benchmarks));
  for (const auto& samples : read->benchmarks) {
    ASSERT_EQ(samples.Find("cpu_time")->size(), static_cast<size_t>(kRepetitions)) << samples.name;
    ASSERT_EQ(samples.Find("allocs/op")->size(), static_cast<size_t>(kRepetitions)) << samples.name;
  }
  EXPECT_EQ(read->benchmarks.back().Find("B/op")->front(), 37);
}

}  // namespace
}  // namespace benchprof::compare
