// The Perfetto writer (encode/perfetto_trace_writer.h) on event streams made
// here: every file is decoded by protoc against proto/perfetto_trace.proto
// and passed through the checker (tests/support/perfetto_checker.h).
#include "encode/perfetto_trace_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/perfetto_checker.h"
#include "support/subprocess.h"

namespace benchprof::encode {
namespace {

using testing::CheckPerfettoTrace;
using testing::PerfettoCheck;
using testing::ProtocDecode;
using testing::ReadFile;
using testing::TempDir;
using tracer::EventType;
using tracer::TraceEvent;
using tracer::TraceInfo;
using tracer::TraceTotals;

constexpr pid_t kMain = 100;
constexpr pid_t kWorker = 101;
constexpr pid_t kSampler = 102;

TraceEvent Event(EventType type, pid_t tid, int64_t ts, std::string_view name = {},
                 uint64_t task = 0) {
  TraceEvent e;
  e.type = type;
  e.tid = tid;
  e.ts_ns = ts;
  e.name = name;
  e.task_id = task;
  return e;
}

// Every kind of event, as the decoder passes them: a task begun on the main
// thread whose second region runs on the worker.
std::vector<TraceEvent> EveryKind() {
  std::vector<TraceEvent> events;
  events.push_back(Event(EventType::kThreadStart, kWorker, 500));
  events.push_back(Event(EventType::kLoopBegin, kMain, 1000));
  TraceEvent task = Event(EventType::kTaskBegin, kMain, 1100, "document", 7);
  task.parent_id = 3;
  events.push_back(task);
  events.push_back(Event(EventType::kRegionBegin, kMain, 1200, "Unmarshal", 7));
  TraceEvent log = Event(EventType::kLog, kMain, 1250, "document", 7);
  log.message = "feed 12";
  events.push_back(log);
  events.push_back(Event(EventType::kRegionEnd, kMain, 1300, "Unmarshal", 7));
  events.push_back(Event(EventType::kPauseBegin, kMain, 1400));
  events.push_back(Event(EventType::kPauseEnd, kMain, 1500));
  events.push_back(Event(EventType::kRegionBegin, kWorker, 1600, "Search", 7));
  events.push_back(Event(EventType::kRegionEnd, kWorker, 1700, "Search", 7));
  events.push_back(Event(EventType::kTaskEnd, kWorker, 1800, "document", 7));
  events.push_back(Event(EventType::kLoopEnd, kMain, 1900));
  TraceEvent blocked = Event(EventType::kBlocked, kWorker, 1550, "blocked on a mutex");
  blocked.dur_ns = 40;
  events.push_back(blocked);
  TraceEvent run = Event(EventType::kRun, kMain, 900, "BM_Freq/pool");
  run.dur_ns = 1100;
  run.iterations = 19;
  run.calls = 2;
  run.threads = 1;
  events.push_back(run);
  for (int64_t ts : {1000, 1500}) {
    TraceEvent cpu = Event(EventType::kCpuUsage, kSampler, ts, "CPU main [100]");
    cpu.subject_tid = kMain;
    cpu.busy = ts == 1000 ? 0.123456 : 0;
    events.push_back(cpu);
    TraceEvent cpus = Event(EventType::kProcessCpu, kSampler, ts);
    cpus.busy = 1.5;
    events.push_back(cpus);
    TraceEvent alloc = Event(EventType::kAllocations, kSampler, ts);
    alloc.bytes = 4096 + static_cast<uint64_t>(ts);
    alloc.objects = 3;
    events.push_back(alloc);
  }
  events.push_back(Event(EventType::kThreadExit, kWorker, 2000));
  return events;
}

TraceTotals Totals() {
  TraceTotals totals;
  totals.end_ns = 2100;
  totals.dropped_events = 2;
  totals.writer_tid = kSampler;
  totals.thread_names = {{kMain, "main"}, {kWorker, "rss-pool"}};
  return totals;
}

// Writes `events` to `path`; the status End() returned.
Status Write(const std::string& path, const std::vector<TraceEvent>& events,
             const TraceTotals& totals = Totals()) {
  PerfettoTraceWriter writer(path);
  writer.Begin(TraceInfo{kMain, "bench", "tsc", 2});
  for (const TraceEvent& e : events) writer.Add(e);
  return writer.End(totals);
}

TEST(PerfettoTraceWriterTest, EveryKindOfEventDecodesAndFollowsTheRules) {
  TempDir dir;
  const std::string path = dir.File("t.pftrace");
  ASSERT_TRUE(Write(path, EveryKind()).ok());
  std::string error;
  const std::string text = ProtocDecode(PROTOC_PATH, PROTO_DIR, path, &error);
  ASSERT_TRUE(error.empty()) << error;
  for (const char* expected :
       {"process_name: \"bench\"", "thread_name: \"main\"", "thread_name: \"rss-pool\"",
        "name: \"Unmarshal\"", "name: \"thread\"", "name: \"benchmark\"", "name: \"timed loop\"", "name: \"paused\"",
        "name: \"document\"", "string_value: \"feed 12\"", "name: \"BM_Freq/pool\"",
        "name: \"blocked on a mutex\"", "name: \"CPU main [100]\"", "name: \"CPUs\"",
        "name: \"allocated bytes\"", "unit: UNIT_SIZE_BYTES", "name: \"allocated objects\"",
        "double_counter_value: 0.1235", "counter_value: 5096", "name: \"benchmark runs\"",
        "name: \"blocked\"", "name: \"benchprof: dropped events\"", "is_incremental: true",
        "timestamp_clock_id: 64", "first_packet_on_sequence: true", "flow_ids: 1",
        "terminating_flow_ids: 1", "string_value: \"tsc\"", "description: \"task 7\"",
        "uint_value: 3"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  }
  const PerfettoCheck check = CheckPerfettoTrace(ReadFile(path));
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
  // Regions 2, loop, pause, task, run, wait.
  EXPECT_EQ(check.slice_begins, 7u);
  EXPECT_EQ(check.slice_ends, 7u);
  EXPECT_EQ(check.flows, 1u);  // the task's region on the worker to the task's end
  EXPECT_EQ(check.counters, 8u);
  // One sequence per thread timeline (main, worker), per run and wait
  // stream, per counter (CPU main, CPUs, allocations), and the info.
  EXPECT_EQ(check.sequences, 8u);
}

TEST(PerfettoTraceWriterTest, TaskOnOneThreadHasNoFlow) {
  TempDir dir;
  const std::string path = dir.File("t.pftrace");
  ASSERT_TRUE(Write(path, {Event(EventType::kTaskBegin, kMain, 10, "document", 1),
                           Event(EventType::kRegionBegin, kMain, 20, "Search", 1),
                           Event(EventType::kRegionEnd, kMain, 30, "Search", 1),
                           Event(EventType::kTaskEnd, kMain, 40, "document", 1)})
                  .ok());
  const PerfettoCheck check = CheckPerfettoTrace(ReadFile(path));
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
  EXPECT_EQ(check.flows, 0u);
}

// A task's id is said once, on its track's descriptor, not on its slice:
// the task's begin carries its name only (and its parent, when it has one).
TEST(PerfettoTraceWriterTest, TaskIdIsOnItsTrackNotOnItsSlice) {
  TempDir dir;
  const std::string path = dir.File("t.pftrace");
  ASSERT_TRUE(Write(path, {Event(EventType::kTaskBegin, kMain, 10, "document", 1779),
                           Event(EventType::kTaskEnd, kMain, 40, "document", 1779)})
                  .ok());
  std::string error;
  const std::string text = ProtocDecode(PROTOC_PATH, PROTO_DIR, path, &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_NE(text.find("description: \"task 1779\""), std::string::npos) << text;
  EXPECT_EQ(text.find("uint_value: 1779"), std::string::npos) << text;
  // Only the trace info's category: the task's slice has none.
  EXPECT_EQ(text.find("name: \"task\""), std::string::npos) << text;
  const PerfettoCheck check = CheckPerfettoTrace(ReadFile(path));
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
  EXPECT_EQ(check.slice_begins, 1u);
}

TEST(PerfettoTraceWriterTest, TaskEndedBeforeItsBeginArrives) {
  // Another thread's chunk may be decoded first: the end comes first.
  TempDir dir;
  const std::string path = dir.File("t.pftrace");
  ASSERT_TRUE(Write(path, {Event(EventType::kTaskEnd, kWorker, 50, "document", 1),
                           Event(EventType::kTaskBegin, kMain, 10, "document", 1)})
                  .ok());
  const PerfettoCheck check = CheckPerfettoTrace(ReadFile(path));
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
}

// The figure: a region's begin and end cost at most 30 bytes with
// interned names, incremental timestamps and the thread as default track.
TEST(PerfettoTraceWriterTest, RegionPairsTakeAtMostThirtyBytes) {
  std::vector<TraceEvent> events;
  int64_t ts = 1'000'000;
  for (int i = 0; i < 10'000; ++i) {
    // 20 µs regions 5 µs apart, as the RSS pool's ReadAll and Unmarshal.
    events.push_back(Event(EventType::kRegionBegin, kWorker, ts, i % 2 ? "ReadAll" : "Unmarshal"));
    ts += 20'000;
    events.push_back(Event(EventType::kRegionEnd, kWorker, ts, i % 2 ? "ReadAll" : "Unmarshal"));
    ts += 5'000;
  }
  TempDir dir;
  const std::string path = dir.File("t.pftrace");
  ASSERT_TRUE(Write(path, events).ok());
  const PerfettoCheck check = CheckPerfettoTrace(ReadFile(path));
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
  ASSERT_EQ(check.thread_slice_begins, 10'000u);
  const double per_pair =
      static_cast<double>(check.thread_slice_bytes) / static_cast<double>(check.thread_slice_begins);
  std::printf("bytes per region pair: %.1f\n", per_pair);
  EXPECT_LE(per_pair, 30.0);
}

TEST(PerfettoTraceWriterTest, UnwritablePathsFailNamingTheProblem) {
  Status status = Write("/nonexistent/dir/t.pftrace", EveryKind());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "/nonexistent/dir/t.pftrace: No such file or directory");
  if (!testing::FileExists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  status = Write("/dev/full", EveryKind());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot write the trace (No space left on device)");
}

TEST(PerfettoTraceWriterTest, BigTracesAreFlushedAsTheyGo) {
  // Past the 1 MiB buffer: the file is written in pieces and stays valid.
  std::vector<TraceEvent> events;
  for (int i = 0; i < 200'000; ++i) {
    events.push_back(Event(EventType::kRegionBegin, kMain, 10 * i, "Work"));
    events.push_back(Event(EventType::kRegionEnd, kMain, 10 * i + 5, "Work"));
  }
  TempDir dir;
  const std::string path = dir.File("t.pftrace");
  ASSERT_TRUE(Write(path, events).ok());
  const std::string bytes = ReadFile(path);
  EXPECT_GT(bytes.size(), size_t{1} << 20);
  const PerfettoCheck check = CheckPerfettoTrace(bytes);
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
  EXPECT_EQ(check.slice_begins, 200'000u);
}

}  // namespace
}  // namespace benchprof::encode
