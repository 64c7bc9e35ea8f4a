// Allocation counter: the numbers behind --benchmem (allocs/op, B/op).
//
// HOT PATH. RecordAllocation() runs inside malloc and operator new on every
// thread of the process. It takes no lock, writes only the calling thread's
// own cache line, and never allocates; the one slow step (a thread's first
// counted allocation claims a counter slot) is guarded against re-entrancy
// because it may call into the C library.
//
// Which allocations count: those a thread makes while it is in the timed
// scope (timed_scope.h). Counts only ever grow; a run's figure is the
// difference of two totals taken by the session around the run, when no
// runner is timing.
//
// Usage (session code only):
//   AllocTotals before = collect::TotalAllocations();
//   ... a benchmark run (timed_scope.h marks its timed region) ...
//   AllocTotals run = collect::TotalAllocations() - before;
//
// Thread-safety: every function here is thread-safe.
#ifndef BENCHPROF_COLLECT_ALLOC_COUNTER_H_
#define BENCHPROF_COLLECT_ALLOC_COUNTER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "collect/timed_scope.h"

namespace benchprof::collect {

// Allocation totals over all threads since the process started.
struct AllocTotals {
  uint64_t allocs = 0;
  uint64_t bytes = 0;  // requested sizes, not what the allocator rounded to

  AllocTotals operator-(const AllocTotals& earlier) const {
    return {allocs - earlier.allocs, bytes - earlier.bytes};
  }
};

// Sum of every counted allocation of every thread, past and present.
AllocTotals TotalAllocations();

// Allocations that should have been counted but could not be, because no
// counter slot could be mapped (out of memory). Reported, never hidden.
uint64_t UncountedAllocations();

// True when this build replaces malloc and operator new (BENCHPROF_ALLOC_HOOKS).
constexpr bool kAllocHooksEnabled = BENCHPROF_ALLOC_HOOKS;

namespace internal {

// One thread's counts, alone on its cache line. Only the owning thread writes
// it; the session reads it. A slot outlives its thread and is reused by later
// threads, so counts are never lost when a thread exits.
struct alignas(64) CounterSlot {
  std::atomic<uint64_t> allocs{0};
  std::atomic<uint64_t> bytes{0};
  std::atomic<bool> in_use{false};
};

struct ThreadCounter {
  CounterSlot* slot;
  bool claiming;  // re-entrancy guard for ClaimSlot()
};

// __thread: see timed_scope.h.
extern __thread ThreadCounter t_counter __attribute__((tls_model("initial-exec")));

// Claims a slot for the calling thread; nullptr when re-entered or out of
// memory. Cold path.
CounterSlot* ClaimSlot();

}  // namespace internal

// Counts one allocation of `bytes` requested bytes if the calling thread is
// in the timed scope, and says whether it did (only counted allocations may
// be sampled for the heap profile). The allocator replacements call it as
// they forward a request.
inline bool RecordAllocation(size_t bytes) {
  if (!InTimedScope()) return false;
  internal::CounterSlot* slot = internal::t_counter.slot;
  if (slot == nullptr && (slot = internal::ClaimSlot()) == nullptr) return false;
  // Single writer: a load and a store, no locked read-modify-write.
  slot->allocs.store(slot->allocs.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  slot->bytes.store(slot->bytes.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
  return true;
}

// Takes back a RecordAllocation(bytes) whose allocation failed. Cold path.
void UnrecordAllocation(size_t bytes);

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_ALLOC_COUNTER_H_
