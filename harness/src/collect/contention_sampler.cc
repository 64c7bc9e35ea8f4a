// HOT PATH and lock context: everything here except Start/Stop/ForEach/
// SetWaitObserver runs inside the interposed pthread functions on any
// thread (see contention_sampler.h). No allocation (the tables are mapped),
// no interposed call (the capture runs under the hook's re-entrancy flag,
// so libunwind's own locking goes straight to glibc), and the only lock is
// one waiter slot's spin flag, held for a few stores.
//
// Shared state and who changes it:
//   g_switches        set by Start/Stop and SetWaitObserver; read by hooks.
//   g_block_rate, g_mutex_fraction
//                     set by Start before the switches, read by recorders.
//   g_events          the buckets (stack_bucket_table.h), tag = profile and
//                     wait kind; counters updated with relaxed fetch_add.
//   g_waited_locks / g_waiter_slots
//                     one slot per lock being waited for. A slot's fields
//                     are changed only under its spin flag; its key is also
//                     read without it by unlockers (HasWaiters), which then
//                     take the flag and check again.
//   g_observer        set by SetWaitObserver, read by hooks.
#include "collect/contention_sampler.h"

#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <x86intrin.h>

#include <algorithm>
#include <cmath>

#include "collect/hook_text.h"
#include "collect/stack_bucket_table.h"
#include "collect/stack_capture.h"
#include "collect/timed_scope.h"
#include "common/own_thread.h"

namespace benchprof::collect {
namespace internal {

constinit ContentionSwitches g_switches;
constinit std::atomic<const void*> g_waited_locks[kWaiterSlots] = {};

}  // namespace internal

namespace {

using internal::g_switches;
using internal::g_waited_locks;
using internal::kWaiterSlots;

constexpr size_t kBucketCount = size_t{1} << 16;
constexpr size_t kStackWords = size_t{1} << 22;  // 32 MiB of address space
// Counts are fractional after Go's scaling (r/d events): fixed point.
constexpr double kCountScale = 1024.0;

struct ContentionCounts {
  std::atomic<uint64_t> scaled_count{0};  // contentions * kCountScale
  std::atomic<uint64_t> delay_ns{0};
};

// The waiters of one lock. Fields change only under `busy`.
struct alignas(64) WaiterSlot {
  std::atomic<bool> busy{false};
  int64_t waiters = 0;
  // Sum of the waiters' baselines: when each began waiting, or the last
  // charge, whichever is later.
  int64_t baseline_sum = 0;
  int64_t last_charge_ns = 0;
};

constinit StackBucketTable<ContentionCounts> g_events;
constinit WaiterSlot g_waiter_slots[kWaiterSlots];
std::atomic<int64_t> g_block_rate{0};
std::atomic<int64_t> g_mutex_fraction{0};
std::atomic<const WaitObserver*> g_observer{nullptr};
std::atomic<bool> g_running[2] = {false, false};

struct ProfileStats {
  std::atomic<uint64_t> recorded{0};
  std::atomic<uint64_t> dropped{0};
};
ProfileStats g_stats[2];
std::atomic<uint64_t> g_unattributed{0};

__thread uint64_t t_random __attribute__((tls_model("initial-exec"))) = 0;

uint64_t NextRandom() {
  if (t_random == 0) {
    t_random = __rdtsc() ^ reinterpret_cast<uintptr_t>(&t_random) ^ 0x9e3779b97f4a7c15ULL;
    if (t_random == 0) t_random = 1;
  }
  uint64_t x = t_random;  // xorshift64*
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  t_random = x;
  return x * 0x2545f4914f6cdd1dULL;
}

uint64_t Tag(ContentionProfile profile, WaitKind kind) {
  return static_cast<uint64_t>(profile) << 8 | static_cast<uint64_t>(kind);
}

class SlotGuard {
 public:
  explicit SlotGuard(WaiterSlot& slot) : slot_(slot) {
    while (slot_.busy.exchange(true, std::memory_order_acquire)) _mm_pause();
  }
  ~SlotGuard() { slot_.busy.store(false, std::memory_order_release); }
  SlotGuard(const SlotGuard&) = delete;
  SlotGuard& operator=(const SlotGuard&) = delete;

 private:
  WaiterSlot& slot_;
};

// The bucket of the calling thread's stack (the hook frames cut off) for
// `profile`, `kind` and profile segment `segment`; kNoBucket when the table
// is full (counted).
uint64_t BucketOfThisStack(ContentionProfile profile, WaitKind kind, uint32_t segment) {
  constexpr int kOwnFrames = 8;  // unwinder, CaptureStack, this, the sampler, the hook
  uintptr_t frames[kMaxContentionFrames + kOwnFrames];
  const int result = CaptureStack(frames, kMaxContentionFrames + kOwnFrames);
  const size_t captured = result > 0 ? static_cast<size_t>(result) : 0;
  const size_t first = FirstFrameAfterHook(frames, captured, &IsLockHookText);
  size_t depth = captured - first;
  if (depth > static_cast<size_t>(kMaxContentionFrames)) depth = kMaxContentionFrames;
  const uint64_t bucket = g_events.FindOrInsert(frames + first, depth, Tag(profile, kind), segment);
  if (bucket == kNoBucket) {
    g_stats[static_cast<int>(profile)].dropped.fetch_add(1, std::memory_order_relaxed);
  }
  return bucket;
}

// Adds `contentions` events of `delay_ns` in all to `bucket`.
void AddTo(ContentionProfile profile, uint64_t bucket, double contentions, double delay_ns) {
  g_stats[static_cast<int>(profile)].recorded.fetch_add(1, std::memory_order_relaxed);
  ContentionCounts& counts = g_events.counters(bucket);
  counts.scaled_count.fetch_add(static_cast<uint64_t>(std::llround(contentions * kCountScale)),
                                std::memory_order_relaxed);
  counts.delay_ns.fetch_add(static_cast<uint64_t>(std::llround(delay_ns)),
                            std::memory_order_relaxed);
}

}  // namespace

namespace internal {

int64_t NowNanos() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

uint64_t ObserverNow() {
  const WaitObserver* observer = g_observer.load(std::memory_order_acquire);
  return observer == nullptr ? 0 : observer->now();
}

bool JoinWaiters(const void* lock, int64_t begin_ns) {
  if (IsOwnThread()) return false;
  const int index = WaiterSlotOf(lock);
  WaiterSlot& slot = g_waiter_slots[index];
  SlotGuard guard(slot);
  const void* owner = g_waited_locks[index].load(std::memory_order_relaxed);
  if (owner != nullptr && owner != lock) {
    g_unattributed.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  if (owner == nullptr) {
    slot.waiters = 0;
    slot.baseline_sum = 0;
    slot.last_charge_ns = 0;
    g_waited_locks[index].store(lock, std::memory_order_relaxed);
  }
  ++slot.waiters;
  slot.baseline_sum += begin_ns;
  return true;
}

void LeaveWaiters(const void* lock, int64_t begin_ns) {
  const int index = WaiterSlotOf(lock);
  WaiterSlot& slot = g_waiter_slots[index];
  SlotGuard guard(slot);
  slot.baseline_sum -= begin_ns > slot.last_charge_ns ? begin_ns : slot.last_charge_ns;
  if (--slot.waiters == 0) g_waited_locks[index].store(nullptr, std::memory_order_relaxed);
}

UnlockCharge TakeUnlockCharge(const void* lock) {
  const int index = WaiterSlotOf(lock);
  WaiterSlot& slot = g_waiter_slots[index];
  SlotGuard guard(slot);
  if (g_waited_locks[index].load(std::memory_order_relaxed) != lock || slot.waiters == 0) {
    return {};
  }
  const int64_t now = NowNanos();
  const int64_t charge = slot.waiters * now - slot.baseline_sum;
  slot.baseline_sum = slot.waiters * now;
  slot.last_charge_ns = now;
  // Decided now, while the waiters still wait: once the lock is released
  // a woken benchmark thread may end its timed loop before the record.
  if (!InTimedScope() || IsOwnThread()) return {};
  return {.charge_ns = charge, .segment = CurrentProfileSegment()};
}

void RecordUnlockCharge(WaitKind kind, const UnlockCharge& charge) {
  const int64_t fraction = g_mutex_fraction.load(std::memory_order_relaxed);
  if (fraction <= 0 || charge.charge_ns <= 0) return;
  if (fraction > 1 && NextRandom() % static_cast<uint64_t>(fraction) != 0) return;
  const uint64_t bucket = BucketOfThisStack(ContentionProfile::kMutex, kind, charge.segment);
  if (bucket == kNoBucket) return;
  AddTo(ContentionProfile::kMutex, bucket, static_cast<double>(fraction),
        static_cast<double>(fraction) * static_cast<double>(charge.charge_ns));
}

uint64_t PrepareWaitRecord(WaitKind kind) {
  if (g_block_rate.load(std::memory_order_relaxed) <= 0 || !InTimedScope() || IsOwnThread()) {
    return kNoBucket;
  }
  return BucketOfThisStack(ContentionProfile::kBlock, kind, CurrentProfileSegment());
}

void RecordWait(WaitKind kind, int64_t begin_ns, int64_t end_ns, uint64_t observer_begin,
                uint64_t bucket) {
  if (IsOwnThread()) return;
  if (const WaitObserver* observer = g_observer.load(std::memory_order_acquire);
      observer != nullptr && observer_begin != 0 && end_ns - begin_ns >= observer->min_wait_ns) {
    observer->on_wait(kind, observer_begin, observer->now());
  }
  if (bucket == kNoBucket || !InTimedScope()) return;
  // Go's blocksampled and saveblockevent for the block profile.
  const int64_t rate = g_block_rate.load(std::memory_order_relaxed);
  if (rate <= 0) return;
  const int64_t duration_ns = std::max<int64_t>(end_ns - begin_ns, 1);
  if (duration_ns >= rate) {
    AddTo(ContentionProfile::kBlock, bucket, 1, static_cast<double>(duration_ns));
  } else if (static_cast<int64_t>(NextRandom() % static_cast<uint64_t>(rate)) < duration_ns) {
    AddTo(ContentionProfile::kBlock, bucket,
          static_cast<double>(rate) / static_cast<double>(duration_ns), static_cast<double>(rate));
  }
}

}  // namespace internal

const char* WaitKindName(WaitKind kind) {
  switch (kind) {
    case WaitKind::kMutex:
      return "mutex";
    case WaitKind::kRwlockRead:
      return "rwlock read";
    case WaitKind::kRwlockWrite:
      return "rwlock write";
    case WaitKind::kCondition:
      return "condition variable";
    case WaitKind::kSemaphore:
      return "semaphore";
    case WaitKind::kJoin:
      return "thread join";
    case WaitKind::kFutex:
      return "futex";
  }
  return "wait";
}

namespace {

std::atomic<int64_t>& RateOf(ContentionProfile profile) {
  return profile == ContentionProfile::kBlock ? g_block_rate : g_mutex_fraction;
}

void UpdateSwitches() {
  const bool profiling = g_block_rate.load() > 0 || g_mutex_fraction.load() > 0;
  g_switches.blaming_unlocks.store(g_mutex_fraction.load() > 0, std::memory_order_relaxed);
  g_switches.timing_waits.store(profiling || g_observer.load() != nullptr,
                                std::memory_order_relaxed);
}

// A forked child is not profiled, and another thread may have held the
// unwinder's locks at fork(): a wait recorded there would wait forever.
void StopRecordingInForkedChild() {
  g_block_rate.store(0);
  g_mutex_fraction.store(0);
  g_observer.store(nullptr);
  UpdateSwitches();
}

}  // namespace

bool LockHooksAreLive() {
  if (!kContentionHooksEnabled) return false;
  // The definition every library's call binds to, against this program's
  // own (the hook, when contention_hooks.cc is linked in).
  return dlsym(RTLD_DEFAULT, "pthread_mutex_lock") == reinterpret_cast<void*>(&pthread_mutex_lock);
}

Status StartContentionProfile(ContentionProfile profile, int64_t rate) {
  if (!kContentionHooksEnabled) {
    return Status::Error(
        "this build has no lock hooks (ThreadSanitizer intercepts the same functions)");
  }
  if (!LockHooksAreLive()) {
    return Status::Error(
        "the lock hooks are not what this program's libraries call (link it with "
        "benchprof::main)");
  }
  if (rate < 0) return Status::Error("the rate must not be negative");
  if (Status unwinder = LoadStackUnwinder(); !unwinder.ok()) return unwinder;
  std::atomic<bool>& running = g_running[static_cast<int>(profile)];
  if (running.load()) return Status::Error("this contention profile is already being recorded");
  if (Status mapped = g_events.Map(kBucketCount, kStackWords, "contention table"); !mapped.ok()) {
    return mapped;
  }
  ProfileStats& stats = g_stats[static_cast<int>(profile)];
  stats.recorded.store(0);
  stats.dropped.store(0);
  if (profile == ContentionProfile::kMutex) g_unattributed.store(0);
  static const bool stopped_in_children =
      pthread_atfork(nullptr, nullptr, &StopRecordingInForkedChild) == 0;
  (void)stopped_in_children;
  RateOf(profile).store(rate);
  running.store(true);
  UpdateSwitches();
  return Status();
}

void StopContentionProfile(ContentionProfile profile) {
  RateOf(profile).store(0);
  g_running[static_cast<int>(profile)].store(false);
  UpdateSwitches();
}

void SetWaitObserver(const WaitObserver* observer) {
  g_observer.store(observer, std::memory_order_release);
  UpdateSwitches();
}

void ForEachContentionEvent(ContentionProfile profile,
                            const std::function<void(const ContentionEvent&)>& visit) {
  g_events.ForEach([&](const StackBucket<ContentionCounts>& bucket) {
    if (bucket.tag >> 8 != static_cast<uint64_t>(profile)) return;
    const uint64_t scaled = bucket.counters.scaled_count.load(std::memory_order_relaxed);
    visit(ContentionEvent{
        bucket.segment, static_cast<WaitKind>(bucket.tag & 0xff),
        static_cast<double>(scaled) / kCountScale,
        static_cast<int64_t>(bucket.counters.delay_ns.load(std::memory_order_relaxed)),
        bucket.stack});
  });
}

ContentionStats GetContentionStats(ContentionProfile profile) {
  const ProfileStats& stats = g_stats[static_cast<int>(profile)];
  ContentionStats result;
  result.recorded = stats.recorded.load();
  result.dropped_table_full = stats.dropped.load();
  if (profile == ContentionProfile::kMutex) result.unattributed_waits = g_unattributed.load();
  return result;
}

}  // namespace benchprof::collect
