// `benchprof gate` end to end on two builds of one program
// (fixtures/gate_fixture_bench.cc: the head plants an allocation, extra
// arithmetic and extra time), and on binaries that crash, hang or are
// interrupted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support/html_document.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ListDirectory;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

// The line of the fixture's source that holds `marker`.
int LineOf(const std::string& marker) {
  std::ifstream source(GATE_FIXTURE_SOURCE);
  std::string line;
  for (int number = 1; std::getline(source, line); ++number) {
    if (line.find(marker) != std::string::npos) return number;
  }
  return 0;
}

// The report's explanation section.
std::string Why(const std::string& report) {
  const size_t at = report.find("Why (head minus base");
  return at == std::string::npos ? "" : report.substr(at);
}

// The first cause listed under the explanation whose heading starts with
// `heading` ("BM_Labels: allocs/op").
std::string FirstCause(const std::string& why, const std::string& heading) {
  const size_t at = why.find("\n" + heading);
  if (at == std::string::npos) return "";
  const size_t cause = why.find('\n', at + 1);
  if (cause == std::string::npos) return "";
  return why.substr(cause + 1, why.find('\n', cause + 1) - cause - 1);
}

ProcessResult Gate(const std::vector<std::string>& flags, const TempDir& dir) {
  std::vector<std::string> argv = {BENCHPROF_PATH, "gate"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  return RunProcess(argv, {"TMPDIR=" + dir.path()});
}

// Nothing of the gate's is left in `dir` but `expected`.
void ExpectOnly(const TempDir& dir, std::vector<std::string> expected) {
  std::vector<std::string> left = ListDirectory(dir.path());
  std::sort(left.begin(), left.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(left, expected);
}

TEST(GateIntegrationTest, TimeModeExplainsTheAllocationAndTheTime) {
  if (!ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "this build has no allocation counters";
  TempDir dir;
  const ProcessResult gate =
      Gate({"--base=" GATE_FIXTURE_BASE, "--head=" GATE_FIXTURE_HEAD, "--rounds=5",
            "--max-profile-time=2s", "--html=" + dir.File("gate.html"), "--", "--benchmem",
            "--benchmark_filter=Labels|Spin|Steady", "--benchmark_min_time=0.02"},
           dir);
  EXPECT_EQ(gate.exit_code, 1) << gate.stdout_text << gate.stderr_text;
  const std::string why = Why(gate.stdout_text);
  ASSERT_FALSE(why.empty()) << gate.stdout_text;
  // The first cause of the new allocation is the line that makes it.
  const std::string allocation = FirstCause(why, "BM_Labels: allocs/op");
  EXPECT_NE(allocation.find("gate_fixture::MakeLabel"), std::string::npos) << why;
  EXPECT_NE(allocation.find("gate_fixture_bench.cc:" + std::to_string(LineOf("planted allocation"))),
            std::string::npos)
      << why;
  EXPECT_NE(allocation.find("100.0%"), std::string::npos) << why;
  // The time regression of BM_Spin is Spin's, never SteadyPart's, which did
  // not change.
  const std::string time = FirstCause(why, "BM_Spin: time");
  EXPECT_NE(time.find("gate_fixture::Spin"), std::string::npos) << why;
  const size_t spin = why.find("\nBM_Spin: time");
  ASSERT_NE(spin, std::string::npos) << why;
  const std::string spin_section = why.substr(spin, why.find("\nBM_", spin + 1) - spin);
  EXPECT_EQ(spin_section.find("SteadyPart"), std::string::npos) << why;
  EXPECT_EQ(why.find("BM_Steady"), std::string::npos) << why;
  // The gate says what it added to the runs' own time (issue target: at
  // most 5%); printed, not asserted: timings are not tested here.
  const std::smatch own = [&] {
    std::smatch m;
    static const std::regex kOwn(R"(the gate's own work ([0-9.]+) s \(([0-9.]+)%\))");
    std::regex_search(gate.stderr_text, m, kOwn);
    return m;
  }();
  ASSERT_FALSE(own.empty()) << gate.stderr_text;
  std::printf("the gate's own work: %s s, %s%% of its time\n", own[1].str().c_str(),
              own[2].str().c_str());
  // Progress went to the error stream as it happened.
  EXPECT_NE(gate.stderr_text.find("round 5 of 5: base, head"), std::string::npos);
  EXPECT_NE(gate.stderr_text.find("profiling BM_Labels (heap): head"), std::string::npos);
  // The page has the differential flame graphs.
  const std::string html = ReadFile(dir.File("gate.html"));
  EXPECT_EQ(testing::CheckHtml(html), "");
  // Each regression's section says why, above its graphs.
  const size_t pre = html.find("<pre>BM_Labels: allocs/op");
  ASSERT_NE(pre, std::string::npos) << html.substr(0, 2000);
  EXPECT_NE(html.find("gate_fixture_bench.cc:" + std::to_string(LineOf("planted allocation")), pre),
            std::string::npos);
  EXPECT_NE(html.find("<pre>BM_Spin: time"), std::string::npos);
  ExpectOnly(dir, {"gate.html"});
}

TEST(GateIntegrationTest, InstructionsModeNamesTheFunctionThatGrew) {
  if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer builds do not run under Valgrind";
  if (RunProcess({"/bin/sh", "-c", "command -v valgrind"}).exit_code != 0) {
    GTEST_SKIP() << "valgrind is not installed (ci/setup-debian installs it)";
  }
  TempDir dir;
  const ProcessResult gate =
      Gate({"--instructions", "--base=" GATE_FIXTURE_BASE, "--head=" GATE_FIXTURE_HEAD,
            "--format=markdown", "--", "--benchmark_filter=Labels|Checksum|Steady",
            "--benchmark_min_time=0.01"},
           dir);
  EXPECT_EQ(gate.exit_code, 1) << gate.stdout_text << gate.stderr_text;
  const std::string& md = gate.stdout_text;
  const size_t checksum = md.find("`BM_Checksum`: instructions/op");
  ASSERT_NE(checksum, std::string::npos) << md;
  const size_t first_row = md.find("\n| +", checksum);
  ASSERT_NE(first_row, std::string::npos) << md;
  EXPECT_NE(md.substr(first_row, md.find('\n', first_row + 1) - first_row).find("Checksum"),
            std::string::npos)
      << md;
  const size_t labels = md.find("`BM_Labels`: allocs/op");
  ASSERT_NE(labels, std::string::npos) << md;
  const size_t labels_row = md.find("\n| +", labels);
  ASSERT_NE(labels_row, std::string::npos) << md;
  const std::string labels_cause = md.substr(labels_row, md.find('\n', labels_row + 1) - labels_row);
  EXPECT_NE(labels_cause.find("MakeLabel"), std::string::npos) << md;
  EXPECT_NE(labels_cause.find("bench.cc:" + std::to_string(LineOf("planted allocation"))),
            std::string::npos)
      << md;
  ExpectOnly(dir, {});
}

TEST(GateIntegrationTest, ASideThatCrashesIsOneLineNamingIt) {
  TempDir dir;
  const ProcessResult gate = Gate({"--base=" GATE_FIXTURE_BASE, "--head=" INTERRUPT_FIXTURE_BENCH_PATH,
                                   "--rounds=2", "--", "--benchmark_filter=Quick|Crash|Steady"},
                                  dir);
  EXPECT_EQ(gate.exit_code, 3) << gate.stderr_text;
  const std::string last = gate.stderr_text.substr(gate.stderr_text.rfind("benchprof gate: "));
  EXPECT_NE(last.find("head ("), std::string::npos) << last;
  EXPECT_NE(last.find("round-1: killed by SIGSEGV"), std::string::npos) << last;
  EXPECT_NE(last.find("BM_Quick"), std::string::npos) << last;  // bench's report names it
  EXPECT_EQ(std::count(last.begin(), last.end(), '\n'), 1) << last;
  ExpectOnly(dir, {});
}

TEST(GateIntegrationTest, ASideThatHangsIsStoppedByTheTimeout) {
  TempDir dir;
  const ProcessResult gate = Gate({"--base=" GATE_FIXTURE_BASE, "--head=" INTERRUPT_FIXTURE_BENCH_PATH,
                                   "--rounds=1", "--timeout=3s", "--", "--benchmark_filter=Endless|Steady",
                                   "--benchmark_min_time=0.01"},
                                  dir);
  EXPECT_EQ(gate.exit_code, 3) << gate.stderr_text;
  const std::string last = gate.stderr_text.substr(gate.stderr_text.rfind("benchprof gate: "));
  EXPECT_NE(last.find("head ("), std::string::npos) << last;
  EXPECT_NE(last.find("exit code 5"), std::string::npos) << last;
  EXPECT_NE(last.find("timed out"), std::string::npos) << last;
  ExpectOnly(dir, {});
}

TEST(GateIntegrationTest, BenchmarksOnOneSideAreListedAsMissing) {
  TempDir dir;
  const ProcessResult gate = Gate({"--base=" GATE_FIXTURE_BASE, "--head=" INTERRUPT_FIXTURE_BENCH_PATH,
                                   "--rounds=4", "--", "--benchmark_filter=Quick|Steady",
                                   "--benchmark_min_time=0.01"},
                                  dir);
  EXPECT_EQ(gate.exit_code, 2) << gate.stdout_text << gate.stderr_text;
  EXPECT_NE(gate.stdout_text.find("BM_Steady"), std::string::npos) << gate.stdout_text;
  EXPECT_NE(gate.stdout_text.find("BM_Quick"), std::string::npos) << gate.stdout_text;
  ExpectOnly(dir, {});
}

TEST(GateIntegrationTest, InterruptionStopsTheChildrenAndRemovesEverything) {
  for (const std::string signal : {"INT", "QUIT"}) {
    TempDir dir;
    // timeout(1) signals the gate alone after 2 s, mid-run; no core dump.
    const std::string command =
        "ulimit -c 0; exec /usr/bin/timeout --preserve-status -s " + signal + " 2 \"$@\"";
    const ProcessResult gate = RunProcess(
        {"/bin/sh", "-c", command, "sh", BENCHPROF_PATH, "gate", "--base=" GATE_FIXTURE_BASE,
         "--head=" GATE_FIXTURE_HEAD, "--rounds=100", "--", "--benchmark_filter=Steady",
         "--benchmark_min_time=0.5"},
        {"TMPDIR=" + dir.path()});
    // SIGQUIT: the tool dies of it, as without a handler (131).
    EXPECT_EQ(gate.exit_code, signal == "INT" ? 130 : 131) << signal << "\n" << gate.stderr_text;
    EXPECT_NE(gate.stderr_text.find("interrupted by SIG" + signal + "; temporary files removed"),
              std::string::npos)
        << gate.stderr_text;
    ExpectOnly(dir, {});
    const ProcessResult left =
        RunProcess({"/usr/bin/pgrep", "-f", GATE_FIXTURE_BASE "|" GATE_FIXTURE_HEAD});
    EXPECT_NE(left.exit_code, 0) << "still running: " << left.stdout_text;
  }
}

TEST(GateIntegrationTest, BadInputIsOneLineBeforeAnythingRuns) {
  TempDir dir;
  for (const auto& [flags, expected] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--head=" GATE_FIXTURE_HEAD}, "--base is required"},
           {{"--base=/nonexistent", "--head=" GATE_FIXTURE_HEAD}, "--base=/nonexistent: No such file"},
           {{"--base=" GATE_FIXTURE_SOURCE, "--head=" GATE_FIXTURE_HEAD}, "not an executable file"},
           {{"--base=" GATE_FIXTURE_BASE, "--head=" GATE_FIXTURE_HEAD, "--", "--benchmark_out=x"},
            "--benchmark_out=x: the gate sets this flag itself"},
           {{"--base=" GATE_FIXTURE_BASE, "--head=" GATE_FIXTURE_HEAD, "--explain=gpu"},
            "--explain=gpu: expected none"},
           {{"--base=" GATE_FIXTURE_BASE, "--head=" GATE_FIXTURE_HEAD, "-o", "/nonexistent/r.txt"},
            "-o: "},
       }) {
    const ProcessResult gate = Gate(flags, dir);
    EXPECT_EQ(gate.exit_code, 3) << expected;
    EXPECT_NE(gate.stderr_text.find(expected), std::string::npos) << gate.stderr_text;
    EXPECT_EQ(std::count(gate.stderr_text.begin(), gate.stderr_text.end(), '\n'), 1)
        << gate.stderr_text;
    EXPECT_EQ(gate.stderr_text.find("round"), std::string::npos) << gate.stderr_text;
  }
  ExpectOnly(dir, {});
}

}  // namespace
}  // namespace benchprof
