// `--trace` in Perfetto's format end to end: the fixture (trace_fixture_bench.cc)
// and the RSS pool workload write .pftrace files, every one decoded by protoc
// against proto/perfetto_trace.proto and passed through the checker
// (tests/support/perfetto_checker.h); `benchprof trace-summary` reads them;
// --trace_format chooses the format whatever the name; the faults the JSON
// writer handles (a full device, a FIFO, a run stopped by --timeout) are
// handled the same way.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "support/perfetto_checker.h"
#include "support/subprocess.h"
#include "tracer/valid_perfetto_file.h"

namespace benchprof {
namespace {

using testing::CheckPerfettoTrace;
using testing::ExpectValidPerfettoFile;
using testing::ListDirectory;
using testing::PerfettoCheck;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

size_t LineCount(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

TEST(PerfettoTraceTest, TheFixtureTraceDecodesFollowsTheRulesAndIsSummarized) {
  TempDir dir;
  const std::string path = dir.File("fixture.pftrace");
  const ProcessResult run = RunProcess({TRACE_FIXTURE_BENCH_PATH, "--trace=" + path});
  ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
  EXPECT_NE((run.stdout_text + run.stderr_text).find("trace: " + path + " ("), std::string::npos)
      << run.stdout_text << run.stderr_text;
  const std::string bytes = ReadFile(path);
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes[0], '\x0A');
  const std::string text = ExpectValidPerfettoFile(path);
  for (const char* expected :
       {"thread_name: \"main\"", "thread_name: \"consumer\"", "name: \"job\"",
        "name: \"Produce\"", "name: \"timed loop\"", "name: \"BM_TaskHandOff/iterations:20\"",
        "name: \"benchmark runs\"", "terminating_flow_ids:", "name: \"CPUs\"",
        "name: \"benchprof: trace totals\""}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected;
  }
  const ProcessResult summary = RunProcess({BENCHPROF_PATH, "trace-summary", path});
  ASSERT_EQ(summary.exit_code, 0) << summary.stderr_text;
  EXPECT_EQ(summary.stderr_text, "");
  for (const char* expected : {"job ", "Produce ", "Encode ", "consumer", "main"}) {
    EXPECT_NE(summary.stdout_text.find(expected), std::string::npos)
        << expected << "\n"
        << summary.stdout_text;
  }
}

TEST(PerfettoTraceTest, TheFormatFollowsTheNameUnlessTraceFormatSaysOtherwise) {
  TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, char>> cases = {
      {{"--trace=" + dir.File("a.perfetto-trace")}, '\x0A'},
      {{"--trace=" + dir.File("b.json"), "--trace_format=perfetto"}, '\x0A'},
      {{"--trace=" + dir.File("c.pftrace"), "--trace_format=json"}, '{'},
      {{"--trace=" + dir.File("d.trace")}, '{'},
  };
  for (const auto& [flags, first_byte] : cases) {
    SCOPED_TRACE(flags[0]);
    std::vector<std::string> argv = {TRACE_FIXTURE_BENCH_PATH, "--benchmark_filter=PausedSetup"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    const ProcessResult run = RunProcess(argv);
    ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
    const std::string path = flags[0].substr(std::string("--trace=").size());
    const std::string bytes = ReadFile(path);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(bytes[0], first_byte);
    if (first_byte == '\x0A') ExpectValidPerfettoFile(path);
  }
}

TEST(PerfettoTraceTest, ABadTraceFormatIsAUsageErrorOfOneLine) {
  TempDir dir;
  const ProcessResult run = RunProcess(
      {TRACE_FIXTURE_BENCH_PATH, "--trace=" + dir.File("t.pftrace"), "--trace_format=proto"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(LineCount(run.stderr_text), 1u) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("--trace_format=proto: expected json or perfetto"),
            std::string::npos)
      << run.stderr_text;
  EXPECT_TRUE(ListDirectory(dir.path()).empty());
}

TEST(PerfettoTraceTest, AFullDeviceIsOneLineAndAFifoIsWrittenThrough) {
  const ProcessResult full =
      RunProcess({TRACE_FIXTURE_BENCH_PATH, "--benchmark_filter=PausedSetup",
                  "--trace_format=perfetto", "--trace=/dev/full"});
  EXPECT_EQ(full.exit_code, 4);
  EXPECT_NE(full.stderr_text.find(
                "--trace=/dev/full: cannot write the trace (No space left on device)\n"),
            std::string::npos)
      << full.stderr_text;

  TempDir dir;
  const std::string fifo = dir.File("fifo.pftrace");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = ReadFile(fifo); });
  const ProcessResult to_fifo =
      RunProcess({TRACE_FIXTURE_BENCH_PATH, "--benchmark_filter=PausedSetup", "--trace=" + fifo});
  // Should the bench not have opened the FIFO, this ends the reader's wait.
  if (const int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) close(fd);
  reader.join();
  EXPECT_EQ(to_fifo.exit_code, 0) << to_fifo.stderr_text;
  ASSERT_FALSE(received.empty());
  EXPECT_EQ(received[0], '\x0A');
  const PerfettoCheck check = CheckPerfettoTrace(received);
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
}

// A run stopped by --timeout: the trace so far, complete and valid, says
// it was interrupted; trace-summary reads it.
TEST(PerfettoTraceTest, ARunStoppedByTimeoutLeavesAValidTraceSayingSo) {
  TempDir dir;
  const std::string path = dir.File("t.pftrace");
  const ProcessResult run =
      RunProcess({INTERRUPT_FIXTURE_BENCH_PATH, "--timeout=2s", "--trace=" + path});
  EXPECT_EQ(run.exit_code, 5) << run.stderr_text;
  const std::string text = ExpectValidPerfettoFile(path);
  EXPECT_NE(text.find("string_value: \"--timeout=2s\""), std::string::npos);
  const ProcessResult summary =
      RunProcess({BENCHPROF_PATH, "trace-summary", "--format=json", path});
  EXPECT_EQ(summary.exit_code, 0) << summary.stderr_text;
  EXPECT_NE(summary.stdout_text.find("\"layout\":\"perfetto\""), std::string::npos);
  EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"t.pftrace"});
}

// A trace cut short (the process killed while writing, a disk that filled
// up) is read up to its last whole packet, with a warning.
TEST(PerfettoTraceTest, ACutTraceIsSummarizedWithAWarning) {
  TempDir dir;
  const std::string path = dir.File("t.pftrace");
  ASSERT_EQ(RunProcess({TRACE_FIXTURE_BENCH_PATH, "--trace=" + path}).exit_code, 0);
  const std::string bytes = ReadFile(path);
  const std::string cut = dir.File("cut.pftrace");
  {
    std::FILE* out = std::fopen(cut.c_str(), "wb");
    ASSERT_NE(out, nullptr);
    std::fwrite(bytes.data(), 1, bytes.size() * 2 / 3, out);
    std::fclose(out);
  }
  const ProcessResult summary = RunProcess({BENCHPROF_PATH, "trace-summary", cut});
  EXPECT_EQ(summary.exit_code, 0) << summary.stderr_text;
  EXPECT_NE(summary.stderr_text.find(": the trace was cut short"), std::string::npos)
      << summary.stderr_text;
  EXPECT_NE(summary.stdout_text.find("truncated:"), std::string::npos);
}

// The RSS pool, the workload, in both formats (two runs of the same
// benchmark; the same run written both ways is in
// tests/tools/trace_summary/perfetto_trace_reader_test.cc): the sizes per
// document, per region pair and per slice pair of any track (tasks, runs and
// waits too), printed; <= 30 bytes per slice pair, of regions and of all
// tracks, and <= 1/5 of the JSON per document, asserted.
TEST(PerfettoTraceTest, TheRssPoolTraceIsAFifthOfTheJson) {
  TempDir dir;
  std::vector<std::string> args = {BENCH_PATH, "--benchmark_filter=Freq/pool_tasks"};
  struct Written {
    double bytes = 0;
    double documents = 0;
  };
  const auto write = [&](const std::string& name) {
    std::vector<std::string> argv = args;
    argv.push_back("--trace=" + dir.File(name));
    const ProcessResult run = RunProcess(argv);
    EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
    const ProcessResult summary =
        RunProcess({BENCHPROF_PATH, "trace-summary", "--format=json", dir.File(name)});
    EXPECT_EQ(summary.exit_code, 0) << summary.stderr_text;
    Written w;
    w.bytes = static_cast<double>(ReadFile(dir.File(name)).size());
    const std::string key = "{\"name\":\"document\",\"count\":";
    const size_t at = summary.stdout_text.find(key);
    EXPECT_NE(at, std::string::npos) << summary.stdout_text.substr(0, 2000);
    if (at != std::string::npos) w.documents = std::stod(summary.stdout_text.substr(at + key.size()));
    return w;
  };
  const Written json = write("pool.json");
  const Written perfetto = write("pool.pftrace");
  ASSERT_GT(json.documents, 0);
  ASSERT_GT(perfetto.documents, 0);
  ExpectValidPerfettoFile(dir.File("pool.pftrace"));
  const PerfettoCheck check = CheckPerfettoTrace(ReadFile(dir.File("pool.pftrace")));
  const double per_pair = static_cast<double>(check.thread_slice_bytes) /
                          static_cast<double>(check.thread_slice_begins);
  const double all_pairs =
      static_cast<double>(check.slice_bytes) / static_cast<double>(check.slice_begins);
  std::printf(
      "RSS pool: JSON %.0f bytes for %.0f documents (%.0f per document); Perfetto %.0f bytes for "
      "%.0f documents (%.0f per document): %.1fx smaller; %.1f bytes per region pair, %.1f per "
      "slice pair of any track\n",
      json.bytes, json.documents, json.bytes / json.documents, perfetto.bytes, perfetto.documents,
      perfetto.bytes / perfetto.documents,
      (json.bytes / json.documents) / (perfetto.bytes / perfetto.documents), per_pair, all_pairs);
  EXPECT_LE(per_pair, 30.0);
  EXPECT_LE(all_pairs, 30.0);
  EXPECT_LE(perfetto.bytes / perfetto.documents, json.bytes / json.documents / 5);
}

}  // namespace
}  // namespace benchprof
