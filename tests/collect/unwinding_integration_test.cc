// Linking benchprof must not change how a program unwinds: C++ exceptions,
// pthread_exit, pthread_cancel with cleanup handlers, std::thread ends
// (fixtures/unwinding_fixture_bench.cc checks each and reports an error if
// it went wrong), with no flag and with each flag that starts a collector.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
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
  EXPECT_EQ(result.stdout_text.find("ERROR OCCURRED"), std::string::npos) << with << "\n"
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

// The file the dynamic loader finds for `soname`, symbolic links resolved;
// "" if none.
std::string LibraryFile(const char* soname) {
  void* library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return "";
  link_map* map = nullptr;
  std::string file;
  char resolved[PATH_MAX];
  if (dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr &&
      realpath(map->l_name, resolved) != nullptr) {
    file = resolved;
  }
  dlclose(library);
  return file;
}

// Without the unwinder (hidden by an empty file mounted over it, in a mount
// namespace of the test's own), the profilers that walk stacks refuse to
// start, one line, exit 4; a run without them is unaffected.
TEST(UnwindingIntegrationTest, MissingUnwinderIsReported) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root, for a mount namespace";
  const std::string library = LibraryFile(LIBUNWIND_SONAME);
  ASSERT_FALSE(library.empty()) << LIBUNWIND_SONAME;
  TempDir dir;
  const std::string hide = "mount --bind /dev/null '" + library + "' && exec \"$@\"";
  const auto without_unwinder = [&](const std::vector<std::string>& flags) {
    // sh -c's "$@": the fixture and its flags.
    std::vector<std::string> argv = {"/usr/bin/unshare", "-m", "/bin/sh", "-c", hide, "sh"};
    argv.push_back(UNWINDING_FIXTURE_BENCH_PATH);
    argv.push_back("--benchmark_filter=ExceptionThroughFrames");
    argv.insert(argv.end(), flags.begin(), flags.end());
    return RunProcess(argv);
  };
  const ProcessResult plain = without_unwinder({});
  if (plain.exit_code != 0 && plain.stderr_text.find("unshare") != std::string::npos) {
    GTEST_SKIP() << "no mount namespace here: " << plain.stderr_text;
  }
  EXPECT_EQ(plain.exit_code, 0) << plain.stderr_text;
  std::vector<std::string> profilers = {"--cpuprofile"};
  if (ALLOC_HOOKS_ENABLED) profilers.push_back("--memprofile");
  if (CONTENTION_HOOKS_ENABLED) {
    profilers.push_back("--blockprofile");
    profilers.push_back("--mutexprofile");
  }
  if (THREAD_SANITIZED_BUILD) profilers.erase(profilers.begin());
  for (const std::string& flag : profilers) {
    const std::string output = dir.File("out.pprof");
    const ProcessResult refused = without_unwinder({flag + "=" + output});
    EXPECT_EQ(refused.exit_code, 4) << flag << "\n" << refused.stderr_text;
    EXPECT_EQ(refused.stderr_text.find("BM_"), std::string::npos) << flag << ": a benchmark ran";
    EXPECT_NE(refused.stderr_text.find(flag + ": cannot load the stack unwinder: "),
              std::string::npos)
        << refused.stderr_text;
    EXPECT_EQ(std::count(refused.stderr_text.begin(), refused.stderr_text.end(), '\n'), 1)
        << refused.stderr_text;
    EXPECT_FALSE(testing::FileExists(output)) << flag;
  }
}

}  // namespace
}  // namespace benchprof
