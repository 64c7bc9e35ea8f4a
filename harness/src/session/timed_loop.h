// Timed loop: what the harness does when a benchmark's `for (auto _ : state)`
// loop starts, pauses, resumes and finishes.
//
// loop_hooks.cc intercepts Google Benchmark 1.7.1's out-of-line
// State::StartKeepRunning / FinishKeepRunning / PauseTiming / ResumeTiming
// (linker --wrap) and calls the functions below around the library's own.
// They run on every benchmark thread: thread 0 is the main thread, threads
// 1..n-1 of a `->Threads(n)` run are fresh threads. The library's start and
// finish barriers order thread 0's work before and after all other threads'.
//
// Per run, thread 0 takes the allocation totals before the start barrier and
// after the finish barrier, when no runner is timing, and publishes their
// difference as the counters `allocs/op` and `B/op` (other threads publish 0,
// so every thread's State has the same counter set; the library sums them and
// divides by the run's total iterations).
//
// A manager's extra pass (manager_passes.h) is not a run: the hooks leave
// its loop alone.
//
// Thread-safety: the hook functions are thread-safe; Configure() must be
// called before benchmarks run.
#ifndef BENCHPROF_SESSION_TIMED_LOOP_H_
#define BENCHPROF_SESSION_TIMED_LOOP_H_

#include <chrono>
#include <cstdint>
#include <span>

#include "profiles/profile.h"

namespace benchmark {
class State;
}

namespace benchprof::session {

// Names of the counters every benchmark gets under --benchmem.
inline constexpr char kAllocsPerOpCounter[] = "allocs/op";
inline constexpr char kBytesPerOpCounter[] = "B/op";

// A hidden counter: the number of the run's last profile segment (see
// aggregate/run_labels.h). The reporter removes it before anything is
// printed.
inline constexpr char kSegmentCounter[] = "benchprof_segment";

// The most profile kinds that can follow timed loops at once.
inline constexpr int kMaxLoopListeners = 8;

struct TimedLoopSettings {
  // Publish allocs/op and B/op on every run.
  bool publish_alloc_counters = false;
  // Give every run a profile segment and publish it as kSegmentCounter.
  bool label_profile_segments = false;
  // The profile kinds told of every loop event (Profile::OnLoop*), in this
  // order; at most kMaxLoopListeners, which must outlive the benchmarks.
  std::span<profiles::Profile* const> listeners;
};

// Sets what the hooks do. Call before RunSpecifiedBenchmarks. Fails (false)
// with more than kMaxLoopListeners listeners.
bool ConfigureTimedLoop(const TimedLoopSettings& settings);

// How many timed loops (of any thread) have finished in this process: the
// reporter's evidence that a benchmark's loop was intercepted.
uint64_t LoopsFinished();

// Hook bodies; see the file comment. `Before*` run before the library's
// function, `After*` after it.
void BeforeLoopStart(benchmark::State& state);
void AfterLoopStart(benchmark::State& state);
void BeforeLoopFinish(benchmark::State& state);
void AfterLoopFinish(benchmark::State& state);
void BeforePause(benchmark::State& state);
void AfterResume(benchmark::State& state);

// Stops telling the listeners of loop events, and returns once no listener
// call is in progress on any thread: from then on the listeners' state is
// the caller's (an interrupted run's outputs are written while benchmark
// threads still run). Loops keep running; allocs/op is still counted.
// Waits for calls in progress only, which never block, but at most
// `limit` (a thread that crashed inside a call never leaves it): false then.
bool StopLoopEvents(std::chrono::milliseconds limit);

// Takes back what BeforeLoopStart() did for the calling thread's loop when
// that loop turns out, before it started, to be a manager's pass
// (manager_passes.h): the loop is then left alone like the rest of the pass.
// Does nothing if no loop is between BeforeLoopStart and AfterLoopStart.
void WithdrawAnnouncedLoop();

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_TIMED_LOOP_H_
