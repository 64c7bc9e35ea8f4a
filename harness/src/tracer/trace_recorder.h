// The execution-trace recorder behind `--trace` and <benchprof/trace.h>.
//
// While a trace is recorded, every thread appends fixed-size records to a
// chunk of its own (trace_buffer.h) without locks or allocation
// (event_emitter.h); a full chunk goes to a background writer thread
// (trace_writer.h), which spools it (trace_spool.h) and, once recording
// stops, decodes it (record_decoder.h) and streams it through a
// TraceFormatter (e.g. chrome_json_writer.h) to the file. A sampler thread
// (cpu_usage_sampler.h) adds each thread's CPU use and the process's
// allocation totals. Memory is a fixed pool of chunks: when none is free,
// events are dropped and counted.
//
//   Status started = StartRecording(std::make_unique<ChromeJsonWriter>(path), options);
//   ... benchmarks run; annotations and the session's events are recorded ...
//   StatusOr<RecorderStats> stats = StopRecording();   // the file is complete
//
// The session records the benchmark-level events through the functions
// below; users go through <benchprof/trace.h>.
//
// Thread-safety: StartRecording and StopRecording from one thread, not
// concurrently with each other; every other function is thread-safe and acts
// on the calling thread.
#ifndef BENCHPROF_TRACER_TRACE_RECORDER_H_
#define BENCHPROF_TRACER_TRACE_RECORDER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "tracer/thread_table.h"
#include "tracer/trace_buffer.h"
#include "tracer/trace_clock.h"
#include "tracer/trace_formatter.h"

namespace benchprof::tracer {

// Process-wide counters sampled over time (the allocation totals).
struct ProcessCounters {
  uint64_t bytes = 0;
  uint64_t objects = 0;

  bool operator==(const ProcessCounters&) const = default;
};

struct RecorderOptions {
  ClockSource clock = ClockSource::kAuto;
  // Chunks of 64 KiB (2,046 records each) the threads share. The default,
  // 256 (16 MiB), absorbs bursts of half a million events between two
  // passes of the writer.
  uint32_t chunk_count = 256;
  // Sample every traced thread's CPU use (and the process counters).
  bool sample_cpu = true;
  // 10 ms: every wake-up of the sampler preempts a benchmark thread when all
  // cores are busy; at 1 ms that cost a 2-thread benchmark on 2 cores about
  // 6% of its speed, at 5 ms about 1.5%, at 10 ms under 1%.
  std::chrono::microseconds sample_period{10000};
  // Read by the sampler each period; empty: no process counters.
  std::function<ProcessCounters()> process_counters;
  // Runs first on the recorder's own threads (the session uses it to keep
  // them out of benchmark measurements).
  std::function<void()> on_internal_thread_start;
  // For the trace's process name.
  std::string process_name;
  // > 0: the flight recorder. Only the records of the last window_ns before
  // the stop are written, kept packed in at most window_bytes of memory
  // besides the chunk pool (trace_window.h).
  int64_t window_ns = 0;
  size_t window_bytes = 0;
};

struct RecorderStats {
  uint64_t events_written = 0;  // entries in the output
  uint64_t dropped_events = 0;  // lost because no chunk was free
  uint64_t unmatched_ends = 0;  // span ends whose begin was dropped
  // The flight recorder: events left out as older than the window, the
  // and the time the trace covers (less than the window if the memory
  // bound was reached; the whole run if nothing was left out).
  uint64_t discarded_events = 0;
  int64_t window_kept_ns = 0;
  std::string clock;  // "tsc" or "monotonic"
};

// Starts recording into `formatter` (null: chunks are discarded unread, to
// measure the recording cost alone). Fails if a trace is already being
// recorded, the options are invalid or the chunk pool cannot be mapped; the
// formatter is not used then.
Status StartRecording(std::unique_ptr<TraceFormatter> formatter, const RecorderOptions& options);

// Stops recording, closes what is still open, and completes the output.
// Events recorded concurrently with the stop may be left out. Fails if no
// trace is being recorded or the output could not be written.
// `interrupted_by` non-empty: the trace was cut short (by "SIGINT", ...),
// which its metadata says (TraceTotals::interrupted_by).
StatusOr<RecorderStats> StopRecording(std::string interrupted_by = {});

// True between StartRecording and StopRecording.
bool IsRecording();

// ---- events the session records on the calling thread ----

// An event with no arguments: kThreadStart, kThreadExit, kLoopBegin,
// kLoopEnd, kPauseBegin or kPauseEnd.
void RecordMarker(RecordKind kind) noexcept;

// Names the calling thread in the trace (cut to 47 bytes). Remembered across
// traces while the thread lives.
void NameCurrentThread(std::string_view name) noexcept;

// A benchmark run that began and ended at the given ticks (ReadTicks()).
// `name` must stay valid until StopRecording() returns.
void RecordRun(uint64_t begin_ticks, uint64_t end_ticks, const char* name, uint64_t iterations,
               uint64_t calls, uint32_t threads) noexcept;

// The calling thread waited from `begin_ticks` to `end_ticks` for `what`
// ("a mutex"; static lifetime), a "blocked" slice on its track. The
// contention sampler, its caller, leaves benchprof's own threads out. Lock
// context: no lock, no allocation.
void RecordBlocked(uint64_t begin_ticks, uint64_t end_ticks, const char* what) noexcept;

// ---- for the sampler ----
// Names thread `tid` in the trace; of the names a thread gets, the trace
// keeps the last of the highest rank (a name the harness gave it wins over
// the one it gave itself with pthread_setname_np).
void RecordThreadNameOf(pid_t tid, std::string_view name,
                        NameRank rank = NameRank::kSystem) noexcept;
void RecordCpuUsage(uint64_t start_ticks, pid_t subject_tid, double busy,
                    std::string_view counter_name) noexcept;
void RecordAllocations(uint64_t ticks, const ProcessCounters& totals) noexcept;
// The CPUs the traced threads use together over the interval from
// `start_ticks` to the next such event.
void RecordProcessCpu(uint64_t start_ticks, double cpus_busy) noexcept;

// ---- threads ----

// Called first thing on every thread started while recording (the session
// hooks thread starts, collect/thread_hooks.h): registers it, so its CPU use
// is sampled, and records "thread start".
void OnThreadStart() noexcept;

// Whether a thread being created now should call OnThreadStart() when it
// starts: while recording, except for the recorder's own threads.
bool WantsNewThread() noexcept;

// Threads created while an InternalThreadCreation exists on the creating
// thread are the recorder's own: no thread hooks, no CPU counter.
class InternalThreadCreation {
 public:
  InternalThreadCreation();
  ~InternalThreadCreation();
  InternalThreadCreation(const InternalThreadCreation&) = delete;
  InternalThreadCreation& operator=(const InternalThreadCreation&) = delete;
};

// True while the calling thread is creating one of the recorder's threads.
bool CreatingInternalThread() noexcept;

// For the recorder's own threads: marks the calling thread benchprof's own
// (common/own_thread.h) and, if `records`, registers it (without a CPU
// counter) under `name`.
void BeginInternalThread(std::string_view name, bool records);

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_TRACE_RECORDER_H_
