// --trace for one process: starts the execution-trace recorder before the
// first benchmark, records what the benchmark runner does (each run, its
// timed loops, paused intervals, worker threads' names), and at the end
// completes the file and moves it into place.
//
// Runs are named late. Google Benchmark 1.7.1's State does not know the
// benchmark's name; it is known only when the run is reported. So thread 0
// notes, per segment (one call of the benchmark function, see
// cpu_profile.h), when it started and finished; when the reporter hands over
// a reported run's last segment, the run is recorded as one complete event
// from the start of its first segment (probe runs included) to the end of
// its last. Segments never reported appear as "(run not reported)".
//
//   TraceSession trace(std::move(file), "bench");
//   Status started = trace.Start();
//   auditor.SetSegmentListener(... trace.NoteReportedRun(segment, label) ...);
//   RunSpecifiedBenchmarks(...);
//   Status written = trace.Finish();
//
// Thread-safety: TraceSession is thread-compatible (the main thread drives
// it); the Trace* hooks are thread-safe, and those that take a
// `thread_index` act only for thread 0 (always the main thread).
#ifndef BENCHPROF_SESSION_TRACE_SESSION_H_
#define BENCHPROF_SESSION_TRACE_SESSION_H_

#include <cstdint>
#include <deque>
#include <string>

#include "aggregate/run_label.h"
#include "common/atomic_file.h"
#include "common/status.h"

namespace benchprof::session {

class TraceSession {
 public:
  // `file` receives the trace when Finish() succeeds; `program_name` names
  // the process in it. Each thread's CPU clock is read `cpu_rate` times a
  // second (0: never).
  TraceSession(AtomicFile file, std::string program_name, int cpu_rate)
      : file_(std::move(file)), program_name_(std::move(program_name)), cpu_rate_(cpu_rate) {}

  // A trace still recording is stopped and discarded.
  ~TraceSession();

  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;

  // Starts recording (and names the calling thread "main"). Fails if
  // another trace is being recorded or the recorder cannot start.
  Status Start();

  // Records the reported run whose last segment is `segment`.
  void NoteReportedRun(uint32_t segment, const aggregate::RunLabel& label);

  // Stops recording, completes the file and moves it into place. Prints one
  // line to stderr saying what was written (and how many events were
  // dropped, if any).
  Status Finish();

 private:
  AtomicFile file_;
  const std::string program_name_;
  const int cpu_rate_;
  bool recording_ = false;
  // Run names, alive until the recorder has written them.
  std::deque<std::string> run_names_;
};

// Timed-loop hooks (timed_loop.cc), one relaxed load each when no trace is
// recorded.
// Before the start barrier; `segment` is the run's new segment (thread 0;
// other threads pass 0).
void TraceLoopStarting(int thread_index, uint32_t segment);
// The loop's timer runs.
void TraceLoopStarted();
// The loop is about to stop its timer.
void TraceLoopFinishing();
// After the finish barrier; `iterations` are thread 0's.
void TraceLoopFinished(int thread_index, uint64_t iterations);
// PauseTiming() is about to pause the timer / ResumeTiming() resumed it.
void TracePausing();
void TraceResumed();

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_TRACE_SESSION_H_
