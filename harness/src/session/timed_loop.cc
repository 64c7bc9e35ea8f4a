#include "session/timed_loop.h"

#include <benchmark/benchmark.h>

#include <atomic>

#include "collect/alloc_counter.h"

namespace benchprof::session {
namespace {

TimedLoopSettings g_settings;

// Written and read by thread 0 only (the main thread runs every run's thread 0).
collect::AllocTotals g_totals_at_run_start;

std::atomic<uint64_t> g_loop_starts{0};
std::atomic<uint64_t> g_loop_finishes{0};
std::atomic<uint64_t> g_pauses{0};
std::atomic<uint64_t> g_resumes{0};

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

HookCounts GetHookCounts() {
  return {g_loop_starts.load(), g_loop_finishes.load(), g_pauses.load(), g_resumes.load()};
}

void BeforeLoopStart(benchmark::State& state) {
  g_loop_starts.fetch_add(1, std::memory_order_relaxed);
  collect::BecomeRunner();
  // Before the start barrier: no runner of this run is timing yet.
  if (state.thread_index() == 0) g_totals_at_run_start = collect::TotalAllocations();
}

void AfterLoopStart(benchmark::State& state) {
  // A run that failed before its loop has no timed region.
  if (!state.error_occurred()) collect::EnterTimedRegion();
}

void BeforeLoopFinish(benchmark::State&) {
  g_loop_finishes.fetch_add(1, std::memory_order_relaxed);
  collect::LeaveTimedRegion();
}

void AfterLoopFinish(benchmark::State& state) {
  if (!g_settings.publish_alloc_counters) return;
  // After the finish barrier: every runner has left its timed region.
  const collect::AllocTotals run_totals = state.thread_index() == 0
                                              ? collect::TotalAllocations() - g_totals_at_run_start
                                              : collect::AllocTotals{};
  PublishAllocCounters(state, run_totals);
}

void BeforePause(benchmark::State&) {
  g_pauses.fetch_add(1, std::memory_order_relaxed);
  collect::LeaveTimedRegion();
}

void AfterResume(benchmark::State&) {
  g_resumes.fetch_add(1, std::memory_order_relaxed);
  collect::EnterTimedRegion();
}

}  // namespace benchprof::session
