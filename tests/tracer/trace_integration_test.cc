// `--trace` end to end: a fixture binary linked like a user's
// (trace_fixture_bench.cc) writes a trace, which is parsed and checked
// against docs/trace-format.md.
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "collect/cpu_sampler.h"
#include "common/json_value.h"
#include "support/subprocess.h"
#include "tracer/trace_json.h"

namespace benchprof {
namespace {

using testing::Arg;
using testing::FileExists;
using testing::ListDirectory;
using testing::Num;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::Str;
using testing::TempDir;

size_t LineCount(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

// Runs the whole fixture once for the tests that only read its trace.
class TraceIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const std::string path = dir_->File("fixture.json");
    result_ = new ProcessResult(RunProcess({TRACE_FIXTURE_BENCH_PATH, "--trace=" + path}));
    StatusOr<json::Value> doc = json::Parse(ReadFile(path));
    parse_error_ = new std::string(doc.ok() ? "" : doc.status().message());
    doc_ = new json::Value(doc.ok() ? *doc : json::Value());
    events_ = new std::vector<json::Value>(doc.ok() ? testing::TraceEvents(*doc_)
                                                    : std::vector<json::Value>{});
  }
  static void TearDownTestSuite() {
    delete events_;
    delete doc_;
    delete parse_error_;
    delete result_;
    delete dir_;
  }
  void SetUp() override {
    ASSERT_EQ(result_->exit_code, 0) << result_->stderr_text;
    ASSERT_EQ(*parse_error_, "");
  }

  // Events of phase `ph` and category `cat`.
  static std::vector<const json::Value*> Select(const std::string& ph, const std::string& cat) {
    std::vector<const json::Value*> selected;
    for (const json::Value& event : *events_) {
      if (Str(event, "ph") == ph && Str(event, "cat") == cat) selected.push_back(&event);
    }
    return selected;
  }

  static TempDir* dir_;
  static ProcessResult* result_;
  static std::string* parse_error_;
  static json::Value* doc_;
  static std::vector<json::Value>* events_;
};

TempDir* TraceIntegrationTest::dir_ = nullptr;
ProcessResult* TraceIntegrationTest::result_ = nullptr;
std::string* TraceIntegrationTest::parse_error_ = nullptr;
json::Value* TraceIntegrationTest::doc_ = nullptr;
std::vector<json::Value>* TraceIntegrationTest::events_ = nullptr;

TEST_F(TraceIntegrationTest, TopLevelSaysWhatWasWrittenAndNothingWasDropped) {
  EXPECT_EQ(Str(*doc_, "displayTimeUnit"), "ns");
  const json::Value* other = doc_->Find("otherData");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(Num(*other, "dropped_events"), 0);
  EXPECT_EQ(Num(*other, "events"), static_cast<double>(events_->size()));
  const std::string clock = Str(*other, "clock");
  EXPECT_TRUE(clock == "tsc" || clock == "monotonic") << clock;
  EXPECT_NE(Str(*other, "producer").rfind("benchprof ", 0), std::string::npos);
  // The CPUs the fixture could use: this process's, as it inherits the mask.
  cpu_set_t affinity;
  ASSERT_EQ(sched_getaffinity(0, sizeof affinity, &affinity), 0);
  EXPECT_EQ(Num(*other, "cpus"), CPU_COUNT(&affinity));
  // One line on stderr names the file.
  EXPECT_NE(result_->stderr_text.find("trace: " + dir_->File("fixture.json") + " ("),
            std::string::npos)
      << result_->stderr_text;
  EXPECT_EQ(ListDirectory(dir_->path()), std::vector<std::string>{"fixture.json"});
}

TEST_F(TraceIntegrationTest, SpansNestAndTimeRunsForwardOnEveryThread) {
  EXPECT_EQ(testing::NestingProblems(*events_), "");
}

TEST_F(TraceIntegrationTest, ThreadsAreNamed) {
  const std::map<int, std::string> names = testing::ThreadNames(*events_);
  std::set<std::string> distinct;
  for (const auto& [tid, name] : names) distinct.insert(name);
  for (const char* expected :
       {"main", "busy", "idle", "consumer", "benchmark worker 1", "static-pool"}) {
    EXPECT_EQ(distinct.count(expected), 1u) << expected;
  }
  // Every thread that recorded something has a name.
  for (const json::Value& event : *events_) {
    if (Str(event, "ph") == "B") {
      EXPECT_EQ(names.count(static_cast<int>(Num(event, "tid"))), 1u);
    }
  }
  bool process_named = false;
  for (const json::Value& event : *events_) {
    if (Str(event, "ph") == "M" && Str(event, "name") == "process_name") {
      process_named = Arg(event, "name")->as_string() == "trace_fixture_bench";
    }
  }
  EXPECT_TRUE(process_named);
}

TEST_F(TraceIntegrationTest, BusyThreadIsBusyAndBlockedThreadIsIdle) {
  int busy_tid = 0, idle_tid = 0;
  for (const auto& [tid, name] : testing::ThreadNames(*events_)) {
    if (name == "busy") busy_tid = tid;
    if (name == "idle") idle_tid = tid;
  }
  const std::map<int, double> shares = testing::BusyShares(*events_);
  ASSERT_EQ(shares.count(busy_tid), 1u);
  ASSERT_EQ(shares.count(idle_tid), 1u);
  // The spinning thread's own measurement: on a shared machine it may get
  // well under a core, and the counter must agree with what it got.
  double measured = -1;
  for (const json::Value* log : Select("i", "log")) {
    if (Str(*log, "name") != "measured") continue;
    double cpu = 0, wall = 0;
    std::istringstream(Arg(*log, "message")->as_string()) >> cpu >> wall;
    if (wall > 0) measured = cpu / wall;
  }
  ASSERT_GT(measured, 0.05) << "the spinning thread hardly ran";
  EXPECT_NEAR(shares.at(busy_tid), measured, 0.1);
  if (measured > 0.9) {
    EXPECT_GT(shares.at(busy_tid), 0.8);
  }
  EXPECT_LT(shares.at(idle_tid), 0.05);
  // A thread that existed before the trace and never records an event.
  int pool_tid = 0;
  for (const auto& [tid, name] : testing::ThreadNames(*events_)) {
    if (name == "static-pool") pool_tid = tid;
  }
  ASSERT_EQ(shares.count(pool_tid), 1u);
  EXPECT_LT(shares.at(pool_tid), 0.05);
  // Counter events describe the thread in brackets and carry the sampler's tid.
  for (const json::Value* counter : Select("C", "cpu")) {
    const double busy = Arg(*counter, "busy")->as_number();
    EXPECT_GE(busy, 0);
    EXPECT_LE(busy, 1);
  }
}

TEST_F(TraceIntegrationTest, TasksLinkRegionsAcrossThreads) {
  std::map<std::string, std::string> job_ids;  // id -> type
  for (const json::Value* begin : Select("b", "task")) {
    if (Arg(*begin, "kind")->as_string() == "task")
      job_ids[Str(*begin, "id")] = Str(*begin, "name");
  }
  size_t jobs = 0, cleanups_with_parent = 0;
  for (const auto& [id, type] : job_ids) jobs += type == "job";
  EXPECT_EQ(jobs, 20u);
  for (const json::Value* begin : Select("b", "task")) {
    if (Str(*begin, "name") != "job.cleanup") continue;
    const std::string parent = Arg(*begin, "parent")->as_string();
    if (job_ids.count(parent) != 0 && job_ids[parent] == "job") ++cleanups_with_parent;
  }
  EXPECT_EQ(cleanups_with_parent, 20u);

  // Each job's regions, on the job's track, come from two threads.
  std::map<std::string, std::set<int>> tids_by_id;
  std::map<std::string, std::set<std::string>> regions_by_id;
  for (const json::Value* begin : Select("b", "task")) {
    if (Arg(*begin, "kind")->as_string() != "region") continue;
    tids_by_id[Str(*begin, "id")].insert(static_cast<int>(Num(*begin, "tid")));
    regions_by_id[Str(*begin, "id")].insert(Str(*begin, "name"));
  }
  size_t linked = 0;
  for (const auto& [id, type] : job_ids) {
    if (type != "job") continue;
    EXPECT_EQ(regions_by_id[id], (std::set<std::string>{"Produce", "Encode", "Consume"})) << id;
    linked += tids_by_id[id].size() == 2;
  }
  EXPECT_EQ(linked, 20u);
  // Every b has its e.
  EXPECT_EQ(Select("b", "task").size(), Select("e", "task").size());
  // Thread-track regions carry their task.
  size_t consume_in_task = 0;
  for (const json::Value* begin : Select("B", "region")) {
    if (Str(*begin, "name") == "Consume" && Arg(*begin, "task")->as_number() > 0) {
      ++consume_in_task;
    }
  }
  EXPECT_EQ(consume_in_task, 20u);
}

TEST_F(TraceIntegrationTest, LogsCarryTheirMessage) {
  size_t results = 0, notes = 0;
  for (const json::Value* log : Select("i", "log")) {
    const std::string message = Arg(*log, "message")->as_string();
    if (Str(*log, "name") == "result") {
      EXPECT_EQ(message, "consumed");
      EXPECT_GT(Arg(*log, "task")->as_number(), 0);
      ++results;
    }
    if (Str(*log, "name") == "note") {
      EXPECT_EQ(message, std::string(200, 'x'));  // cut to kMaxLogMessageBytes
      EXPECT_EQ(Arg(*log, "task")->as_number(), 0);
      ++notes;
    }
  }
  EXPECT_EQ(results, 20u);
  EXPECT_EQ(notes, 20u);
}

TEST_F(TraceIntegrationTest, BenchmarkRunsLoopsPausesAndThreadsAreRecorded) {
  std::set<std::string> runs;
  for (const json::Value* run : Select("X", "benchmark")) {
    runs.insert(Str(*run, "name"));
    EXPECT_GT(Num(*run, "dur"), 0);
    EXPECT_GE(Arg(*run, "calls")->as_number(), 1);
  }
  EXPECT_EQ(runs, (std::set<std::string>{
                      "BM_BusyAndIdle/iterations:1/real_time", "BM_TaskHandOff/iterations:20",
                      "BM_PausedSetup/iterations:5", "BM_TwoRunners/iterations:50/threads:2"}));
  for (const json::Value* run : Select("X", "benchmark")) {
    if (Str(*run, "name") == "BM_TaskHandOff/iterations:20") {
      EXPECT_EQ(Arg(*run, "iterations")->as_number(), 20);
    }
  }
  size_t loops = 0, pauses = 0;
  for (const json::Value* begin : Select("B", "benchmark")) {
    loops += Str(*begin, "name") == "timed loop";
    pauses += Str(*begin, "name") == "paused";
  }
  EXPECT_EQ(loops, 1u + 1u + 1u + 2u);  // the two-thread run has a loop per thread
  EXPECT_EQ(pauses, 5u);
  size_t starts = 0, exits = 0;
  for (const json::Value* instant : Select("i", "thread")) {
    starts += Str(*instant, "name") == "thread start";
    exits += Str(*instant, "name") == "thread exit";
  }
  // busy, idle, consumer and the benchmark's second runner, at least.
  EXPECT_GE(starts, 4u);
  EXPECT_EQ(starts, exits);
  EXPECT_FALSE(Select("C", "memory").empty() && ALLOC_HOOKS_ENABLED);
}

TEST(TraceCliTest, WorksWithBenchmemAndCpuprofile) {
  TempDir dir;
  std::vector<std::string> args = {TRACE_FIXTURE_BENCH_PATH, "--benchmark_filter=TaskHandOff",
                                   "--trace=" + dir.File("t.json")};
  // Sanitizer builds lack one or the other.
  if (collect::kCpuSamplerSupported) args.push_back("--cpuprofile=" + dir.File("cpu.pprof"));
  if (ALLOC_HOOKS_ENABLED) args.push_back("--benchmem");
  const ProcessResult result = RunProcess(args);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> doc = json::Parse(ReadFile(dir.File("t.json")));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const std::vector<json::Value> events = testing::TraceEvents(*doc);
  EXPECT_EQ(testing::NestingProblems(events), "");
  EXPECT_EQ(FileExists(dir.File("cpu.pprof")), collect::kCpuSamplerSupported);
  if (ALLOC_HOOKS_ENABLED) {
    // Exactly the fixture's one 301-byte string per iteration: the tracer's
    // own threads allocate, but not into the benchmark's figures.
    EXPECT_NE(result.stdout_text.find("B/op=301 allocs/op=1"), std::string::npos)
        << result.stdout_text;
  }
}

// --tracecpurate sets how often the counters are sampled; 0 turns them off.
TEST(TraceCliTest, TraceCpuRateSetsTheCounters) {
  TempDir dir;
  auto counters = [&](const std::string& rate) {
    const std::string path = dir.File("t" + rate + ".json");
    const ProcessResult result =
        RunProcess({TRACE_FIXTURE_BENCH_PATH, "--benchmark_filter=BusyAndIdle", "--trace=" + path,
                    "--tracecpurate=" + rate});
    EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
    StatusOr<json::Value> doc = json::Parse(ReadFile(path));
    EXPECT_TRUE(doc.ok());
    size_t count = 0;
    if (!doc.ok()) return count;
    for (const json::Value& event : testing::TraceEvents(*doc)) {
      count += Str(event, "ph") == "C";
    }
    return count;
  };
  EXPECT_EQ(counters("0"), 0u);
  EXPECT_GT(counters("1000"), 0u);
}

TEST(TraceCliTest, ListingTestsWritesNoTrace) {
  TempDir dir;
  const ProcessResult result = RunProcess(
      {TRACE_FIXTURE_BENCH_PATH, "--benchmark_list_tests", "--trace=" + dir.File("t.json")});
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_TRUE(ListDirectory(dir.path()).empty());
}

TEST(TraceCliTest, NoMatchingBenchmarkWritesNoTrace) {
  TempDir dir;
  const ProcessResult result = RunProcess(
      {TRACE_FIXTURE_BENCH_PATH, "--benchmark_filter=NoSuch", "--trace=" + dir.File("t.json")});
  EXPECT_EQ(result.exit_code, 3) << result.stderr_text;
  EXPECT_TRUE(ListDirectory(dir.path()).empty());
}

TEST(TraceCliTest, UnwritablePathIsAUsageErrorBeforeAnythingRuns) {
  for (const char* binary : {TRACE_FIXTURE_BENCH_PATH, BENCH_PATH}) {
    const ProcessResult result = RunProcess({binary, "--trace=/nonexistent/x.json"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(LineCount(result.stderr_text), 1u) << result.stderr_text;
    EXPECT_NE(result.stderr_text.find("--trace: /nonexistent/x.json: directory /nonexistent "
                                      "does not exist"),
              std::string::npos)
        << result.stderr_text;
    EXPECT_EQ(result.stdout_text, "");
    EXPECT_FALSE(FileExists("/nonexistent"));
  }
}

}  // namespace
}  // namespace benchprof
