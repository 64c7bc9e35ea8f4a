// Allocation counter: the numbers behind --benchmem (allocs/op, B/op).
//
// HOT PATH. RecordAllocation() runs inside malloc and operator new on every
// thread of the process. It takes no lock, writes only the calling thread's
// own cache line, and never allocates; the one slow step (a thread's first
// counted allocation claims a counter slot) is guarded against re-entrancy
// because it may call into the C library.
//
// Which allocations count (Go's -benchmem semantics, extended to threads):
//   * A benchmark thread ("runner": a thread running a `for (auto _ : state)`
//     loop) counts its own allocations while its loop runs and is not paused.
//   * Any other thread (a benchmark's own worker pool, a library's background
//     thread) counts while at least one runner is in its unpaused loop.
// Counts only ever grow; a run's figure is the difference of two totals taken
// by the session around the run, when no runner is timing.
//
// Usage (session code only):
//   collect::BecomeRunner();        // before the loop's start barrier
//   collect::EnterTimedRegion();    // loop started or resumed
//   ... benchmark body ...
//   collect::LeaveTimedRegion();    // paused or finished
//   AllocTotals t = collect::TotalAllocations();
//
// Thread-safety: every function here is thread-safe.
#ifndef BENCHPROF_COLLECT_ALLOC_COUNTER_H_
#define BENCHPROF_COLLECT_ALLOC_COUNTER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace benchprof::collect {

// Allocation totals over all threads since the process started.
struct AllocTotals {
  uint64_t allocs = 0;
  uint64_t bytes = 0;  // requested sizes, not what the allocator rounded to

  AllocTotals operator-(const AllocTotals& earlier) const {
    return {allocs - earlier.allocs, bytes - earlier.bytes};
  }
};

// Marks the calling thread as a benchmark runner, currently not timing.
void BecomeRunner();

// The calling runner's loop starts or resumes: its allocations count, and so
// do those of every non-runner thread.
void EnterTimedRegion();

// The calling runner's loop pauses or finishes. No-op if it was not timing.
void LeaveTimedRegion();

// True while the calling thread is a runner inside its unpaused loop.
bool InTimedRegion();

// Sum of every counted allocation of every thread, past and present.
AllocTotals TotalAllocations();

// Allocations that should have been counted but could not be, because no
// counter slot could be mapped (out of memory). Reported, never hidden.
uint64_t UncountedAllocations();

// True when this build replaces malloc and operator new (BENCHPROF_ALLOC_HOOKS).
constexpr bool kAllocHooksEnabled = BENCHPROF_ALLOC_HOOKS;

namespace internal {

enum class ThreadRole : uint8_t {
  kOther = 0,  // not a runner: counts while any runner times
  kRunnerTimed,
  kRunnerPaused,
};

// One thread's counts, alone on its cache line. Only the owning thread writes
// it; the session reads it. A slot outlives its thread and is reused by later
// threads, so counts are never lost when a thread exits.
struct alignas(64) CounterSlot {
  std::atomic<uint64_t> allocs{0};
  std::atomic<uint64_t> bytes{0};
  std::atomic<bool> in_use{false};
};

struct ThreadState {
  CounterSlot* slot;
  ThreadRole role;
  bool claiming;  // re-entrancy guard for ClaimSlot()
};

// __thread, not thread_local: a plain TLS variable needs no init wrapper, so
// reading it inside malloc is a single %fs-relative load.
extern __thread ThreadState t_thread_state __attribute__((tls_model("initial-exec")));

// Number of runners in their unpaused loop. Written at loop start, pause,
// resume and finish only; read on the allocation path of non-runner threads.
struct alignas(64) RunnerGate {
  std::atomic<int> timed_runners{0};
};
extern RunnerGate g_runner_gate;

// Claims a slot for the calling thread; nullptr when re-entered or out of
// memory. Cold path.
CounterSlot* ClaimSlot();

// Whether an allocation by the thread in `state` counts now.
inline bool CountsNow(const ThreadState& state) {
  return state.role == ThreadRole::kOther
             ? g_runner_gate.timed_runners.load(std::memory_order_relaxed) > 0
             : state.role == ThreadRole::kRunnerTimed;
}

}  // namespace internal

// Counts one allocation of `bytes` requested bytes if the calling thread
// counts now. Called by the allocator replacements after a successful
// allocation.
inline void RecordAllocation(size_t bytes) {
  internal::ThreadState& state = internal::t_thread_state;
  if (!internal::CountsNow(state)) return;
  internal::CounterSlot* slot = state.slot;
  if (slot == nullptr && (slot = internal::ClaimSlot()) == nullptr) return;
  // Single writer: a load and a store, no locked read-modify-write.
  slot->allocs.store(slot->allocs.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  slot->bytes.store(slot->bytes.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
}

// Takes back a RecordAllocation(bytes) whose allocation failed. Cold path.
void UnrecordAllocation(size_t bytes);

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_ALLOC_COUNTER_H_
