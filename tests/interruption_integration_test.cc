// bench interrupted (session/interruption.h): exit 128 + the signal, one
// line, no temporary file left, the previous output files untouched; a run
// killed with SIGKILL leaves its temporary, which the next run removes; a
// reader of stdout that goes away does not cost --benchmark_out.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "collect/cpu_sampler.h"
#include "common/json_value.h"
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

// Starts bench with `args`, stderr to a file; once its temporary outputs
// exist in `outputs` (however slowly a loaded machine starts it), sends
// `signal_number` after `delay` more, and waits for it.
Interrupted RunAndSignal(std::vector<std::string> args, int signal_number,
                         std::chrono::milliseconds delay, const std::string& outputs) {
  args.insert(args.begin(), BENCH_PATH);
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
  pid_t pid = 0;
  Interrupted result;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) return result;
  posix_spawn_file_actions_destroy(&actions);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!HasTemporaries(outputs) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(delay);
  kill(pid, signal_number);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  result.stderr_text = ReadFile(errors);
  return result;
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

TEST(InterruptionTest, ASignalEndsTheRunAndLeavesThePreviousFiles) {
  TempDir dir;
  const std::vector<std::string> outputs = Outputs(dir);
  std::vector<std::string> quick = {"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.01"};
  quick.insert(quick.end(), outputs.begin(), outputs.end());
  quick.insert(quick.begin(), BENCH_PATH);
  ASSERT_EQ(RunProcess(quick).exit_code, 0);
  const std::string results = ReadFile(dir.File("out.json"));
  const std::string trace = ReadFile(dir.File("trace.json"));
  // 30 s of benchmarks, interrupted in their timed loops.
  std::vector<std::string> slow = {"--benchmark_filter=Alg", "--benchmark_min_time=15"};
  slow.insert(slow.end(), outputs.begin(), outputs.end());
  for (const auto& [signal_number, name] : std::vector<std::pair<int, std::string>>{
           {SIGINT, "SIGINT"}, {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"}}) {
    SCOPED_TRACE(name);
    const Interrupted run =
        RunAndSignal(slow, signal_number, std::chrono::milliseconds(700), dir.path());
    EXPECT_EQ(run.exit_code, 128 + signal_number);
    EXPECT_EQ(run.stderr_text.substr(run.stderr_text.rfind("bench: ")),
              "bench: interrupted by " + name + "; no output file written, previous ones kept\n");
    EXPECT_EQ(Sorted(ListDirectory(dir.path())), OutputFiles());
    EXPECT_EQ(ReadFile(dir.File("out.json")), results);
    EXPECT_EQ(ReadFile(dir.File("trace.json")), trace);
  }
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
    // 2: an output could not be created before the run.
    EXPECT_TRUE(run.exit_code == 4 || run.exit_code == 2) << run.exit_code << run.stderr_text;
    for (const std::string& name : files) EXPECT_FALSE(name.starts_with('.')) << name;
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
