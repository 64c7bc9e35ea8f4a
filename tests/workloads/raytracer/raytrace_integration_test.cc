// The raytrace CLI as a user runs it: one-line errors and exit code 2 for
// bad command lines, images written in both formats and identical across
// implementations, and the end-of-render statistics.

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "support/subprocess.h"

namespace benchprof::raytracer {
namespace {

using ::benchprof::testing::FileExists;
using ::benchprof::testing::ListDirectory;
using ::benchprof::testing::ProcessResult;
using ::benchprof::testing::ReadFile;
using ::benchprof::testing::RunProcess;
using ::benchprof::testing::TempDir;

ProcessResult Raytrace(std::vector<std::string> args) {
  args.insert(args.begin(), RAYTRACE_PATH);
  return RunProcess(args);
}

// The "allocations: N (x per pixel)" figure; -1 if absent.
double AllocationsPerPixel(const std::string& out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(R"(allocations: (\d+) \(([0-9.]+) per pixel\))"))) {
    return -1;
  }
  return std::stod(m[2]);
}

TEST(RaytraceCliTest, Help) {
  const ProcessResult r = Raytrace({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.stdout_text.find("Usage: raytrace"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("--schedule"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("Exit codes:\n"
                               "  0  success\n"
                               "  1  the image could not be written\n"
                               "  2  bad command line\n"),
            std::string::npos)
      << r.stdout_text;
  // Help wins over any mistake around it.
  EXPECT_EQ(Raytrace({"--bogus", "-h", "--threads=0"}).stdout_text, r.stdout_text);
}

TEST(RaytraceCliTest, BadCommandLinesAreOneLineAndExitTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--bogus"}, "unknown flag --bogus (see raytrace --help)"},
      {{"-colour=red"}, "unknown flag --colour=red (see raytrace --help)"},
      {{"--impl=fast"}, "--impl=fast: expected one of naive, cached, optimized"},
      {{"--scene=moon"}, "--scene=moon: expected one of reference, dec2019, default-world"},
      {{"--schedule=row"}, "--schedule=row: expected one of single, pixel, line"},
      {{"--threads=0"}, "--threads=0: expected a whole number from 1 to 1024"},
      {{"--threads=abc"}, "--threads=abc: expected a whole number from 1 to 1024"},
      // A value taken from the next argument is used as it is.
      {{"--threads", "-1"}, "--threads=-1: expected a whole number from 1 to 1024"},
      {{"-threads", "1025"}, "--threads=1025: expected a whole number from 1 to 1024"},
      {{"--width=-3"}, "--width=-3: expected a whole number from 1 to 16384"},
      {{"--height=1e3"}, "--height=1e3: expected a whole number from 1 to 16384"},
      {{"--width"}, "--width: needs a value, as --width=N"},
      {{"--out=image.jpg"}, "--out=image.jpg: expected a file name ending in .png or .ppm"},
      {{"--out="}, "--out=: expected a file name ending in .png or .ppm"},
      {{"--faithful=maybe"}, "--faithful=maybe: expected true or false"},
      {{"--schedule=single", "--threads=4"},
       "--threads=4: needs --schedule=pixel or --schedule=line"},
      {{"image.png"},
       "unexpected argument 'image.png' (flags are spelled --name=value; see raytrace --help)"},
      {{"--", "--width=8"},
       "unexpected argument '--' (flags are spelled --name=value; see raytrace --help)"},
  };
  for (const auto& [args, message] : bad) {
    const ProcessResult r = Raytrace(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_TRUE(r.stdout_text.empty()) << args[0];
    EXPECT_EQ(r.stderr_text, "raytrace: " + message + "\n") << args[0];
  }
}

// Past `ulimit -f` (as on a full disk) the image cannot be written: one
// line, exit 1, the previous image kept and no temporary file left (before,
// SIGXFSZ killed raytrace mid-write and left `x.png.tmp.PID` behind).
TEST(RaytraceCliTest, AnImageTooLargeToWriteKeepsThePreviousOne) {
  TempDir dir;
  const std::string out = dir.File("x.png");
  const std::vector<std::string> small = {"--width=64", "--height=48", "--out=" + out};
  std::vector<std::string> args = small;
  ASSERT_EQ(Raytrace(args).exit_code, 0);
  const std::string before = ReadFile(out);
  ASSERT_GT(before.size(), 512u);
  std::vector<std::string> limited = {"/bin/sh",      "-c",          "ulimit -f 1; exec \"$@\"",
                                      "sh",           RAYTRACE_PATH, "--width=640",
                                      "--height=480", "--out=" + out};
  const ProcessResult r = RunProcess(limited);
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.rfind("raytrace: ", 0), 0u) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find(out), std::string::npos) << r.stderr_text;
  EXPECT_EQ(ReadFile(out), before);
  EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"x.png"});
}

TEST(RaytraceCliTest, UnwritableOutputIsReportedBeforeRendering) {
  TempDir dir;
  const ProcessResult r = Raytrace({"--out=" + dir.File("missing/x.png")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text, "raytrace: --out=" + dir.File("missing/x.png") +
                               ": cannot write: No such file or directory\n");
  EXPECT_EQ(r.stdout_text.find("elapsed"), std::string::npos);
}

TEST(RaytraceCliTest, ImplementationsWriteTheSameImage) {
  TempDir dir;
  std::string first;
  for (const char* impl : {"naive", "cached", "optimized"}) {
    for (const char* schedule : {"single", "pixel", "line"}) {
      std::vector<std::string> args = {"--scene=reference",
                                       std::string("--impl=") + impl,
                                       std::string("--schedule=") + schedule,
                                       "--width=16",
                                       "--height=12",
                                       "--out=" + dir.File("x.ppm")};
      if (std::string(schedule) != "single") args.push_back("--threads=2");
      const ProcessResult r = Raytrace(args);
      ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
      EXPECT_NE(r.stdout_text.find("elapsed: "), std::string::npos);
      EXPECT_NE(r.stdout_text.find("allocations: "), std::string::npos);
      const std::string image = ReadFile(dir.File("x.ppm"));
      ASSERT_EQ(image.rfind("P6\n16 12\n255\n", 0), 0u);
      if (first.empty()) first = image;
      EXPECT_EQ(image, first) << impl << "/" << schedule;
    }
  }
  EXPECT_EQ(ListDirectory(dir.path()).size(), 1u);
}

TEST(RaytraceCliTest, WritesPng) {
  TempDir dir;
  const ProcessResult r =
      Raytrace({"--scene=default-world", "--faithful", "--out", dir.File("w.png")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("default-world (faithful), 11x11"), std::string::npos);
  EXPECT_EQ(ReadFile(dir.File("w.png")).substr(1, 3), "PNG");
}

TEST(RaytraceCliTest, AllocationStatistics) {
  if (!ALLOC_HOOKS_ENABLED) {
    const ProcessResult r = Raytrace({"--scene=default-world"});
    EXPECT_NE(r.stdout_text.find("allocations: not counted in this build"), std::string::npos);
    GTEST_SKIP() << "allocation hooks are off in this build";
  }
  auto per_pixel = [](const char* impl, const char* schedule) {
    std::vector<std::string> args = {"--scene=reference", std::string("--impl=") + impl,
                                     std::string("--schedule=") + schedule, "--width=32",
                                     "--height=24"};
    if (std::string(schedule) != "single") args.push_back("--threads=2");
    const ProcessResult r = Raytrace(args);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return AllocationsPerPixel(r.stdout_text);
  };
  const double naive = per_pixel("naive", "single");
  const double cached = per_pixel("cached", "single");
  EXPECT_GT(naive, 1000);         // every operation allocates
  EXPECT_GT(cached, 10);          // heap math still allocates
  EXPECT_GE(naive, 10 * cached);  // but no more inverses
  EXPECT_LT(per_pixel("optimized", "single"), 1);
  EXPECT_LT(per_pixel("optimized", "pixel"), 1);  // worker threads count too
  EXPECT_GT(per_pixel("cached", "line"), 10);
}

}  // namespace
}  // namespace benchprof::raytracer
