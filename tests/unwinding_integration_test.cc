// Linking benchprof must not change how a program unwinds: C++ exceptions,
// pthread_exit, pthread_cancel with cleanup handlers, std::thread ends
// (fixtures/unwinding_fixture_bench.cc checks each and reports an error if
// it went wrong), with no flag and with each flag that starts a collector.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::RunProcess;
using testing::TempDir;

const char* const kBenchmarks[] = {
    "BM_ExceptionThroughFrames",    "BM_PthreadExitRunsDestructors",
    "BM_CancelRunsCleanupHandlers", "BM_ThreadEnds",
    "BM_ExceptionAcrossThreads",    "BM_ProgramUnwinderIsTheToolchains",
};

// Runs the fixture with `flags` and checks that every benchmark ran and
// reported no error.
void ExpectUnwindingUnchanged(const std::vector<std::string>& flags) {
  std::vector<std::string> argv = {UNWINDING_FIXTURE_BENCH_PATH};
  argv.insert(argv.end(), flags.begin(), flags.end());
  const ProcessResult result = RunProcess(argv);
  std::string with = "with";
  for (const std::string& flag : flags) with += " " + flag;
  if (flags.empty()) with = "with no flag";
  EXPECT_EQ(result.term_signal, 0) << with << ": killed by signal " << result.term_signal << "\n"
                                   << result.stderr_text;
  EXPECT_EQ(result.exit_code, 0) << with << "\n" << result.stdout_text << result.stderr_text;
  for (const char* benchmark : kBenchmarks) {
    EXPECT_NE(result.stdout_text.find(benchmark), std::string::npos)
        << with << ": " << benchmark << " did not report\n"
        << result.stdout_text;
  }
  EXPECT_EQ(result.stdout_text.find("ERROR OCCURRED"), std::string::npos)
      << with << "\n"
      << result.stdout_text;
}

TEST(UnwindingIntegrationTest, WithoutFlags) { ExpectUnwindingUnchanged({}); }

TEST(UnwindingIntegrationTest, WithEachCollector) {
  TempDir dir;
  std::vector<std::vector<std::string>> runs = {
      {"--trace=" + dir.File("trace.json")},
      {"--timeout=10m"},
  };
  if (ALLOC_HOOKS_ENABLED) {
    runs.push_back({"--benchmem"});
    runs.push_back({"--memprofile=" + dir.File("mem.pprof"), "--memprofilerate=1"});
  }
  if (!THREAD_SANITIZED_BUILD) {
    runs.push_back({"--cpuprofile=" + dir.File("cpu.pprof"), "--cpuprofilerate=1000"});
  }
  if (CONTENTION_HOOKS_ENABLED) {
    runs.push_back({"--blockprofile=" + dir.File("block.pprof")});
    runs.push_back({"--mutexprofile=" + dir.File("mutex.pprof")});
  }
  for (const std::vector<std::string>& flags : runs) ExpectUnwindingUnchanged(flags);
}

TEST(UnwindingIntegrationTest, WithEveryCollectorAtOnce) {
  if (!ALLOC_HOOKS_ENABLED || !CONTENTION_HOOKS_ENABLED || THREAD_SANITIZED_BUILD) {
    GTEST_SKIP() << "this build lacks a collector (sanitizer build)";
  }
  TempDir dir;
  ExpectUnwindingUnchanged({"--benchmem", "--cpuprofile=" + dir.File("cpu.pprof"),
                            "--cpuprofilerate=1000", "--memprofile=" + dir.File("mem.pprof"),
                            "--memprofilerate=1", "--blockprofile=" + dir.File("block.pprof"),
                            "--mutexprofile=" + dir.File("mutex.pprof"),
                            "--trace=" + dir.File("trace.json"), "--timeout=10m"});
}

// "B/op=... allocs/op=..." of each benchmark that starts threads, as the
// console shows them.
std::string AllocationFigures(const ProcessResult& result) {
  static const std::regex kLine(R"((BM_\w+)/\S+ .* (B/op=\S+) (allocs/op=\S+))");
  std::string figures;
  for (std::sregex_iterator it(result.stdout_text.begin(), result.stdout_text.end(), kLine), end;
       it != end; ++it) {
    figures += (*it)[1].str() + " " + (*it)[2].str() + " " + (*it)[3].str() + "\n";
  }
  return figures;
}

// The unwinder allocates its thread-local state at a thread's first stack
// walk (it is loaded with dlopen); that is the profiler's allocation, not
// the program's: a thread started in the timed loop counts the same with
// and without the collectors that walk its stack.
TEST(UnwindingIntegrationTest, CollectorsDoNotChangeAllocationCounts) {
  if (!ALLOC_HOOKS_ENABLED || !CONTENTION_HOOKS_ENABLED || THREAD_SANITIZED_BUILD) {
    GTEST_SKIP() << "this build lacks a collector (sanitizer build)";
  }
  TempDir dir;
  const std::string filter = "--benchmark_filter=PthreadExit|ThreadEnds|AcrossThreads";
  const ProcessResult plain = RunProcess({UNWINDING_FIXTURE_BENCH_PATH, filter, "--benchmem"});
  ASSERT_EQ(plain.exit_code, 0) << plain.stderr_text;
  const std::string expected = AllocationFigures(plain);
  ASSERT_EQ(std::count(expected.begin(), expected.end(), '\n'), 3) << plain.stdout_text;
  for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{
           {"--cpuprofile=" + dir.File("cpu.pprof"), "--cpuprofilerate=1000"},
           {"--memprofile=" + dir.File("mem.pprof"), "--memprofilerate=1"},
           {"--blockprofile=" + dir.File("block.pprof")},
           {"--mutexprofile=" + dir.File("mutex.pprof")}}) {
    std::vector<std::string> argv = {UNWINDING_FIXTURE_BENCH_PATH, filter, "--benchmem"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    const ProcessResult profiled = RunProcess(argv);
    ASSERT_EQ(profiled.exit_code, 0) << profiled.stderr_text;
    EXPECT_EQ(AllocationFigures(profiled), expected) << "with " << flags[0];
  }
}

// Under Valgrind's callgrind, which runs bench again with the same flags.
TEST(UnwindingIntegrationTest, WithInstructions) {
  if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer builds do not run under Valgrind";
  if (RunProcess({"/bin/sh", "-c", "command -v valgrind"}).exit_code != 0) {
    GTEST_SKIP() << "valgrind is not installed (ci/setup-debian installs it)";
  }
  ExpectUnwindingUnchanged({"--instructions", "--benchmem"});
}

}  // namespace
}  // namespace benchprof
