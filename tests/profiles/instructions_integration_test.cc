// bench --instructions end to end: benchmarks whose instructions per
// iteration are known by construction (tests/fixtures/
// instructions_fixture_bench.cc) run under Valgrind's callgrind, started by
// bench itself, and must report those figures; paused work is excluded,
// a helper thread's work included, allocation counts unchanged, and the
// figures repeat exactly. Interrupted or killed, bench leaves nothing
// running and nothing behind.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/json_value.h"
#include "support/subprocess.h"

extern char** environ;

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::RunProcess;
using testing::TempDir;

// The path of program `name` on PATH; empty if there is none.
std::string Which(const std::string& name) {
  ProcessResult r = RunProcess({"/bin/sh", "-c", "command -v " + name});
  if (r.exit_code != 0) return "";
  while (!r.stdout_text.empty() && r.stdout_text.back() == '\n') r.stdout_text.pop_back();
  return r.stdout_text;
}

bool HaveValgrind() { return !Which("valgrind").empty() && !Which("callgrind_annotate").empty(); }

class InstructionsIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer builds do not run under Valgrind";
    if (!HaveValgrind()) GTEST_SKIP() << "valgrind is not installed (ci/setup-debian installs it)";
  }
};

// run_name -> the JSON row of each iteration run.
std::map<std::string, json::Value> RunRows(const std::vector<std::string>& extra_args,
                                           std::string* stderr_text = nullptr) {
  std::vector<std::string> argv = {INSTRUCTIONS_FIXTURE_BENCH_PATH, "--instructions",
                                   "--benchmark_format=json"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  const ProcessResult result = RunProcess(argv);
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  if (stderr_text != nullptr) *stderr_text = result.stderr_text;
  StatusOr<json::Value> parsed = json::Parse(result.stdout_text);
  EXPECT_TRUE(parsed.ok()) << result.stdout_text << result.stderr_text;
  std::map<std::string, json::Value> rows;
  if (!parsed.ok()) return rows;
  for (const json::Value& row : parsed->Find("benchmarks")->as_array()) {
    if (row.Find("run_type")->as_string() != "iteration") continue;
    rows.emplace(row.Find("run_name")->as_string(), row);
  }
  if (parsed.ok()) {
    const json::Value* timings = parsed->Find("context")->Find("benchprof_timings");
    EXPECT_NE(timings, nullptr) << "the JSON context must say the times are not comparable";
  }
  return rows;
}

double Number(const json::Value& row, const char* key) {
  const json::Value* value = row.Find(key);
  EXPECT_NE(value, nullptr) << "missing " << key;
  return value != nullptr && value->is_number() ? value->as_number() : -1;
}

TEST_F(InstructionsIntegrationTest, KnownCountsPausesThreadsAndAllocations) {
  std::string errors;
  const auto rows = RunRows({"--benchmem", "--benchmark_min_time=0.02"}, &errors);
  ASSERT_EQ(rows.size(), 5u) << errors;
  EXPECT_NE(errors.find("not comparable"), std::string::npos) << errors;

  // 2001 by construction, plus the few instructions of the for-loop.
  const double known = Number(rows.at("BM_Known2001"), "instructions/op");
  EXPECT_NEAR(known, 2001, 2001 * 0.005);

  // The 200001 paused instructions would dominate if they counted; what the
  // pause and resume hooks execute while counting is a few dozen.
  const double paused = Number(rows.at("BM_PausedExcluded"), "instructions/op");
  EXPECT_GE(paused, 2001);
  EXPECT_LT(paused, 2001 * 1.1);

  // The helper's 200001, plus creating and joining a thread.
  const double helper = Number(rows.at("BM_HelperThread"), "instructions/op");
  EXPECT_GE(helper, 200001);
  EXPECT_LT(helper, 200001 * 1.2);

  // Both threads' instructions over both threads' iterations.
  EXPECT_NEAR(Number(rows.at("BM_TwoThreads/threads:2"), "instructions/op"), 2001, 2001 * 0.01);

  // Valgrind's callgrind leaves the allocator alone: the harness still
  // counts every allocation.
  const json::Value& allocates = rows.at("BM_Allocates");
  EXPECT_EQ(Number(allocates, "allocs/op"), 1);
  EXPECT_EQ(Number(allocates, "B/op"), 64);
  EXPECT_EQ(Number(rows.at("BM_Known2001"), "allocs/op"), 0);
}

TEST_F(InstructionsIntegrationTest, TwoRunsGiveTheSameFigure) {
  // >= 1000 iterations in the reported run.
  const std::vector<std::string> args = {"--benchmark_filter=BM_Known2001$",
                                         "--benchmark_min_time=0.05"};
  const auto first = RunRows(args);
  const auto second = RunRows(args);
  ASSERT_EQ(first.count("BM_Known2001"), 1u);
  ASSERT_EQ(second.count("BM_Known2001"), 1u);
  EXPECT_GE(Number(first.at("BM_Known2001"), "iterations"), 1000);
  EXPECT_GE(Number(second.at("BM_Known2001"), "iterations"), 1000);
  const double a = Number(first.at("BM_Known2001"), "instructions/op");
  const double b = Number(second.at("BM_Known2001"), "instructions/op");
  EXPECT_NEAR(a, b, a * 0.001);
}

TEST_F(InstructionsIntegrationTest, CallgrindFilesOpenInCallgrindAnnotate) {
  TempDir dir;
  const std::string kept = dir.File("kept");
  RunRows({"--benchmark_filter=BM_Known2001$|BM_TwoThreads", "--benchmark_min_time=0.01",
           "--benchmark_repetitions=2", "--callgrind_out=" + kept});
  const std::vector<std::string> files = testing::ListDirectory(kept);
  std::set<std::string> names(files.begin(), files.end());
  EXPECT_EQ(names,
            (std::set<std::string>{"callgrind.out.BM_Known2001", "callgrind.out.BM_Known2001.2",
                                   "callgrind.out.BM_TwoThreads.threads:2",
                                   "callgrind.out.BM_TwoThreads.threads:2.2"}));
  const ProcessResult annotated =
      RunProcess({Which("callgrind_annotate"), kept + "/callgrind.out.BM_Known2001"});
  ASSERT_EQ(annotated.exit_code, 0) << annotated.stderr_text;
  // The benchmark function, whose inline assembly is the loop, is the top
  // line, with most of the instructions.
  const std::string& text = annotated.stdout_text;
  const size_t table = text.find("file:function");
  ASSERT_NE(table, std::string::npos) << text;
  const size_t first_row = text.find('\n', text.find("\n---", table) + 1) + 1;
  const std::string top = text.substr(first_row, text.find('\n', first_row) - first_row);
  EXPECT_NE(top.find("BM_Known2001"), std::string::npos) << text;
  EXPECT_EQ(text.find("__libc_start_main"), std::string::npos) << text;
}

TEST_F(InstructionsIntegrationTest, RefusedCombinationsAndMissingValgrind) {
  TempDir dir;
  for (const char* other :
       {"--cpuprofile=", "--memprofile=", "--trace=", "--blockprofile=", "--mutexprofile="}) {
    const ProcessResult r = RunProcess(
        {INSTRUCTIONS_FIXTURE_BENCH_PATH, "--instructions", std::string(other) + dir.File("x")});
    EXPECT_EQ(r.exit_code, 2) << other << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("cannot be combined"), std::string::npos) << r.stderr_text;
    EXPECT_TRUE(r.stdout_text.empty()) << r.stdout_text;
  }
  const ProcessResult alone =
      RunProcess({INSTRUCTIONS_FIXTURE_BENCH_PATH, "--callgrind_out=" + dir.File("cg")});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.stderr_text.find("--callgrind_out needs --instructions"), std::string::npos)
      << alone.stderr_text;
  EXPECT_FALSE(testing::FileExists(dir.File("cg")));
  const ProcessResult missing = RunProcess({INSTRUCTIONS_FIXTURE_BENCH_PATH, "--instructions"},
                                           {"BENCHPROF_VALGRIND=no-such-valgrind"});
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_NE(missing.stderr_text.find("apt-get install valgrind"), std::string::npos)
      << missing.stderr_text;
  EXPECT_TRUE(missing.stdout_text.empty()) << missing.stdout_text;
  const ProcessResult broken = RunProcess({INSTRUCTIONS_FIXTURE_BENCH_PATH, "--instructions"},
                                          {"BENCHPROF_VALGRIND=/bin/false"});
  EXPECT_EQ(broken.exit_code, 4);
  EXPECT_NE(broken.stderr_text.find("cannot run callgrind"), std::string::npos)
      << broken.stderr_text;
  EXPECT_TRUE(broken.stdout_text.empty()) << broken.stdout_text;
}

TEST_F(InstructionsIntegrationTest, InterruptionReachesTheRunUnderValgrind) {
  // SIGTERM to bench (the parent) ends the run under Valgrind too, at any
  // point: exit 143, one line, nothing left behind but, once benchmarks
  // run, the results file of an interrupted run, marked as such.
  TempDir dir;
  const std::string out = dir.File("out.json");
  const ProcessResult r =
      RunProcess({"/bin/sh", "-c",
                  std::string(INSTRUCTIONS_FIXTURE_BENCH_PATH) +
                      " --instructions --benchmark_filter=BM_Known2001$ --benchmark_min_time=60 "
                      "--benchmark_out=" +
                      out + " & pid=$!; sleep 3; kill -TERM $pid; wait $pid; echo exit=$?"},
                 {"TMPDIR=" + dir.path()});
  EXPECT_NE(r.stdout_text.find("exit=143"), std::string::npos) << r.stdout_text << r.stderr_text;
  const bool during_start_up =
      r.stderr_text.find("interrupted by SIGTERM; no output file written") != std::string::npos;
  const bool during_benchmarks =
      r.stderr_text.find("interrupted by SIGTERM; wrote the 0 completed runs") != std::string::npos;
  EXPECT_TRUE(during_start_up || during_benchmarks) << r.stderr_text;
  if (during_benchmarks) {
    EXPECT_EQ(testing::ListDirectory(dir.path()), std::vector<std::string>{"out.json"})
        << "left behind in " << dir.path();
    EXPECT_NE(testing::ReadFile(out).find("\"benchprof_interrupted\": \"SIGTERM\""),
              std::string::npos);
  } else {
    EXPECT_EQ(testing::ListDirectory(dir.path()), std::vector<std::string>{})
        << "left behind in " << dir.path();
  }
}

// A signal while bench checks that Valgrind works (a slow `valgrind --help`
// here) is passed on to the check and ends the run: one line, exit 143,
// nothing left in $TMPDIR. Before, it killed bench without a word.
TEST_F(InstructionsIntegrationTest, InterruptionWhileCheckingValgrindIsReported) {
  TempDir dir;
  const std::string slow = dir.File("slow-valgrind");
  const std::string probing = dir.File("probing");
  std::ofstream(slow) << "#!/bin/sh\n"
                      << "case \"$*\" in *--help*) : > \"" << probing << "\"; sleep 2;; esac\n"
                      << "exec valgrind \"$@\"\n";
  ASSERT_EQ(chmod(slow.c_str(), 0755), 0);
  const std::string tmp = dir.File("tmp");
  ASSERT_EQ(mkdir(tmp.c_str(), 0700), 0);
  const std::string script = std::string(INSTRUCTIONS_FIXTURE_BENCH_PATH) +
                             " --instructions --benchmark_filter=BM_Known2001$ & pid=$!; " +
                             "while [ ! -e " + probing + " ]; do sleep 0.05; done; " +
                             "kill -TERM $pid; wait $pid; echo exit=$?";
  const ProcessResult r =
      RunProcess({"/bin/sh", "-c", script}, {"TMPDIR=" + tmp, "BENCHPROF_VALGRIND=" + slow});
  EXPECT_NE(r.stdout_text.find("exit=143"), std::string::npos) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("interrupted by SIGTERM; no output file written"), std::string::npos)
      << r.stderr_text;
  EXPECT_EQ(testing::ListDirectory(tmp), std::vector<std::string>{}) << "left behind in " << tmp;
}

TEST_F(InstructionsIntegrationTest, AlreadyUnderValgrindIsNotStartedAgain) {
  // A user's own valgrind: bench does not start another one inside it, and
  // says why it cannot count (the dumps' place is Valgrind's command line).
  const ProcessResult r = RunProcess(
      {Which("valgrind"), "-q", "--tool=callgrind", "--callgrind-out-file=/dev/null",
       INSTRUCTIONS_FIXTURE_BENCH_PATH, "--instructions", "--benchmark_filter=BM_Known2001$"});
  EXPECT_EQ(r.exit_code, 4) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("not started by bench --instructions"), std::string::npos)
      << r.stderr_text;
}

// The processes whose parent is `parent` and that have not ended (a zombie
// has ended: this container's init may not reap orphans).
std::vector<pid_t> LiveChildren(pid_t parent) {
  std::vector<pid_t> children;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return children;
  while (const dirent* entry = readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(entry->d_name));
    if (pid <= 0) continue;
    const std::string stat = testing::ReadFile("/proc/" + std::to_string(pid) + "/stat");
    const size_t end = stat.rfind(')');
    if (end == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(stat.c_str() + end + 1, " %c %d", &state, &ppid) != 2) continue;
    if (ppid == parent && state != 'Z' && state != 'X') children.push_back(pid);
  }
  closedir(proc);
  return children;
}

// Whether `pid` has ended (gone, or a zombie).
bool Ended(pid_t pid) {
  const std::string stat = testing::ReadFile("/proc/" + std::to_string(pid) + "/stat");
  const size_t end = stat.rfind(')');
  return end == std::string::npos || stat.compare(end + 1, 3, " Z ") == 0 ||
         stat.compare(end + 1, 3, " X ") == 0;
}

// The path of callgrind's directory's "started" marker in `tmp`, once the
// run under Valgrind has begun; else "".
std::string StartedMarker(const std::string& tmp) {
  for (const std::string& name : testing::ListDirectory(tmp)) {
    if (!name.starts_with("benchprof-callgrind-")) continue;
    const std::string marker = tmp + "/" + name + "/started";
    if (testing::FileExists(marker)) return marker;
  }
  return "";
}

// bench --instructions killed with SIGKILL once its run under Valgrind has
// begun: Valgrind dies with it (its parent-death signal), so no result file
// ever appears, and callgrind's directory is removed (by the guardian
// process) within moments. Before, Valgrind ran on for the rest of the run,
// wrote out.json some 20 s later, and the directory stayed in $TMPDIR. The
// killed run under Valgrind leaves its temporary output beside out.json, as
// every run killed with SIGKILL does (the next run removes it).
TEST_F(InstructionsIntegrationTest, KillingBenchEndsValgrindAndLeavesNoDirectory) {
  TempDir dir;
  const std::string tmp = dir.File("tmp");
  const std::string outputs = dir.File("outputs");
  ASSERT_EQ(mkdir(tmp.c_str(), 0700), 0);
  ASSERT_EQ(mkdir(outputs.c_str(), 0700), 0);
  std::vector<std::string> args = {INSTRUCTIONS_FIXTURE_BENCH_PATH, "--instructions",
                                   "--benchmark_filter=BM_Known2001$", "--benchmark_min_time=20",
                                   "--benchmark_out=" + outputs + "/out.json"};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings = {"TMPDIR=" + tmp};
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).starts_with("TMPDIR=")) continue;
    env_strings.emplace_back(*e);
  }
  std::vector<char*> env;
  for (std::string& e : env_strings) env.push_back(e.data());
  env.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t bench = 0;
  ASSERT_EQ(posix_spawn(&bench, argv[0], &actions, nullptr, argv.data(), env.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (StartedMarker(tmp).empty() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const bool started = !StartedMarker(tmp).empty();
  // Past Valgrind's start-up, into the benchmark.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const std::vector<pid_t> children = LiveChildren(bench);
  kill(bench, SIGKILL);
  int status = 0;
  waitpid(bench, &status, 0);
  ASSERT_TRUE(started) << "the run under Valgrind did not start within 60 s";
  EXPECT_FALSE(children.empty());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::vector<pid_t> running;
  do {
    running.clear();
    for (const pid_t child : children) {
      if (!Ended(child)) running.push_back(child);
    }
    if (running.empty() && testing::ListDirectory(tmp).empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < deadline);
  for (const pid_t child : running) {
    ADD_FAILURE() << "still running 5 s after bench was killed: "
                  << testing::ReadFile("/proc/" + std::to_string(child) + "/cmdline");
    kill(child, SIGKILL);
  }
  EXPECT_EQ(testing::ListDirectory(tmp), std::vector<std::string>{}) << "left behind in " << tmp;
  // Whatever ran under Valgrind has ended: no result file can appear now.
  for (const std::string& name : testing::ListDirectory(outputs)) {
    EXPECT_TRUE(name.starts_with(".out.json.tmp-")) << name;
  }
}

}  // namespace
}  // namespace benchprof
