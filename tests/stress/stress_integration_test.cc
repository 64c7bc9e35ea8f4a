// The stress test: stress_fixture_bench (threads that allocate, throw and
// contend; a plugin dlopen()ed and dlclose()d while profiling; fork() with
// children that exit()) with every collector at its highest rate, run again
// and again for BENCHPROF_STRESS_SECONDS (default 20). Every run must exit
// 0 within its time limit and write every output, valid, and nothing else
// (no temporary, nothing from a child); every lost sample must be counted
// (the count on stderr is the count in the profile); the plugin's frames
// must be symbolized though it was unloaded before the profile was written.
// Prints runs, crashes, hangs, wrong exits and losses.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "common/status.h"
#include "encode/pprof_reader.h"
#include "support/go_pprof.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::RunProcess;
using testing::TempDir;

constexpr int kRunLimitSeconds = 300;  // a run that takes longer is a hang

int StressSeconds() {
  const char* value = std::getenv("BENCHPROF_STRESS_SECONDS");
  if (value == nullptr || *value == '\0') return 20;
  return std::max(1, std::atoi(value));
}

// The lost samples a profile holds: the samples whose leaf is one of
// benchprof's "[benchprof] lost samples: ..." pseudo-functions (their first
// value is the count).
uint64_t LostInProfile(const encode::ProfileData& profile) {
  uint64_t lost = 0;
  for (const encode::ProfileSample& sample : profile.samples) {
    if (sample.location_indexes.empty() || sample.values.empty()) continue;
    const encode::ProfileLocation& leaf = profile.locations[sample.location_indexes[0]];
    for (const encode::ProfileLine& line : leaf.lines) {
      if (profile.functions[line.function_index].name.starts_with("[benchprof] lost")) {
        lost += static_cast<uint64_t>(sample.values[0]);
      }
    }
  }
  return lost;
}

// Whether some location of `profile` is symbolized as `function` from a file
// named `file`.
bool HasFunction(const encode::ProfileData& profile, const std::string& function,
                 const std::string& file) {
  for (const encode::ProfileLocation& location : profile.locations) {
    for (const encode::ProfileLine& line : location.lines) {
      const encode::ProfileFunction& f = profile.functions[line.function_index];
      if (f.name == function && f.filename.ends_with(file)) return true;
    }
  }
  return false;
}

struct Totals {
  int runs = 0;
  int crashes = 0;
  int hangs = 0;
  int wrong_exits = 0;
  std::map<std::string, uint64_t> samples;  // per profile file
  std::map<std::string, uint64_t> lost;
};

TEST(StressTest, EveryCollectorAtFullRateOnThreadsExceptionsDlopenAndFork) {
  if (!ALLOC_HOOKS_ENABLED || !CONTENTION_HOOKS_ENABLED) {
    GTEST_SKIP() << "this build lacks the allocation or lock hooks (ASan, TSan); the stress "
                    "test runs every collector";
  }
  const int budget = StressSeconds();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(budget);
  const std::vector<std::string> profiles = {"cpu.pprof", "mem.pprof", "block.pprof",
                                             "mutex.pprof"};
  const std::regex summary(
      R"(^(cpu|heap|block|mutex) profile: \S+ \((\d+) samples, (\d+) lost\)$)");
  Totals totals;
  do {
    TempDir dir;
    ++totals.runs;
    SCOPED_TRACE("run " + std::to_string(totals.runs));
    const ProcessResult run =
        RunProcess({"/usr/bin/timeout", "-s", "KILL", std::to_string(kRunLimitSeconds),
                    STRESS_FIXTURE_BENCH_PATH, "--benchmark_min_time=0.05", "--benchmem",
                    "--cpuprofile=cpu.pprof", "--cpuprofilerate=10000", "--memprofile=mem.pprof",
                    "--memprofilerate=1", "--blockprofile=block.pprof", "--blockprofilerate=1",
                    "--mutexprofile=mutex.pprof", "--mutexprofilefraction=1", "--trace=trace.json",
                    "--tracecpurate=1000", "--benchmark_out=out.json"},
                   {"STRESS_PLUGIN=" STRESS_PLUGIN_PATH}, dir.path());
    if (run.term_signal != 0 || run.exit_code > 128) {
      // timeout(1) reports a KILLed child as 137.
      (run.exit_code == 137 || run.term_signal == SIGKILL ? totals.hangs : totals.crashes)++;
      ADD_FAILURE() << "killed (signal " << run.term_signal << ", exit " << run.exit_code
                    << "): " << run.stderr_text;
      continue;
    }
    if (run.exit_code != 0) {
      ++totals.wrong_exits;
      // The benchmark that failed says why on stdout ("ERROR OCCURRED: ...").
      ADD_FAILURE() << "exit " << run.exit_code << ": " << run.stderr_text << run.stdout_text;
      continue;
    }
    // Every output, and nothing else: no temporary, nothing from a child.
    std::vector<std::string> files = testing::ListDirectory(dir.path());
    std::sort(files.begin(), files.end());
    EXPECT_EQ(files, (std::vector<std::string>{"block.pprof", "cpu.pprof", "mem.pprof",
                                               "mutex.pprof", "out.json", "trace.json"}));
    // Each profile reads, and its losses are the ones stderr counts.
    std::map<std::string, uint64_t> reported_lost;
    size_t begin = 0;
    while (begin < run.stderr_text.size()) {
      size_t end = run.stderr_text.find('\n', begin);
      if (end == std::string::npos) end = run.stderr_text.size();
      std::smatch m;
      const std::string line = run.stderr_text.substr(begin, end - begin);
      if (std::regex_match(line, m, summary)) {
        const std::string file = m[1] == "heap" ? "mem.pprof" : m[1].str() + ".pprof";
        totals.samples[file] += std::stoull(m[2]);
        reported_lost[file] = std::stoull(m[3]);
        totals.lost[file] += std::stoull(m[3]);
      }
      begin = end + 1;
    }
    for (const std::string& name : profiles) {
      SCOPED_TRACE(name);
      StatusOr<encode::ProfileData> profile =
          encode::ReadProfile(testing::ReadFile(dir.File(name)));
      ASSERT_TRUE(profile.ok()) << profile.status().message();
      ASSERT_TRUE(reported_lost.contains(name)) << run.stderr_text;
      EXPECT_EQ(LostInProfile(*profile), reported_lost[name]);
      if (name == "mem.pprof") {
        // At rate 1 every allocation of the plugin is sampled: its frames
        // are there, symbolized from the file it was loaded from.
        EXPECT_TRUE(HasFunction(*profile, "stress_plugin_work", "stress_plugin.cc"));
      }
    }
    const ProcessResult summary_run =
        RunProcess({BENCHPROF_PATH, "trace-summary", dir.File("trace.json")});
    EXPECT_EQ(summary_run.exit_code, 0) << summary_run.stderr_text;
    if (totals.runs == 1 && !std::string(GO_PATH).empty()) {
      // The oracle users read profiles with sees the plugin's function too.
      // -nodefraction=0: in a long run the plugin's share can fall below
      // the 0.5% under which pprof leaves a node out.
      const ProcessResult top = testing::RunGoPprof(
          GO_PATH, {"-top", "-nodecount=1000", "-nodefraction=0", dir.File("mem.pprof")}, dir);
      EXPECT_EQ(top.exit_code, 0) << top.stderr_text;
      EXPECT_NE(top.stdout_text.find("stress_plugin_work"), std::string::npos) << top.stdout_text;
    }
  } while (std::chrono::steady_clock::now() < deadline && !HasFailure());

  std::printf("stress: %d runs in %d s budget: %d crashes, %d hangs, %d wrong exits\n", totals.runs,
              budget, totals.crashes, totals.hangs, totals.wrong_exits);
  for (const auto& [file, samples] : totals.samples) {
    std::printf("stress: %s: %llu samples, %llu lost\n", file.c_str(),
                static_cast<unsigned long long>(samples),
                static_cast<unsigned long long>(totals.lost[file]));
  }
}

}  // namespace
}  // namespace benchprof
