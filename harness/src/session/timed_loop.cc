#include "session/timed_loop.h"

#include <benchmark/benchmark.h>
#include <sched.h>

#include <atomic>
#include <utility>

#include "collect/alloc_counter.h"
#include "collect/timed_scope.h"
#include "session/benchmark_compat.h"
#include "session/crash_signals.h"
#include "session/manager_passes.h"

namespace benchprof::session {
namespace {

TimedLoopSettings g_settings;
// The listeners, copied: benchmark threads read them without a lock, and
// they do not change while benchmarks run.
profiles::Profile* g_listeners[kMaxLoopListeners];
int g_listener_count = 0;

// Written and read by thread 0 only (the main thread runs every run's thread 0).
collect::AllocTotals g_totals_at_run_start;
uint32_t g_segment = 0;

std::atomic<uint64_t> g_loops_finished{0};

// StopLoopEvents(): set once; g_notifying counts listener calls in progress.
std::atomic<bool> g_events_stopped{false};
std::atomic<int> g_notifying{0};

// Where the calling thread's loop is: announced by BeforeLoopStart, timing
// after AfterLoopStart, or a manager's pass that the hooks leave alone.
enum class LoopPhase { kNone, kAnnounced, kMeasured, kManagers };
thread_local LoopPhase t_phase = LoopPhase::kNone;

void PublishAllocCounters(benchmark::State& state, const collect::AllocTotals& totals) {
  // kAvgIterations: the library sums every thread's value, then divides by
  // the run's iterations summed over threads.
  state.counters[kAllocsPerOpCounter] =
      benchmark::Counter(static_cast<double>(totals.allocs), benchmark::Counter::kAvgIterations);
  state.counters[kBytesPerOpCounter] =
      benchmark::Counter(static_cast<double>(totals.bytes), benchmark::Counter::kAvgIterations);
}

// Calls `event` on every listener.
// Once StopLoopEvents() has seen g_notifying at zero, every later call
// sees g_events_stopped (both sequentially consistent).
template <typename Event>
void Notify(Event event) {
  if (g_listener_count == 0) return;
  g_notifying.fetch_add(1, std::memory_order_seq_cst);
  if (!g_events_stopped.load(std::memory_order_seq_cst)) {
    for (int i = 0; i < g_listener_count; ++i) event(*g_listeners[i]);
  }
  g_notifying.fetch_sub(1, std::memory_order_seq_cst);
}

}  // namespace

bool ConfigureTimedLoop(const TimedLoopSettings& settings) {
  if (settings.listeners.size() > kMaxLoopListeners) return false;
  g_settings = settings;
  g_listener_count = static_cast<int>(settings.listeners.size());
  for (int i = 0; i < g_listener_count; ++i) g_listeners[i] = settings.listeners[i];
  g_settings.listeners = {};
  return true;
}

bool StopLoopEvents(std::chrono::milliseconds limit) {
  g_events_stopped.store(true, std::memory_order_seq_cst);
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (g_notifying.load(std::memory_order_seq_cst) != 0) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    sched_yield();
  }
  return true;
}

uint64_t LoopsFinished() { return g_loops_finished.load(std::memory_order_relaxed); }

void BeforeLoopStart(benchmark::State& state) {
  EnsureAlternateSignalStack();  // managers' passes crash too
  if (InManagerPass()) {
    t_phase = LoopPhase::kManagers;
    return;
  }
  t_phase = LoopPhase::kAnnounced;
  collect::BecomeRunner();
  // Before the start barrier: no runner of this run is timing yet, and every
  // runner sees the new segment once it passes the barrier.
  if (state.thread_index() == 0) {
    g_totals_at_run_start = collect::TotalAllocations();
    if (g_settings.label_profile_segments) collect::SetProfileSegment(++g_segment);
  }
  // g_segment is thread 0's: other threads must not read it while it moves.
  const uint32_t segment = state.thread_index() == 0 ? g_segment : 0;
  Notify([&](profiles::Profile& p) { p.OnLoopStarting(state, segment); });
}

void WithdrawAnnouncedLoop() {
  if (t_phase != LoopPhase::kAnnounced) return;
  t_phase = LoopPhase::kManagers;
  // Manager passes run one thread: this is thread 0, which took a segment.
  const uint32_t withdrawn = g_segment;
  if (g_settings.label_profile_segments) collect::SetProfileSegment(--g_segment);
  Notify([&](profiles::Profile& p) { p.OnLoopWithdrawn(withdrawn); });
}

void AfterLoopStart(benchmark::State& state) {
  if (t_phase == LoopPhase::kManagers) return;
  t_phase = LoopPhase::kMeasured;
  // A run that skipped itself before its loop has no timed region.
  if (!StateSkipped(state)) collect::EnterTimedRegion();
  Notify([&](profiles::Profile& p) { p.OnLoopStarted(state); });
}

void BeforeLoopFinish(benchmark::State& state) {
  if (t_phase == LoopPhase::kManagers) return;
  Notify([&](profiles::Profile& p) { p.OnLoopFinishing(state); });
  g_loops_finished.fetch_add(1, std::memory_order_relaxed);
  collect::LeaveTimedRegion();
}

void AfterLoopFinish(benchmark::State& state) {
  const LoopPhase phase = std::exchange(t_phase, LoopPhase::kNone);
  if (phase == LoopPhase::kManagers) return;
  Notify([&](profiles::Profile& p) { p.OnLoopFinished(state); });
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

void BeforePause(benchmark::State& state) {
  if (t_phase == LoopPhase::kManagers) return;
  Notify([&](profiles::Profile& p) { p.OnPausing(state); });
  collect::LeaveTimedRegion();
}

void AfterResume(benchmark::State& state) {
  if (t_phase == LoopPhase::kManagers) return;
  collect::EnterTimedRegion();
  Notify([&](profiles::Profile& p) { p.OnResumed(state); });
}

}  // namespace benchprof::session
