// What the recorder hands to a file format: decoded events, in nanoseconds
// since the start of tracing, with names as text. The recorder's buffers and
// clock are not visible here, so a formatter is a pure function of the
// event stream: Chrome trace-event JSON today (chrome_json_writer.h), a
// Perfetto protobuf writer could implement the same interface.
//
// Guarantees of the stream (the decoder's job, record_decoder.h):
//   * Begin() first, End() last, Add() between, all on one thread.
//   * Per recording thread (`tid`), events of the span and instant types
//     arrive in time order, and span ends always close the innermost open
//     span of that thread (spans left open are closed before End()).
//   * kRun, kCpuUsage and kProcessCpu events may arrive after later events
//     of the same thread: they are reported once their interval is complete.
//
// Thread-safety: a formatter is used from one thread at a time.
#ifndef BENCHPROF_TRACER_TRACE_FORMATTER_H_
#define BENCHPROF_TRACER_TRACE_FORMATTER_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace benchprof::tracer {

enum class EventType : uint8_t {
  kThreadStart,
  kThreadExit,
  kRegionBegin,  // name, task_id (0: none)
  kRegionEnd,    // name, task_id
  kTaskBegin,    // name (task type), task_id, parent_id (0: none)
  kTaskEnd,      // name, task_id
  kLog,          // name (category), message, task_id
  kLoopBegin,    // a benchmark's timed loop
  kLoopEnd,
  kPauseBegin,  // PauseTiming() .. ResumeTiming()
  kPauseEnd,
  kRun,          // a benchmark run: name, dur_ns, iterations, threads, calls
  kCpuUsage,     // name (counter name), subject_tid, busy over [ts, next event of the name)
  kAllocations,  // bytes, objects: running totals
  kProcessCpu,   // busy: CPUs in use, 0..cpus, over [ts, next such event)
  kBlocked,      // the thread waited: name (what for), dur_ns
};

struct TraceEvent {
  EventType type = EventType::kThreadStart;
  pid_t tid = 0;       // the recording thread
  int64_t ts_ns = 0;   // since the start of tracing
  int64_t dur_ns = 0;  // kRun, kBlocked
  std::string_view name;
  std::string_view message;
  uint64_t task_id = 0;
  uint64_t parent_id = 0;
  pid_t subject_tid = 0;  // kCpuUsage: the thread measured
  double busy = 0;
  uint64_t iterations = 0;
  uint64_t calls = 0;
  uint64_t threads = 0;
  uint64_t bytes = 0;
  uint64_t objects = 0;
};

struct TraceInfo {
  pid_t pid = 0;
  std::string process_name;
  std::string clock;  // "tsc" or "monotonic"
  uint32_t cpus = 0;  // CPUs the process may run on (its affinity mask)
};

struct TraceTotals {
  int64_t end_ns = 0;           // the end of tracing
  uint64_t dropped_events = 0;  // lost because no buffer was free
  int64_t clock_drift_ns = 0;   // calibrated TSC minus CLOCK_MONOTONIC at the end
  pid_t writer_tid = 0;         // the thread that wrote the file
  // Empty, or why the trace was cut short ("SIGINT", "--timeout=10m"): the
  // run then ended early and its last benchmark is incomplete.
  std::string interrupted_by;
  // The flight recorder (--trace_window): the window kept (0: the whole
  // run), and the events before it that were left out.
  int64_t window_ns = 0;
  uint64_t discarded_events = 0;
  std::vector<std::pair<pid_t, std::string>> thread_names;  // sorted by tid
};

class TraceFormatter {
 public:
  virtual ~TraceFormatter() = default;

  // Starts the output.
  virtual void Begin(const TraceInfo& info) = 0;

  // One event; strings are valid only during the call.
  virtual void Add(const TraceEvent& event) = 0;

  // Completes the output. Fails, naming the problem, if anything could not
  // be written.
  virtual Status End(const TraceTotals& totals) = 0;

  // Events written so far, in the format's own units (JSON entries).
  virtual uint64_t events_written() const = 0;
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_TRACE_FORMATTER_H_
