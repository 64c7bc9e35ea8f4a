// The flight recorder (--trace_window) end to end, on a benchmark that works
// and then hangs (flight_recorder_fixture_bench.cc): stopped by --timeout
// or by SIGINT, the trace holds the last window of the run and nothing much
// older, what every thread was doing when it hung, the names of threads
// whose first events are long gone, and says what it left out. Every file
// is decoded by protoc and passes the checker, or (JSON) nests.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "support/subprocess.h"
#include "tracer/trace_json.h"
#include "tracer/valid_perfetto_file.h"

namespace benchprof {
namespace {

using testing::ExpectValidPerfettoFile;
using testing::ListDirectory;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

constexpr char kHungRegion[] = "waiting for a signal that never comes";

// What `benchprof trace-summary --format=json` says of a trace: region
// counts by name, and the window it reports.
struct Summary {
  std::map<std::string, double> regions;
  double window_ns = 0;
  double discarded_events = 0;
  std::string stderr_text;
};

Summary Summarize(const std::string& trace) {
  const ProcessResult run = RunProcess({BENCHPROF_PATH, "trace-summary", "--format=json", trace});
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
  Summary summary;
  summary.stderr_text = run.stderr_text;
  StatusOr<json::Value> doc = json::Parse(run.stdout_text);
  EXPECT_TRUE(doc.ok()) << run.stdout_text;
  if (!doc.ok()) return summary;
  if (const json::Value* regions = doc->Find("regions"); regions != nullptr) {
    for (const json::Value& region : regions->as_array()) {
      summary.regions[region.Find("name")->as_string()] = region.Find("count")->as_number();
    }
  }
  if (const json::Value* v = doc->Find("window_ns"); v != nullptr && v->is_number()) {
    summary.window_ns = v->as_number();
  }
  if (const json::Value* v = doc->Find("discarded_events"); v != nullptr && v->is_number()) {
    summary.discarded_events = v->as_number();
  }
  return summary;
}

// The trace of a hang: each worker's last moments, and nothing from two
// seconds before the end. Early work ended at 1 s, the hang began at 3 s.
void ExpectTheLastWindowOfAHang(const std::string& path, const std::string& interrupted_by) {
  const std::string text = ExpectValidPerfettoFile(path);
  EXPECT_NE(text.find("string_value: \"" + interrupted_by + "\""), std::string::npos);
  EXPECT_NE(text.find("thread_name: \"flight-worker\""), std::string::npos)
      << "the workers' names were in their first chunks, long dropped";
  const Summary summary = Summarize(path);
  EXPECT_EQ(summary.window_ns, 1e9) << "the totals say which window was kept";
  EXPECT_GT(summary.discarded_events, 0);
  EXPECT_EQ(summary.stderr_text, "") << "spans cut by the window are no warning";
  const ProcessResult text_summary = RunProcess({BENCHPROF_PATH, "trace-summary", path});
  EXPECT_NE(text_summary.stdout_text.find(
                "\nwindow:       the last 1.000s of the run (flight recorder; "),
            std::string::npos)
      << text_summary.stdout_text;
  const std::map<std::string, double>& regions = summary.regions;
  EXPECT_EQ(regions.count("early work"), 0u) << "older than the window";
  EXPECT_GT(regions.count("late work") ? regions.at("late work") : 0, 0);
  EXPECT_EQ(regions.count(kHungRegion) ? regions.at(kHungRegion) : 0, 2)
      << "each worker's open region, closed at the end";
}

TEST(FlightRecorderTest, ARunStoppedByTimeoutWritesTheLastWindowBesideTheStacks) {
  TempDir dir;
  const std::string path = dir.File("hang.pftrace");
  const ProcessResult run =
      RunProcess({FLIGHT_RECORDER_FIXTURE_BENCH_PATH, "--benchmark_filter=signal:0/",
                  "--trace=" + path, "--trace_window=1s", "--timeout=5s"});
  EXPECT_EQ(run.exit_code, 5) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("timed out after 5s (--timeout)"), std::string::npos)
      << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("BM_WorkThenHang"), std::string::npos) << "the stack dump";
  EXPECT_NE(run.stderr_text.find(" of the last 1s; "), std::string::npos) << run.stderr_text;
  ExpectTheLastWindowOfAHang(path, "--timeout=5s");
  EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"hang.pftrace"});
}

// The fixture's benchmark that sends itself SIGINT once it hangs, traced
// into `path` with a window of a second.
void RunUntilItInterruptsItself(const std::string& path) {
  const ProcessResult run = RunProcess({FLIGHT_RECORDER_FIXTURE_BENCH_PATH,
                                        "--benchmark_filter=signal:" + std::to_string(SIGINT) + "/",
                                        "--trace=" + path, "--trace_window=1s"});
  EXPECT_EQ(run.exit_code, 128 + SIGINT) << run.stderr_text;
}

TEST(FlightRecorderTest, SigintWritesTheLastWindow) {
  TempDir dir;
  const std::string path = dir.File("hang.pftrace");
  RunUntilItInterruptsItself(path);
  ExpectTheLastWindowOfAHang(path, "SIGINT");
  // Here the window ends when the workers hang: it holds a second of late
  // work (about 100,000 regions), not only the workers' last chunks (1,023
  // regions each at most).
  EXPECT_GT(Summarize(path).regions["late work"], 2 * 1023);
}

// The JSON writer gets the same window: it nests, says what it kept, and
// leaves the early work out.
TEST(FlightRecorderTest, TheJsonTraceKeepsTheSameWindow) {
  TempDir dir;
  const std::string path = dir.File("hang.json");
  RunUntilItInterruptsItself(path);
  StatusOr<json::Value> doc = json::Parse(ReadFile(path));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const std::vector<json::Value> events = testing::TraceEvents(*doc);
  EXPECT_EQ(testing::NestingProblems(events), "");
  const json::Value* other = doc->Find("otherData");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->Find("window_ns")->as_number(), 1e9);
  EXPECT_GT(other->Find("discarded_events")->as_number(), 0);
  size_t early = 0, hung = 0;
  for (const json::Value& event : events) {
    early += testing::Str(event, "name") == "early work";
    hung += testing::Str(event, "name") == kHungRegion && testing::Str(event, "ph") == "B";
  }
  EXPECT_EQ(early, 0u);
  EXPECT_EQ(hung, 2u);
  std::map<int, std::string> names = testing::ThreadNames(events);
  size_t workers = 0;
  for (const auto& [tid, name] : names) workers += name == "flight-worker";
  EXPECT_EQ(workers, 2u);
}

// Flags that need --trace, or a window, are refused before anything runs.
TEST(FlightRecorderTest, WindowFlagsWithoutWhatTheyNeedAreUsageErrors) {
  TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--trace_window=10s"}, "--trace_window needs --trace"},
      {{"--trace=" + dir.File("t.pftrace"), "--trace_window_bytes=8MiB"},
       "--trace_window_bytes needs --trace_window"},
      {{"--trace=" + dir.File("t.pftrace"), "--trace_window=0"},
       "--trace_window=0: expected a duration"},
      {{"--trace=" + dir.File("t.pftrace"), "--trace_window=10s", "--trace_window_bytes=1MiB"},
       "--trace_window_bytes=1MiB: expected a size from 4MiB to 64GiB"},
      {{"--trace_format=json"}, "--trace_format needs --trace"},
  };
  for (const auto& [flags, error] : cases) {
    std::vector<std::string> argv = {FLIGHT_RECORDER_FIXTURE_BENCH_PATH};
    argv.insert(argv.end(), flags.begin(), flags.end());
    const ProcessResult run = RunProcess(argv);
    EXPECT_EQ(run.exit_code, 2) << flags[0];
    EXPECT_NE(run.stderr_text.find(error), std::string::npos) << run.stderr_text;
    EXPECT_EQ(std::count(run.stderr_text.begin(), run.stderr_text.end(), '\n'), 1);
  }
  EXPECT_TRUE(ListDirectory(dir.path()).empty());
}

}  // namespace
}  // namespace benchprof
