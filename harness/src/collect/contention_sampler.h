// Contention sampler: the collector behind --blockprofile and
// --mutexprofile (Go's block and mutex profiles) and behind the "blocked"
// slices of --trace. The interposed pthread functions (contention_hooks.cc)
// report here; nothing else does.
//
// HOT PATH and lock context: everything here except Start/Stop/ForEach/
// SetWaitObserver runs inside an interposed pthread_mutex_lock, unlock,
// condition-variable wait, ... on any thread. It never allocates (the
// tables come from mmap), never calls an interposed function (a per-thread
// flag sends the capture's own locking straight to glibc), and takes only
// the spin flag of one waiter slot, held for a few stores.
//
// What is recorded, as in Go:
//   * Block profile: a wait that blocked — a contended mutex or rwlock
//     acquisition, a condition-variable wait, a semaphore wait that did not
//     succeed at once, a thread join, a futex wait that slept — with the
//     waiter's stack and how long it waited. Rate r ns: a wait of d >= r ns
//     is recorded as 1 event of d ns; a shorter one with probability d/r,
//     as r/d events of r ns (Go's unbiased scaling). r = 1 records every
//     wait.
//   * Mutex profile: the unlock of a mutex or rwlock that others were
//     waiting for, with the unlocker's stack, charged the time those waiters
//     waited since the previous such unlock (or since they began waiting):
//     the critical section that made others wait takes the blame. Fraction
//     n: 1 in n such unlocks is recorded, scaled by n.
// Only waits that begin and end, and unlocks made, in a benchmark's timed
// scope (timed_scope.h) are recorded, labelled with the profile segment of
// the wait's start; never those of benchprof's own threads
// (common/own_thread.h).
// Events the tables cannot hold are counted, never hidden.
//
//   collect::StartContentionProfile(ContentionProfile::kBlock, /*rate=*/1);
//   ... benchmarks run ...
//   collect::StopContentionProfile(ContentionProfile::kBlock);
//   collect::ForEachContentionEvent(ContentionProfile::kBlock, [](const ContentionEvent& e) {...});
//
// Thread-safety: Start/Stop/ForEach/SetWaitObserver from one thread (the
// session's); the internal functions from any thread.
#ifndef BENCHPROF_COLLECT_CONTENTION_SAMPLER_H_
#define BENCHPROF_COLLECT_CONTENTION_SAMPLER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>

#include "collect/stack_bucket_table.h"
#include "common/status.h"

namespace benchprof::collect {

// ThreadSanitizer intercepts the same pthread functions and must see every
// lock, so TSan builds leave the contention hooks out (the build defines
// BENCHPROF_CONTENTION_HOOKS=0).
inline constexpr bool kContentionHooksEnabled = BENCHPROF_CONTENTION_HOOKS;

// What a thread waited for.
enum class WaitKind : uint8_t {
  kMutex,
  kRwlockRead,
  kRwlockWrite,
  kCondition,
  kSemaphore,
  kJoin,
  // A futex wait through syscall(): what libstdc++'s std::atomic::wait,
  // counting_semaphore, latch, barrier and future block in.
  kFutex,
};

// "mutex", "rwlock read", "rwlock write", "condition variable",
// "semaphore", "thread join", "futex".
const char* WaitKindName(WaitKind kind);

enum class ContentionProfile : uint8_t { kBlock = 0, kMutex = 1 };

// Deepest stack recorded; deeper stacks keep their innermost frames.
inline constexpr int kMaxContentionFrames = 64;

// Starts recording `profile`: the block profile at Go's blockprofilerate
// `rate` (nanoseconds), the mutex profile at Go's mutexprofilefraction
// `rate`; rate 0 records nothing. Fails if this build has no hooks, the
// profile is being recorded already, `rate` is negative, or the tables
// cannot be mapped.
Status StartContentionProfile(ContentionProfile profile, int64_t rate);

// Stops recording `profile`; its events stay readable.
void StopContentionProfile(ContentionProfile profile);

// True when this executable's lock functions are the hooks for every
// library too (the executable was linked with benchprof::main, which
// exports them), so std::mutex, std::condition_variable and
// std::thread::join waits are seen. Also checked by
// StartContentionProfile().
bool LockHooksAreLive();

// Something told of every wait of at least `min_wait_ns` while it is set,
// on the waiting thread, in or out of timed scopes (the tracer's blocked
// slices). `now` reads the observer's clock; `on_wait` gets a wait's begin
// and end on it. Both must be async-signal-safe in spirit: no allocation,
// no locks.
struct WaitObserver {
  uint64_t (*now)();
  void (*on_wait)(WaitKind kind, uint64_t begin, uint64_t end);
  int64_t min_wait_ns;
};

// Sets (or, with null, removes) the wait observer. `observer` must outlive
// its use.
void SetWaitObserver(const WaitObserver* observer);

// One recorded stack of one profile.
struct ContentionEvent {
  uint32_t segment;
  WaitKind kind;
  double contentions;                // scaled, as Go scales them
  int64_t delay_ns;                  // scaled
  std::span<const uintptr_t> stack;  // return addresses, innermost first
};

// Calls `visit` for every stack recorded for `profile` since the process
// started (a process profiles once; later starts add to the same table).
void ForEachContentionEvent(ContentionProfile profile,
                            const std::function<void(const ContentionEvent&)>& visit);

struct ContentionStats {
  uint64_t recorded = 0;  // events recorded (before scaling)
  uint64_t dropped_table_full = 0;
  // Mutex profile only: waits whose mutex found no waiter slot (another
  // contended mutex hashed to it), so no unlock could be charged for them.
  uint64_t unattributed_waits = 0;
};
ContentionStats GetContentionStats(ContentionProfile profile);

namespace internal {

// The switches the hooks read, one relaxed load each.
struct alignas(64) ContentionSwitches {
  // Any consumer of waits: block profile, mutex profile or observer.
  std::atomic<bool> timing_waits{false};
  // The mutex profile: waiters register, unlocks are checked.
  std::atomic<bool> blaming_unlocks{false};
};
extern ContentionSwitches g_switches;

// Reads the sampler's clock (CLOCK_MONOTONIC nanoseconds).
int64_t NowNanos();

// Locks that threads are waiting for, by slot: a lock's slot is fixed by
// its address; a slot holds one lock at a time (a second contended lock
// that hashes to a taken slot goes unattributed).
inline constexpr int kWaiterSlots = 4096;
extern std::atomic<const void*> g_waited_locks[kWaiterSlots];

inline int WaiterSlotOf(const void* lock) {
  const auto address = reinterpret_cast<uintptr_t>(lock);
  return static_cast<int>((address >> 4 ^ address >> 16) & (kWaiterSlots - 1));
}

// Whether threads wait for `lock` now: one load. Lock context.
inline bool HasWaiters(const void* lock) {
  return g_waited_locks[WaiterSlotOf(lock)].load(std::memory_order_relaxed) == lock;
}

// A contended lock is about to be waited for, from `begin_ns`. Returns
// whether the wait was registered (then LeaveWaiters must follow).
bool JoinWaiters(const void* lock, int64_t begin_ns);
void LeaveWaiters(const void* lock, int64_t begin_ns);

// The waiting time one unlock is charged, and the profile segment it
// belongs to; charge_ns 0: nothing to record.
struct UnlockCharge {
  int64_t charge_ns = 0;
  uint32_t segment = 0;
};

// `lock` is about to be unlocked and HasWaiters(lock): takes the time its
// waiters waited since the previous charge, to charge to this unlock (the
// mutex profile); nothing outside a timed scope. Cheap: it runs inside the
// critical section.
UnlockCharge TakeUnlockCharge(const void* lock);

// After the unlock: records `charge` at the unlocker's stack, for a lock of
// `kind` (kMutex, or kRwlockWrite for an rwlock), sampled by the fraction.
// The stack capture runs outside the critical section.
void RecordUnlockCharge(WaitKind kind, const UnlockCharge& charge);

// Before a wait of `kind` blocks: the bucket of the waiter's stack, for
// RecordWait (kNoBucket when the block profile is off, the thread is not
// in a timed scope, or the table is full). The capture overlaps the wait,
// not a critical section.
uint64_t PrepareWaitRecord(WaitKind kind);

// A wait of `kind` from begin_ns to end_ns ended: tells the observer (from
// `observer_begin` on its clock; 0: none) and, in a timed scope, adds the
// event to `bucket` as the block profile's rate decides.
void RecordWait(WaitKind kind, int64_t begin_ns, int64_t end_ns, uint64_t observer_begin,
                uint64_t bucket);

// The observer's clock now, or 0 without an observer.
uint64_t ObserverNow();

}  // namespace internal

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_CONTENTION_SAMPLER_H_
