// What a large profile costs `benchprof flamegraph`: 10,000 distinct
// stacks must give a page of at most 3 MB whose frames still sum to the
// profile's total (100,000 too, keeping the 200,000 widest frames), and
// an SVG document (which keeps at most 12,000 frames, none narrower than
// 0.1 px) of at most 3 MB whose frames nest and sum likewise. The time is
// printed, not asserted (no timing assertions in tests; the budget is 1 s).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "encode/pprof_writer.h"
#include "support/flamegraph_test_data.h"
#include "support/subprocess.h"
#include "support/synthetic_profile.h"

namespace benchprof {
namespace {

// CPU seconds of this process's finished children.
double ChildrenCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// A run of a command, its wall time and its CPU time.
struct TimedRun {
  testing::ProcessResult result;
  double seconds = 0, cpu = 0;
};

TimedRun RunTimed(const std::vector<std::string>& argv) {
  const double cpu_before = ChildrenCpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  TimedRun run{testing::RunProcess(argv)};
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.cpu = ChildrenCpuSeconds() - cpu_before;
  return run;
}

// `benchprof flamegraph` of 10,000 distinct stacks into `output` (in
// `dir`); `total` is the profile's CPU total.
TimedRun DrawTenThousandStacks(const testing::TempDir& dir, const std::string& output,
                               double* total) {
  const encode::ProfileData p = testing::SyntheticCpuProfile(10'000);
  EXPECT_TRUE(encode::WriteProfileFile(p, dir.File("big.pprof")).ok());
  *total = 0;
  for (const auto& s : p.samples) *total += static_cast<double>(s.values[1]);
  return RunTimed({BENCHPROF_PATH, "flamegraph", dir.File("big.pprof"), "-o", dir.File(output)});
}

TEST(FlamegraphScaleTest, TenThousandStacksFitInThreeMegabytes) {
  testing::TempDir dir;
  double total = 0;
  const TimedRun run = DrawTenThousandStacks(dir, "big.html", &total);
  ASSERT_EQ(run.result.exit_code, 0) << run.result.stderr_text;
  const std::string page = testing::ReadFile(dir.File("big.html"));
  const auto graphs = testing::GraphsOnPage(page);
  ASSERT_EQ(graphs.size(), 1u);
  std::printf("10,000 stacks: %zu frames, %zu bytes, written in %.3f s (%.3f s of CPU)\n",
              graphs[0].frames.size(), page.size(), run.seconds, run.cpu);
  EXPECT_LE(page.size(), 3'000'000u);
  EXPECT_GT(graphs[0].frames.size(), 10'000u);
  EXPECT_EQ(testing::CheckNestedWidths(graphs[0]), total);
}

TEST(FlamegraphScaleTest, TenThousandStacksAsSvg) {
  testing::TempDir dir;
  double total = 0;
  const TimedRun run = DrawTenThousandStacks(dir, "big.svg", &total);
  ASSERT_EQ(run.result.exit_code, 0) << run.result.stderr_text;
  const std::string svg = testing::ReadFile(dir.File("big.svg"));
  const testing::ShownGraph graph = testing::GraphOfSvg(svg);
  std::printf("10,000 stacks as SVG: %zu frames, %zu bytes, written in %.3f s (%.3f s of CPU)\n",
              graph.frames.size(), svg.size(), run.seconds, run.cpu);
  EXPECT_LE(svg.size(), 3'000'000u);
  EXPECT_GT(graph.frames.size(), 10'000u);
  EXPECT_LE(graph.frames.size(), 12'000u);
  EXPECT_EQ(testing::CheckNestedWidths(graph), total);
  testing::CheckNestedRectangles(graph);
}

// 100,000 distinct stacks (1,733,843 frames): the page keeps the 200,000
// widest, which nest and sum to the total, and stays within 3 MB (with
// every frame it was 18 MB).
TEST(FlamegraphScaleTest, HundredThousandStacksKeepTheWidestFrames) {
  testing::TempDir dir;
  const encode::ProfileData p = testing::SyntheticCpuProfile(100'000);
  ASSERT_TRUE(encode::WriteProfileFile(p, dir.File("big.pprof")).ok());
  double total = 0;
  for (const auto& s : p.samples) total += static_cast<double>(s.values[1]);
  const TimedRun run =
      RunTimed({BENCHPROF_PATH, "flamegraph", dir.File("big.pprof"), "-o", dir.File("big.html")});
  ASSERT_EQ(run.result.exit_code, 0) << run.result.stderr_text;
  const std::string page = testing::ReadFile(dir.File("big.html"));
  const auto graphs = testing::GraphsOnPage(page);
  ASSERT_EQ(graphs.size(), 1u);
  std::printf("100,000 stacks: %zu frames kept, %zu bytes, written in %.3f s (%.3f s of CPU)\n",
              graphs[0].frames.size(), page.size(), run.seconds, run.cpu);
  EXPECT_EQ(graphs[0].frames.size(), 200'000u);
  EXPECT_LE(page.size(), 3'000'000u);
  EXPECT_EQ(testing::CheckNestedWidths(graphs[0]), total);
  EXPECT_NE(page.find("<div class=\"fg-note\">200,000 of "), std::string::npos);
}

// Google Benchmark JSON with `count` benchmarks BM_Synthetic/0... .
std::string SyntheticResults(int count) {
  std::string json = R"({"context": {"date": "2026-11-26", "host_name": "vm", "num_cpus": 2},
"benchmarks": [)";
  for (int i = 0; i < count; ++i) {
    const std::string name = "BM_Synthetic/" + std::to_string(i);
    json += std::string(i == 0 ? "" : ",\n") + R"({"name": ")" + name + R"(", "run_name": ")" +
            name + R"(", "run_type": "iteration", "repetitions": 1, "repetition_index": 0, )" +
            R"("threads": 1, "iterations": 1000, "real_time": 1.5e3, "cpu_time": 1.4e3, )" +
            R"("time_unit": "ns", "allocs/op": 2, "B/op": 64})";
  }
  return json + "]}\n";
}

// 200 benchmarks, each with 100 distinct stacks in both profiles (what
// about a second per benchmark at the default 100 Hz gives).
TEST(ReportScaleTest, TwoHundredBenchmarksFitInTwentyMegabytes) {
  testing::TempDir dir;
  constexpr int kBenchmarks = 200;
  const encode::ProfileData p = testing::SyntheticCpuProfile(100 * kBenchmarks, kBenchmarks);
  ASSERT_TRUE(encode::WriteProfileFile(p, dir.File("cpu.pprof")).ok());
  std::ofstream(dir.File("results.json")) << SyntheticResults(kBenchmarks);

  const TimedRun run = RunTimed(
      {BENCHPROF_PATH, "report", dir.File("results.json"), "--cpuprofile=" + dir.File("cpu.pprof"),
       "--memprofile=" + dir.File("cpu.pprof"), "-o", dir.File("report.html")});
  ASSERT_EQ(run.result.exit_code, 0) << run.result.stderr_text;
  const std::string page = testing::ReadFile(dir.File("report.html"));
  const auto graphs = testing::GraphsOnPage(page);
  size_t frames = 0;
  for (const auto& graph : graphs) frames += graph.frames.size();
  std::printf(
      "200 benchmarks: %zu graphs, %zu frames, %zu bytes, written in %.3f s (%.3f s of CPU)\n",
      graphs.size(), frames, page.size(), run.seconds, run.cpu);
  EXPECT_EQ(graphs.size(), 2u * kBenchmarks);
  EXPECT_LE(page.size(), 20u << 20);
}

}  // namespace
}  // namespace benchprof
