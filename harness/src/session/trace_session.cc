#include "session/trace_session.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collect/alloc_counter.h"
#include "collect/timed_scope.h"
#include "tracer/chrome_json_writer.h"
#include "tracer/trace_recorder.h"

namespace benchprof::session {

using aggregate::RunLabel;

namespace {

// One call of a benchmark function, as thread 0 saw it.
struct Segment {
  uint32_t number;
  uint64_t begin_ticks;
  uint64_t end_ticks;  // 0 until the call's loop finished
  uint64_t iterations;
};

// Segments not yet reported, oldest first. Thread 0 (the main thread) adds
// them, the reporter (main thread too) takes them: no synchronization.
std::vector<Segment> g_pending;

// Which worker name this thread has in the trace (-1: none yet).
thread_local int t_worker_index = -1;

constexpr char kUnreportedRun[] = "(run not reported)";

}  // namespace

TraceSession::~TraceSession() {
  if (recording_) (void)tracer::StopRecording();
}

Status TraceSession::Start() {
  tracer::RecorderOptions options;
  options.process_name = program_name_;
  options.sample_cpu = cpu_rate_ > 0;
  if (cpu_rate_ > 0) options.sample_period = std::chrono::microseconds(1'000'000 / cpu_rate_);
  if (collect::kAllocHooksEnabled) {
    options.process_counters = [] {
      const collect::AllocTotals totals = collect::TotalAllocations();
      return tracer::ProcessCounters{totals.bytes, totals.allocs};
    };
  }
  // A runner that is paused is never in the timed scope: the recorder's own
  // threads then never count in allocs/op nor appear in a CPU profile.
  options.on_internal_thread_start = [] { collect::BecomeRunner(); };
  g_pending.clear();
  g_pending.reserve(1024);
  if (Status started = tracer::StartRecording(
          std::make_unique<tracer::ChromeJsonWriter>(file_.temp_path()), options);
      !started.ok()) {
    return started.WithContext("--trace");
  }
  recording_ = true;
  tracer::NameCurrentThread("main");
  return Status();
}

void TraceSession::NoteReportedRun(uint32_t segment, const RunLabel& label) {
  if (!recording_) return;
  // The run's probe calls precede its final call: everything pending up to
  // `segment` belongs to it.
  size_t last = 0;
  while (last < g_pending.size() && g_pending[last].number < segment) ++last;
  if (last == g_pending.size() || g_pending[last].number != segment) return;
  const Segment& final_call = g_pending[last];
  run_names_.push_back(label.benchmark);
  tracer::RecordRun(g_pending.front().begin_ticks,
                   final_call.end_ticks != 0 ? final_call.end_ticks : tracer::ReadTicks(),
                   run_names_.back().c_str(), final_call.iterations, last + 1,
                   static_cast<uint32_t>(label.threads));
  g_pending.erase(g_pending.begin(), g_pending.begin() + static_cast<ptrdiff_t>(last + 1));
}

Status TraceSession::Finish() {
  if (!recording_) return Status::Error("--trace: the trace was not started");
  for (const Segment& call : g_pending) {
    tracer::RecordRun(call.begin_ticks, call.end_ticks != 0 ? call.end_ticks : tracer::ReadTicks(),
                     kUnreportedRun, call.iterations, 1, 0);
  }
  g_pending.clear();
  recording_ = false;
  StatusOr<tracer::RecorderStats> stats = tracer::StopRecording();
  run_names_.clear();
  if (!stats.ok()) return stats.status().WithContext("--trace=" + file_.path());
  if (Status committed = file_.Commit(); !committed.ok()) {
    return committed.WithContext("--trace");
  }
  if (stats->dropped_events == 0) {
    std::fprintf(stderr, "trace: %s (%llu events)\n", file_.path().c_str(),
                 static_cast<unsigned long long>(stats->events_written));
  } else {
    std::fprintf(stderr,
                 "trace: %s (%llu events; %llu events dropped because the writer could not keep "
                 "up, see otherData.dropped_events)\n",
                 file_.path().c_str(), static_cast<unsigned long long>(stats->events_written),
                 static_cast<unsigned long long>(stats->dropped_events));
  }
  return Status();
}

void TraceLoopStarting(int thread_index, uint32_t segment) {
  if (!tracer::IsRecording()) return;
  if (thread_index == 0) {
    g_pending.push_back({segment, tracer::ReadTicks(), 0, 0});
  } else if (t_worker_index != thread_index) {
    t_worker_index = thread_index;
    char name[32] = "benchmark worker ";
    const std::to_chars_result end = std::to_chars(name + 17, name + sizeof name, thread_index);
    tracer::NameCurrentThread(std::string_view(name, static_cast<size_t>(end.ptr - name)));
  }
}

void TraceLoopStarted() {
  if (tracer::IsRecording()) tracer::RecordMarker(tracer::RecordKind::kLoopBegin);
}

void TraceLoopFinishing() {
  if (tracer::IsRecording()) tracer::RecordMarker(tracer::RecordKind::kLoopEnd);
}

void TraceLoopFinished(int thread_index, uint64_t iterations) {
  if (!tracer::IsRecording() || thread_index != 0 || g_pending.empty()) return;
  g_pending.back().end_ticks = tracer::ReadTicks();
  g_pending.back().iterations = iterations;
}

void TracePausing() {
  if (tracer::IsRecording()) tracer::RecordMarker(tracer::RecordKind::kPauseBegin);
}

void TraceResumed() {
  if (tracer::IsRecording()) tracer::RecordMarker(tracer::RecordKind::kPauseEnd);
}

}  // namespace benchprof::session
