#include "session/timed_loop.h"

#include <benchmark/benchmark.h>

#include <atomic>

#include "collect/alloc_counter.h"
#include "collect/timed_scope.h"
#include "session/trace_session.h"

namespace benchprof::session {
namespace {

TimedLoopSettings g_settings;

// Written and read by thread 0 only (the main thread runs every run's thread 0).
collect::AllocTotals g_totals_at_run_start;
uint32_t g_segment = 0;

std::atomic<uint64_t> g_loops_finished{0};

void PublishAllocCounters(benchmark::State& state, const collect::AllocTotals& totals) {
  // kAvgIterations: the library sums every thread's value, then divides by
  // the run's iterations summed over threads.
  state.counters[kAllocsPerOpCounter] =
      benchmark::Counter(static_cast<double>(totals.allocs), benchmark::Counter::kAvgIterations);
  state.counters[kBytesPerOpCounter] =
      benchmark::Counter(static_cast<double>(totals.bytes), benchmark::Counter::kAvgIterations);
}

}  // namespace

void ConfigureTimedLoop(const TimedLoopSettings& settings) { g_settings = settings; }

uint64_t LoopsFinished() { return g_loops_finished.load(std::memory_order_relaxed); }

void BeforeLoopStart(benchmark::State& state) {
  collect::BecomeRunner();
  // Before the start barrier: no runner of this run is timing yet, and every
  // runner sees the new segment once it passes the barrier.
  if (state.thread_index() == 0) {
    g_totals_at_run_start = collect::TotalAllocations();
    if (g_settings.label_profile_segments) collect::SetProfileSegment(++g_segment);
  }
  // g_segment is thread 0's: other threads must not read it while it moves.
  TraceLoopStarting(state.thread_index(), state.thread_index() == 0 ? g_segment : 0);
}

void AfterLoopStart(benchmark::State& state) {
  // A run that failed before its loop has no timed region.
  if (!state.error_occurred()) collect::EnterTimedRegion();
  TraceLoopStarted();
}

void BeforeLoopFinish(benchmark::State&) {
  TraceLoopFinishing();
  g_loops_finished.fetch_add(1, std::memory_order_relaxed);
  collect::LeaveTimedRegion();
}

void AfterLoopFinish(benchmark::State& state) {
  TraceLoopFinished(state.thread_index(), state.iterations());
  if (g_settings.label_profile_segments && state.thread_index() == 0) {
    // Only thread 0 sets it, so the library's sum over threads is exact.
    state.counters[kSegmentCounter] = benchmark::Counter(static_cast<double>(g_segment));
  }
  if (!g_settings.publish_alloc_counters) return;
  // After the finish barrier: every runner has left its timed region.
  const collect::AllocTotals run_totals = state.thread_index() == 0
                                              ? collect::TotalAllocations() - g_totals_at_run_start
                                              : collect::AllocTotals{};
  PublishAllocCounters(state, run_totals);
}

void BeforePause(benchmark::State&) {
  TracePausing();
  collect::LeaveTimedRegion();
}

void AfterResume(benchmark::State&) {
  collect::EnterTimedRegion();
  TraceResumed();
}

}  // namespace benchprof::session
