// bench interrupted (session/interruption.h): exit 128 + the signal, one
// line, no temporary file left; while a benchmark's loop runs, what was
// collected is written and marked as interrupted; a second signal keeps the
// previous files; a write phase leaves all outputs new or all old; a run
// killed with SIGKILL leaves its temporary, which the next run removes; a
// reader of stdout that goes away does not cost --benchmark_out; a signal
// that ends a benchmark's forked child too is still an interruption;
// SIGQUIT prints every thread's stack, writes what was collected and dies
// of SIGQUIT; a forked child's crash is the child's own.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "collect/cpu_sampler.h"
#include "common/json_value.h"
#include "encode/pprof_reader.h"
#include "support/go_pprof.h"
#include "support/subprocess.h"

extern char** environ;

namespace benchprof {
namespace {

using testing::ListDirectory;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

struct Interrupted {
  int exit_code = -1;
  int term_signal = 0;
  std::string stderr_text;
};

// Whether bench has created its temporary output files in `directory`:
// then its signal watcher is running.
bool HasTemporaries(const std::string& directory) {
  for (const std::string& name : ListDirectory(directory)) {
    if (name.starts_with('.') && name.find(".tmp-") != std::string::npos) return true;
  }
  return false;
}

// Starts `binary` with `args`, stderr to a file, the watched signals at
// their default action; once `ready()` (polled every 5 ms, however slowly
// a loaded machine starts it), sends each of `signals` (with `to_group`, to
// a process group of its own, as a terminal's Ctrl-C does), and waits for
// it (a process that does not end within 120 s is killed and the test
// fails).
template <typename Ready>
Interrupted RunAndSignalWhen(std::vector<std::string> args, const std::vector<int>& signals,
                             Ready ready, const std::string& binary = "", bool to_group = false) {
  if (!binary.empty()) args.insert(args.begin(), binary);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const TempDir log_dir;  // not the outputs' directory: its listing is checked
  const std::string errors = log_dir.File("stderr");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    sigaddset(&defaults, signal_number);
  }
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSIGDEF | (to_group ? POSIX_SPAWN_SETPGROUP : 0));
  pid_t pid = 0;
  Interrupted result;
  const int spawned = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return result;
  int status = 0;
  bool ended = false;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!ready() && std::chrono::steady_clock::now() < give_up) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      ended = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!ended) {
    for (const int signal_number : signals) kill(to_group ? -pid : pid, signal_number);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (waitpid(pid, &status, WNOHANG) != pid) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(to_group ? -pid : pid, SIGKILL);
        waitpid(pid, &status, 0);
        ADD_FAILURE() << "the process did not end after the signal";
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  result.stderr_text = ReadFile(errors);
  return result;
}

// bench with `args`, signalled with `signal_number` `delay` after its
// temporary outputs exist in `outputs` (then its signal watcher runs).
Interrupted RunAndSignal(std::vector<std::string> args, int signal_number,
                         std::chrono::milliseconds delay, const std::string& outputs) {
  bool waited = false;
  return RunAndSignalWhen(
      std::move(args), {signal_number},
      [&] {
        if (!HasTemporaries(outputs)) return false;
        if (!waited) std::this_thread::sleep_for(delay);
        waited = true;
        return true;
      },
      BENCH_PATH);
}

std::vector<std::string> Sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

// The outputs every build can write into `dir` (ThreadSanitizer builds have
// no CPU profiler), and the names of the files they make.
std::vector<std::string> Outputs(const TempDir& dir) {
  std::vector<std::string> flags = {"--benchmark_out=" + dir.File("out.json"),
                                    "--trace=" + dir.File("trace.json")};
  if (collect::kCpuSamplerSupported) flags.push_back("--cpuprofile=" + dir.File("cpu.pprof"));
  return flags;
}
std::vector<std::string> OutputFiles() {
  if (!collect::kCpuSamplerSupported) return {"out.json", "trace.json"};
  return {"cpu.pprof", "out.json", "trace.json"};
}

// The outputs of an interrupted fixture run in `dir`: what every build
// can write (ThreadSanitizer builds have no CPU profiler, sanitizer builds
// no heap profiler).
std::vector<std::string> FixtureOutputs(const TempDir& dir) {
  std::vector<std::string> flags = {"--benchmark_out=" + dir.File("out.json"),
                                    "--trace=" + dir.File("trace.json")};
  if (collect::kCpuSamplerSupported) flags.push_back("--cpuprofile=" + dir.File("cpu.pprof"));
  if (ALLOC_HOOKS_ENABLED) flags.push_back("--memprofile=" + dir.File("mem.pprof"));
  return flags;
}
std::vector<std::string> FixtureOutputFiles() {
  std::vector<std::string> files = {"out.json", "trace.json"};
  if (collect::kCpuSamplerSupported) files.push_back("cpu.pprof");
  if (ALLOC_HOOKS_ENABLED) files.push_back("mem.pprof");
  return Sorted(files);
}

// The fixture with `args` and BENCHPROF_TEST_STARTED set, signalled with
// each of `signals` (at once, in that order) once BM_Endless's loop runs.
Interrupted InterruptEndlessLoop(std::vector<std::string> args, std::vector<int> signals) {
  const TempDir marker_dir;
  const std::string marker = marker_dir.File("started");
  setenv("BENCHPROF_TEST_STARTED", marker.c_str(), 1);
  args.insert(args.begin(), INTERRUPT_FIXTURE_BENCH_PATH);
  Interrupted run = RunAndSignalWhen(args, signals, [&] { return testing::FileExists(marker); });
  unsetenv("BENCHPROF_TEST_STARTED");
  return run;
}

// The first signal, while a benchmark's loop runs and cannot be stopped:
// every output is written from what was collected (the completed run in
// --benchmark_out, the profiles and the trace so far), each marked as
// interrupted, no temporary is left, one line, exit 128 + the signal.
TEST(InterruptionTest, TheFirstSignalWritesWhatWasCollected) {
  for (const auto& [signal_number, name] : std::vector<std::pair<int, std::string>>{
           {SIGINT, "SIGINT"}, {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"}}) {
    SCOPED_TRACE(name);
    TempDir dir;
    // The profiles once (symbolizing them takes a while on a loaded machine).
    const bool profiles = signal_number == SIGINT;
    const std::vector<std::string> outputs =
        profiles ? FixtureOutputs(dir)
                 : std::vector<std::string>{"--benchmark_out=" + dir.File("out.json"),
                                            "--trace=" + dir.File("trace.json")};
    const std::vector<std::string> files =
        profiles ? FixtureOutputFiles() : std::vector<std::string>{"out.json", "trace.json"};
    const Interrupted run = InterruptEndlessLoop(outputs, {signal_number});
    EXPECT_EQ(run.exit_code, 128 + signal_number) << run.stderr_text;
    ASSERT_NE(run.stderr_text.rfind("interrupt_fixture_bench: "), std::string::npos);
    EXPECT_EQ(run.stderr_text.substr(run.stderr_text.rfind("interrupt_fixture_bench: ")),
              "interrupt_fixture_bench: interrupted by " + name +
                  "; wrote the 1 completed run and what was collected until then, marked as "
                  "interrupted\n");
    EXPECT_EQ(Sorted(ListDirectory(dir.path())), files);

    StatusOr<json::Value> results = json::Parse(ReadFile(dir.File("out.json")));
    ASSERT_TRUE(results.ok()) << results.status().message();
    const json::Value* context = results->Find("context");
    ASSERT_NE(context, nullptr);
    ASSERT_NE(context->Find("benchprof_interrupted"), nullptr);
    EXPECT_EQ(context->Find("benchprof_interrupted")->as_string(), name);
    const json::Value* benchmarks = results->Find("benchmarks");
    ASSERT_NE(benchmarks, nullptr);
    ASSERT_EQ(benchmarks->as_array().size(), 1u);
    EXPECT_EQ(benchmarks->as_array()[0].Find("name")->as_string(), "BM_Quick/iterations:1000");

    StatusOr<json::Value> trace = json::Parse(ReadFile(dir.File("trace.json")));
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    ASSERT_NE(trace->Find("otherData")->Find("interrupted"), nullptr);
    EXPECT_EQ(trace->Find("otherData")->Find("interrupted")->as_string(), name);

    for (const std::string& file : files) {
      if (!file.ends_with(".pprof")) continue;
      SCOPED_TRACE(file);
      StatusOr<encode::ProfileData> profile = encode::ReadProfile(ReadFile(dir.File(file)));
      ASSERT_TRUE(profile.ok()) << profile.status().message();
      const std::string expected = "benchprof: interrupted (" + name + ")";
      EXPECT_TRUE(std::any_of(profile->comments.begin(), profile->comments.end(),
                              [&](const std::string& c) { return c.starts_with(expected); }));
      // The loop that never finished is in the profile, as go tool pprof
      // reads it.
      if (std::string(GO_PATH).empty()) {
        ADD_FAILURE() << "go tool pprof is needed to read the profiles";
        continue;
      }
      const ProcessResult top =
          testing::RunGoPprof(GO_PATH, {"-top", "-nodefraction=0", dir.File(file)}, dir);
      EXPECT_EQ(top.exit_code, 0) << top.stderr_text;
      EXPECT_NE(top.stdout_text.find("BM_Endless"), std::string::npos) << top.stdout_text;
    }
  }
}

// A second signal while the outputs are being written exits at once: no
// output replaced, no temporary left.
TEST(InterruptionTest, ASecondSignalExitsAtOnceAndKeepsThePreviousFiles) {
  TempDir dir;
  std::vector<std::string> complete = {INTERRUPT_FIXTURE_BENCH_PATH, "--benchmark_filter=Quick"};
  for (const std::string& output : FixtureOutputs(dir)) complete.push_back(output);
  ASSERT_EQ(RunProcess(complete).exit_code, 0);
  std::vector<std::string> before;
  for (const std::string& file : FixtureOutputFiles()) before.push_back(ReadFile(dir.File(file)));
  // Sent together, the two may reach different threads' handlers, so either
  // can be the first the watcher reads: it starts writing on that one and
  // exits on the other at once, with the other's code.
  const Interrupted run = InterruptEndlessLoop(FixtureOutputs(dir), {SIGINT, SIGTERM});
  const std::string second = run.exit_code == 128 + SIGINT ? "SIGINT" : "SIGTERM";
  EXPECT_TRUE(run.exit_code == 128 + SIGINT || run.exit_code == 128 + SIGTERM)
      << run.exit_code << run.stderr_text;
  EXPECT_EQ(run.stderr_text.substr(run.stderr_text.rfind("interrupt_fixture_bench: ")),
            "interrupt_fixture_bench: interrupted again by " + second +
                " while writing; no output file written, previous ones kept\n");
  EXPECT_EQ(Sorted(ListDirectory(dir.path())), FixtureOutputFiles());
  std::vector<std::string> after;
  for (const std::string& file : FixtureOutputFiles()) after.push_back(ReadFile(dir.File(file)));
  EXPECT_TRUE(before == after);
}

// A signal once the first output has been replaced: the others are
// replaced too (before, the trace was new and the profiles old).
TEST(InterruptionTest, AnInterruptedWritePhaseLeavesAllOutputsNewOrAllOld) {
  TempDir dir;
  std::vector<std::string> run_args = {INTERRUPT_FIXTURE_BENCH_PATH, "--benchmark_filter=Quick"};
  for (const std::string& output : FixtureOutputs(dir)) run_args.push_back(output);
  ASSERT_EQ(RunProcess(run_args).exit_code, 0);
  auto identities = [&] {
    std::vector<ino_t> inodes;
    for (const std::string& file : FixtureOutputFiles()) {
      struct stat info {};
      stat(dir.File(file).c_str(), &info);
      inodes.push_back(info.st_ino);
    }
    return inodes;
  };
  const std::vector<ino_t> old_files = identities();
  run_args.erase(run_args.begin());
  const Interrupted run = RunAndSignalWhen(
      run_args, {SIGTERM},
      [&] {
        const std::vector<ino_t> now = identities();
        for (size_t i = 0; i < now.size(); ++i) {
          if (now[i] != old_files[i]) return true;
        }
        return false;
      },
      INTERRUPT_FIXTURE_BENCH_PATH);
  const std::vector<ino_t> new_files = identities();
  size_t replaced = 0;
  for (size_t i = 0; i < new_files.size(); ++i) replaced += new_files[i] != old_files[i] ? 1 : 0;
  EXPECT_TRUE(replaced == 0 || replaced == new_files.size())
      << replaced << " of " << new_files.size() << " replaced\n"
      << run.stderr_text;
  EXPECT_EQ(Sorted(ListDirectory(dir.path())), FixtureOutputFiles());
}

// How many RSS corpus directories (bench-rss-*) are in `tmpdir`.
int CorpusDirectories(const TempDir& tmpdir) {
  int count = 0;
  for (const std::string& name : ListDirectory(tmpdir.path())) {
    count += name.starts_with("bench-rss-") ? 1 : 0;
  }
  return count;
}

// --timeout: which benchmark was running and every thread's stack (the
// endless loop's included), then the outputs as for a signal, exit 5.
TEST(InterruptionTest, ATimeoutPrintsTheStacksAndWritesWhatWasCollected) {
  TempDir dir;
  const ProcessResult run =
      RunProcess({INTERRUPT_FIXTURE_BENCH_PATH, "--timeout=3s",
                  "--benchmark_out=" + dir.File("out.json"), "--trace=" + dir.File("trace.json")});
  EXPECT_EQ(run.exit_code, 5) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("interrupt_fixture_bench: timed out after 3s (--timeout); running "
                                 "the benchmark after BM_Quick/iterations:1000\nthread "),
            std::string::npos)
      << run.stderr_text;
  // The main thread runs the endless loop; its stack is symbolized. Not
  // under TSan: it delivers a signal at its own next safe point, from inside
  // its runtime, where the busy thread's stack cannot be walked.
  if (!THREAD_SANITIZED_BUILD) {
    EXPECT_NE(run.stderr_text.find("BM_Endless\n      "), std::string::npos) << run.stderr_text;
    EXPECT_NE(run.stderr_text.find("interrupt_fixture_bench.cc:"), std::string::npos);
  }
  EXPECT_TRUE(run.stderr_text.ends_with(
      "interrupt_fixture_bench: timed out (--timeout=3s); wrote the 1 completed run and what was "
      "collected until then, marked as interrupted\n"))
      << run.stderr_text;
  StatusOr<json::Value> results = json::Parse(ReadFile(dir.File("out.json")));
  ASSERT_TRUE(results.ok()) << results.status().message();
  EXPECT_EQ(results->Find("context")->Find("benchprof_interrupted")->as_string(), "--timeout=3s");
  EXPECT_EQ(results->Find("benchmarks")->as_array().size(), 1u);
  StatusOr<json::Value> trace = json::Parse(ReadFile(dir.File("trace.json")));
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  EXPECT_EQ(trace->Find("otherData")->Find("interrupted")->as_string(), "--timeout=3s");
  EXPECT_EQ(Sorted(ListDirectory(dir.path())),
            (std::vector<std::string>{"out.json", "trace.json"}));
}

TEST(InterruptionTest, ABadTimeoutIsRefusedBeforeAnythingRuns) {
  for (const std::string value : {"abc", "10", "-1s", "1h30"}) {
    SCOPED_TRACE(value);
    const ProcessResult run = RunProcess({INTERRUPT_FIXTURE_BENCH_PATH, "--timeout=" + value});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.stderr_text, "interrupt_fixture_bench: --timeout=" + value +
                                   ": expected a duration such as 90s, 10m or 1h30m (Go's "
                                   "syntax), 0 for none\n");
  }
}

// The fixture with `filter` and `outputs`, core dumps off.
ProcessResult RunCrashing(const std::string& filter, const std::vector<std::string>& outputs) {
  std::vector<std::string> argv = {"/bin/sh",
                                   "-c",
                                   "ulimit -c 0; exec \"$@\"",
                                   "sh",
                                   INTERRUPT_FIXTURE_BENCH_PATH,
                                   "--benchmark_filter=" + filter};
  argv.insert(argv.end(), outputs.begin(), outputs.end());
  return RunProcess(argv);
}

// A benchmark that crashes: its stack with the benchmark's name, the
// completed run written (marked with the signal), no temporary left, and
// the process dies of the original signal (before, it died leaving every
// temporary and no result).
TEST(InterruptionTest, ACrashReportsTheStackWritesTheResultsAndDiesOfTheSignal) {
  if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer build: the sanitizer reports crashes itself";
  TempDir dir;
  const ProcessResult run = RunCrashing("Quick|Crash", FixtureOutputs(dir));
  EXPECT_EQ(run.term_signal, SIGSEGV) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("interrupt_fixture_bench: crashed (SIGSEGV at 0x0) while running "
                                 "the benchmark after BM_Quick/iterations:1000\nthread "),
            std::string::npos)
      << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("BM_Crash\n      "), std::string::npos) << run.stderr_text;
  EXPECT_TRUE(run.stderr_text.ends_with(
      "interrupt_fixture_bench: crashed (SIGSEGV); wrote the 1 completed run and what was "
      "collected until then, marked as interrupted\n"))
      << run.stderr_text;
  EXPECT_EQ(Sorted(ListDirectory(dir.path())), FixtureOutputFiles());
  StatusOr<json::Value> results = json::Parse(ReadFile(dir.File("out.json")));
  ASSERT_TRUE(results.ok()) << results.status().message();
  EXPECT_EQ(results->Find("context")->Find("benchprof_interrupted")->as_string(), "SIGSEGV");
  EXPECT_EQ(results->Find("benchmarks")->as_array().size(), 1u);
}

// A stack overflow, on the main thread and on a benchmark thread the
// library started: the handler runs on a stack of its own (benchprof gives
// each benchmark thread one before its loop).
TEST(InterruptionTest, AStackOverflowIsReportedToo) {
  if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer build: the sanitizer reports crashes itself";
  for (const char* filter : {"Quick|Overflow$", "Quick|OverflowOnAWorker"}) {
    SCOPED_TRACE(filter);
    TempDir dir;
    const ProcessResult run = RunCrashing(filter, {"--benchmark_out=" + dir.File("out.json")});
    EXPECT_EQ(run.term_signal, SIGSEGV) << run.stderr_text;
    EXPECT_NE(run.stderr_text.find("Deeper\n      "), std::string::npos) << run.stderr_text;
    EXPECT_TRUE(run.stderr_text.ends_with(
        "interrupt_fixture_bench: crashed (SIGSEGV); wrote the 1 completed run, marked as "
        "interrupted\n"))
        << run.stderr_text;
    EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"out.json"});
  }
}

// An uncaught exception is named, then reported as the SIGABRT it becomes.
TEST(InterruptionTest, AnUncaughtExceptionIsNamedAndReportedAsACrash) {
  if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer build: the sanitizer reports crashes itself";
  TempDir dir;
  const ProcessResult run = RunCrashing("Quick|Throw", {"--benchmark_out=" + dir.File("out.json")});
  EXPECT_EQ(run.term_signal, SIGABRT) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find(
                "terminate called: uncaught exception (std::runtime_error): BM_Throw gives up\n"),
            std::string::npos)
      << run.stderr_text;
  EXPECT_TRUE(run.stderr_text.ends_with(
      "interrupt_fixture_bench: crashed (SIGABRT); wrote the 1 completed run, marked as "
      "interrupted\n"))
      << run.stderr_text;
  EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"out.json"});
}

// Ctrl-C (SIGINT to the process group) while a benchmark waits in waitpid
// for a child it forked: the child dies of it, the benchmark returns, and
// the run ends at about the moment the watcher wakes. The signal came
// while the benchmarks ran, so the outputs are written and marked, every
// time. Before, in about a third of the runs, the main thread's normal end
// won: "interrupted by SIGINT while writing the outputs; no output file
// written", or exit 0 with unmarked files as if no signal had come.
TEST(InterruptionTest, ASignalThatEndsAForkedChildStillInterruptsTheRun) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    SCOPED_TRACE(attempt);
    TempDir dir;
    const TempDir marker_dir;
    const std::string marker = marker_dir.File("started");
    setenv("BENCHPROF_TEST_STARTED", marker.c_str(), 1);
    const Interrupted run = RunAndSignalWhen(
        {"--benchmark_filter=Quick|ForkAndWait", "--benchmark_out=" + dir.File("out.json")},
        {SIGINT}, [&] { return testing::FileExists(marker); }, INTERRUPT_FIXTURE_BENCH_PATH,
        /*to_group=*/true);
    unsetenv("BENCHPROF_TEST_STARTED");
    EXPECT_EQ(run.exit_code, 128 + SIGINT) << run.stderr_text;
    // BM_ForkAndWait's run may have been reported before the watcher
    // stopped the reports.
    EXPECT_TRUE(std::regex_search(
        run.stderr_text,
        std::regex("interrupt_fixture_bench: interrupted by SIGINT; wrote the [12] completed "
                   "runs?, marked as interrupted\n$")))
        << run.stderr_text;
    ASSERT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"out.json"});
    StatusOr<json::Value> results = json::Parse(ReadFile(dir.File("out.json")));
    ASSERT_TRUE(results.ok()) << results.status().message();
    const json::Value* interrupted = results->Find("context")->Find("benchprof_interrupted");
    ASSERT_NE(interrupted, nullptr);
    EXPECT_EQ(interrupted->as_string(), "SIGINT");
    if (::testing::Test::HasFailure()) break;
  }
}

// SIGQUIT, as Go's: every thread's stack (the endless loop's included), then
// the outputs written from what was collected and marked `SIGQUIT`, no
// temporary left, and the process dies of SIGQUIT, so the exit status (and
// a core dump, where the limits allow one) are SIGQUIT's. Before, it died at
// once, wrote nothing and left every temporary.
TEST(InterruptionTest, SigquitPrintsTheStacksWritesWhatWasCollectedAndDiesOfIt) {
  TempDir dir;
  const TempDir marker_dir;
  const std::string marker = marker_dir.File("started");
  setenv("BENCHPROF_TEST_STARTED", marker.c_str(), 1);
  std::vector<std::string> args = {"/bin/sh", "-c", "ulimit -c 0; exec \"$@\"", "sh",
                                   INTERRUPT_FIXTURE_BENCH_PATH};
  for (const std::string& output : FixtureOutputs(dir)) args.push_back(output);
  const Interrupted run =
      RunAndSignalWhen(args, {SIGQUIT}, [&] { return testing::FileExists(marker); });
  unsetenv("BENCHPROF_TEST_STARTED");
  EXPECT_EQ(run.term_signal, SIGQUIT) << run.exit_code << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("interrupt_fixture_bench: SIGQUIT; running the benchmark after "
                                 "BM_Quick/iterations:1000\nthread "),
            std::string::npos)
      << run.stderr_text;
  if (!THREAD_SANITIZED_BUILD) {
    EXPECT_NE(run.stderr_text.find("BM_Endless\n      "), std::string::npos) << run.stderr_text;
  }
  EXPECT_TRUE(run.stderr_text.ends_with(
      "interrupt_fixture_bench: interrupted by SIGQUIT; wrote the 1 completed run and what was "
      "collected until then, marked as interrupted\n"))
      << run.stderr_text;
  EXPECT_EQ(Sorted(ListDirectory(dir.path())), FixtureOutputFiles());
  StatusOr<json::Value> results = json::Parse(ReadFile(dir.File("out.json")));
  ASSERT_TRUE(results.ok()) << results.status().message();
  EXPECT_EQ(results->Find("context")->Find("benchprof_interrupted")->as_string(), "SIGQUIT");
  StatusOr<json::Value> trace = json::Parse(ReadFile(dir.File("trace.json")));
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  EXPECT_EQ(trace->Find("otherData")->Find("interrupted")->as_string(), "SIGQUIT");
}

// A child a benchmark forks is a process of its own: its crash is its
// plain SIGSEGV, with no report from bench's handler, and the parent's run
// goes on and completes. Before, the child's handler printed "crash: no
// report in time; the crashing thread's stack: 0x..." (it waited for the
// parent's watcher, which is not in the child).
TEST(InterruptionTest, AForkedChildsCrashIsTheChildsOwn) {
  if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer build: the sanitizer reports the child's crash";
  TempDir dir;
  const ProcessResult run =
      RunCrashing("ForkedChildCrashes", {"--benchmark_out=" + dir.File("out.json")});
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
  EXPECT_EQ(run.stderr_text.find("crash"), std::string::npos) << run.stderr_text;
  StatusOr<json::Value> results = json::Parse(ReadFile(dir.File("out.json")));
  ASSERT_TRUE(results.ok()) << results.status().message();
  const json::Value& row = results->Find("benchmarks")->as_array().at(0);
  ASSERT_NE(row.Find("child_signal"), nullptr);
  EXPECT_EQ(row.Find("child_signal")->as_number(), SIGSEGV);
}

// The RSS benchmarks' corpus directory ($TMPDIR/bench-rss-*) goes with
// bench's own temporaries: it is registered through <benchprof/files.h>.
TEST(InterruptionTest, ASignalRemovesTheRssCorpusDirectory) {
  TempDir tmpdir;
  TempDir dir;
  setenv("TMPDIR", tmpdir.path().c_str(), 1);
  const Interrupted run = RunAndSignalWhen(
      {"--benchmark_filter=Freq/sequential", "--benchmark_min_time=30",
       "--benchmark_out=" + dir.File("out.json")},
      {SIGTERM}, [&] { return CorpusDirectories(tmpdir) > 0; }, BENCH_PATH);
  unsetenv("TMPDIR");
  EXPECT_EQ(run.exit_code, 128 + SIGTERM) << run.term_signal << run.stderr_text;
  EXPECT_EQ(CorpusDirectories(tmpdir), 0);
  // Interrupted before its first run completed: no run to write, but the
  // file says so.
  EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"out.json"});
}

// Past `ulimit -f` a write fails as on a full disk (before, SIGXFSZ killed
// bench and left its temporary files).
TEST(InterruptionTest, AFileSizeLimitIsAFailedWriteNotAKill) {
  TempDir dir;
  const ProcessResult run =
      RunProcess({"/bin/sh", "-c", "ulimit -f 8; exec \"$@\"", "sh", BENCH_PATH,
                  "--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.001",
                  "--benchmark_repetitions=200", "--benchmark_out=" + dir.File("out.json")});
  EXPECT_EQ(run.exit_code, 4) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("File too large"), std::string::npos) << run.stderr_text;
  EXPECT_TRUE(ListDirectory(dir.path()).empty());
}

TEST(InterruptionTest, TheNextRunRemovesWhatAKilledRunLeft) {
  TempDir dir;
  const std::string out = "--benchmark_out=" + dir.File("out.json");
  const Interrupted killed =
      RunAndSignal({"--benchmark_filter=Alg", "--benchmark_min_time=15", out}, SIGKILL,
                   std::chrono::milliseconds(500), dir.path());
  EXPECT_EQ(killed.term_signal, SIGKILL);
  const std::vector<std::string> left = ListDirectory(dir.path());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].rfind(".out.json.tmp-", 0), 0u) << left[0];
  const ProcessResult next =
      RunProcess({BENCH_PATH, "--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.01", out});
  EXPECT_EQ(next.exit_code, 0) << next.stderr_text;
  EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"out.json"});
}

// Short of file descriptors, the library exits from inside the run (it
// cannot open --benchmark_out, or read /sys): whatever the limit, the run
// either writes every output or none, with no temporary left and exit 4.
// bench limited to `limit` open files, with `args`.
ProcessResult RunWithFileLimit(int limit, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {
      "/bin/sh", "-c", "ulimit -n " + std::to_string(limit) + "; exec \"$@\"", "sh", BENCH_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv);
}

// Short of file descriptors, the library may exit from inside the run (it
// cannot open --benchmark_out, or read /sys): then no output is written. Or
// one output fails while it is written: then that one is named on stderr
// and the others are still written. Whatever the limit, every output is
// either in place or named as failed, and no temporary file is left.
TEST(InterruptionTest, OutOfFileDescriptorsEachOutputWrittenOrNamed) {
  // The sanitizers' runtimes need descriptors of their own (UBSan probes
  // memory through a pipe) and report errors that are not bench's.
  if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer build";
  // Below some limit the process cannot even start (the loader, a
  // sanitizer's runtime): that is not bench's to handle.
  int lowest = 4;
  while (lowest < 64 && RunWithFileLimit(lowest, {"--version"}).exit_code != 0) ++lowest;
  int refused = 0;
  for (int limit = lowest; limit <= lowest + 12; ++limit) {
    SCOPED_TRACE(limit);
    TempDir dir;
    std::vector<std::string> args = {"--benchmark_filter=AlgorithmTwo",
                                     "--benchmark_min_time=0.001"};
    for (const std::string& output : Outputs(dir)) args.push_back(output);
    const ProcessResult run = RunWithFileLimit(limit, args);
    const std::vector<std::string> files = Sorted(ListDirectory(dir.path()));
    if (run.exit_code == 0) {
      EXPECT_EQ(files, OutputFiles());
      continue;
    }
    ++refused;
    // 4: bench could not write an output, or the library gave up mid-run;
    // 2: an output could not be created before the run: nothing ran, nothing
    // is written, and the one line names that output.
    EXPECT_TRUE(run.exit_code == 4 || run.exit_code == 2) << run.exit_code << run.stderr_text;
    for (const std::string& name : files) EXPECT_FALSE(name.starts_with('.')) << name;
    if (run.exit_code == 2) {
      EXPECT_TRUE(files.empty()) << run.stderr_text;
      EXPECT_EQ(std::count(run.stderr_text.begin(), run.stderr_text.end(), '\n'), 1)
          << run.stderr_text;
      EXPECT_NE(run.stderr_text.find(dir.path()), std::string::npos) << run.stderr_text;
      continue;
    }
    for (const std::string& name : OutputFiles()) {
      if (std::find(files.begin(), files.end(), name) != files.end()) continue;
      EXPECT_TRUE(run.stderr_text.find(dir.File(name)) != std::string::npos ||
                  run.stderr_text.find("no output file written") != std::string::npos)
          << name << " is neither written nor named:\n"
          << run.stderr_text;
    }
  }
  EXPECT_GT(refused, 0) << "no limit was low enough to fail";
}

// A program a benchmark starts (posix_spawn, system()) gets the signals as
// bench got them: SIGINT, SIGTERM, SIGHUP and SIGQUIT neither blocked (it would
// ignore Ctrl-C and outlive the run) nor handled, SIGPIPE and SIGXFSZ not
// ignored. (Before, all three were blocked in every thread, and the spawned
// program inherited that mask.)
TEST(InterruptionTest, AProgramABenchmarkStartsGetsDefaultSignals) {
  TempDir dir;
  const std::string masks = dir.File("masks");
  const ProcessResult run =
      RunProcess({"/usr/bin/env", "BENCHPROF_TEST_SPAWN_OUT=" + masks, INTERRUPT_FIXTURE_BENCH_PATH,
                  "--benchmark_filter=Spawn", "--benchmark_out=" + dir.File("out.json")});
  ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
  const std::string text = ReadFile(masks);
  std::smatch blocked, ignored;
  ASSERT_TRUE(std::regex_search(text, blocked, std::regex("SigBlk:\\s*([0-9a-f]+)"))) << text;
  ASSERT_TRUE(std::regex_search(text, ignored, std::regex("SigIgn:\\s*([0-9a-f]+)"))) << text;
  const uint64_t blocked_mask = std::stoull(blocked[1], nullptr, 16);
  const uint64_t ignored_mask = std::stoull(ignored[1], nullptr, 16);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    EXPECT_EQ(blocked_mask >> (signal_number - 1) & 1, 0u) << strsignal(signal_number);
  }
  for (const int signal_number : {SIGPIPE, SIGXFSZ}) {
    EXPECT_EQ(ignored_mask >> (signal_number - 1) & 1, 0u) << strsignal(signal_number);
  }
}

TEST(InterruptionTest, AReaderOfStdoutThatLeavesDoesNotCostTheResultFile) {
  TempDir dir;
  const ProcessResult piped =
      RunProcess({"/bin/sh", "-c", "\"$@\" | head -c 1 >/dev/null", "sh", BENCH_PATH,
                  "--benchmark_filter=Alg", "--benchmark_min_time=0.01",
                  "--benchmark_repetitions=3", "--benchmark_out=" + dir.File("out.json")});
  EXPECT_EQ(piped.exit_code, 0) << piped.stderr_text;
  StatusOr<json::Value> doc = json::Parse(ReadFile(dir.File("out.json")));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  // 2 benchmarks x (3 repetitions + 4 aggregates)
  EXPECT_EQ(doc->Find("benchmarks")->as_array().size(), 14u);
}

}  // namespace
}  // namespace benchprof
