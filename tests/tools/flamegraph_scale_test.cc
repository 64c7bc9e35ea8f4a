// What a large profile costs `benchprof flamegraph`: 10,000 distinct
// stacks must give a page of at most 3 MB whose frames still sum to the
// profile's total. The time is printed, not asserted (no timing
// assertions in tests; the budget is 1 s).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "encode/pprof_writer.h"
#include "flamegraph_test_data.h"
#include "support/subprocess.h"
#include "synthetic_profile.h"

namespace benchprof {
namespace {

TEST(FlamegraphScaleTest, TenThousandStacksFitInThreeMegabytes) {
  testing::TempDir dir;
  const encode::ProfileData p = testing::SyntheticCpuProfile(10'000);
  ASSERT_TRUE(encode::WriteProfileFile(p, dir.File("big.pprof")).ok());
  double total = 0;
  for (const auto& s : p.samples) total += static_cast<double>(s.values[1]);

  rusage before{};
  getrusage(RUSAGE_CHILDREN, &before);
  const auto start = std::chrono::steady_clock::now();
  const testing::ProcessResult r = testing::RunProcess(
      {BENCHPROF_PATH, "flamegraph", dir.File("big.pprof"), "-o", dir.File("big.html")});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage after{};
  getrusage(RUSAGE_CHILDREN, &after);
  const auto cpu = [](const rusage& u) {
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string page = testing::ReadFile(dir.File("big.html"));
  const auto graphs = testing::GraphsOnPage(page);
  ASSERT_EQ(graphs.size(), 1u);
  std::printf("10,000 stacks: %zu frames, %zu bytes, written in %.3f s (%.3f s of CPU)\n",
              graphs[0].frames.size(), page.size(), seconds, cpu(after) - cpu(before));
  EXPECT_LE(page.size(), 3u << 20);
  EXPECT_GT(graphs[0].frames.size(), 10'000u);
  EXPECT_EQ(testing::CheckNestedWidths(graphs[0]), total);
}

}  // namespace
}  // namespace benchprof
