// The contention sampler behind the real lock hooks, driven directly (no
// benchmark library): constructions whose waits are known exactly give
// exactly those events at their call sites, sampled rates are unbiased,
// nothing outside a timed scope is recorded, the hooks do not allocate,
// and many threads locking at full rate neither crash nor deadlock.
#include "collect/contention_sampler.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <fstream>
#include <future>
#include <latch>
#include <map>
#include <mutex>
#include <random>
#include <semaphore>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "collect/alloc_counter.h"
#include "collect/timed_scope.h"
#include "common/own_thread.h"

// The functions whose frames the tests look for in recorded stacks each
// live in a section of their own, which the linker bounds with
// __start_<section> and __stop_<section>: exact in every build, where a
// guessed size fails once sanitizers grow the code.
#define FOUND_IN_STACKS(name) [[gnu::noinline, gnu::section("bp_" #name)]]
#define CODE_BOUNDS(name) extern "C" const char __start_bp_##name[], __stop_bp_##name[];
CODE_BOUNDS(WaiterLocks)
CODE_BOUNDS(HolderUnlocks)
CODE_BOUNDS(PlayTurns)
CODE_BOUNDS(AcquireSemaphore)
CODE_BOUNDS(WaitForLatch)
CODE_BOUNDS(WaitForAtomic)
CODE_BOUNDS(GetFuture)
CODE_BOUNDS(OwnThreadLocks)
#define CodeOf(name)                                                                              \
  CodeRange {                                                                                     \
    reinterpret_cast<uintptr_t>(__start_bp_##name), reinterpret_cast<uintptr_t>(__stop_bp_##name) \
  }

namespace benchprof::collect {
namespace {

using Clock = std::chrono::steady_clock;

int64_t Nanos(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

// Totals of one profile's events whose stack passes through [function,
// function + 512): a call site of the test.
struct Totals {
  double contentions = 0;
  int64_t delay_ns = 0;
};

// The table keeps every event since the process started: tests compare
// totals taken before and after what they run.
Totals operator-(const Totals& after, const Totals& before) {
  return {after.contentions - before.contentions, after.delay_ns - before.delay_ns};
}

// A function's machine code, [begin, end).
struct CodeRange {
  uintptr_t begin;
  uintptr_t end;
};

Totals EventsThrough(ContentionProfile profile, WaitKind kind, CodeRange code) {
  Totals totals;
  ForEachContentionEvent(profile, [&](const ContentionEvent& event) {
    if (event.kind != kind) return;
    for (const uintptr_t frame : event.stack) {
      if (frame > code.begin && frame <= code.end) {
        totals.contentions += event.contentions;
        totals.delay_ns += event.delay_ns;
        return;
      }
    }
  });
  return totals;
}

// Whether a thread sleeps in `mutex`'s lock: glibc marks a normal mutex's
// lock word 2 ("locked, with waiters") before the waiter sleeps.
bool HasSleepingWaiter(std::mutex& mutex) {
  return __atomic_load_n(&mutex.native_handle()->__data.__lock, __ATOMIC_ACQUIRE) == 2;
}

// Whether a reader has entered `lock`'s rdlock: glibc counts readers from
// bit 3 of the readers word, also those that must wait for the writer.
bool HasReader(std::shared_mutex& lock) {
  const auto* native = static_cast<pthread_rwlock_t*>(lock.native_handle());
  return __atomic_load_n(&native->__data.__readers, __ATOMIC_ACQUIRE) >> 3 != 0;
}

// Whether a thread has entered sem_wait on `semaphore` to sleep: glibc
// counts sleepers in the upper half of the 64-bit semaphore word.
bool HasSemaphoreWaiter(sem_t& semaphore) {
  const auto* word = reinterpret_cast<const uint64_t*>(&semaphore);
  return __atomic_load_n(word, __ATOMIC_ACQUIRE) >> 32 != 0;
}

// A thread that holds a mutex while another waits for it, `rounds` times:
// every round the waiter blocks in WaiterLocks (the holder waits until it
// sleeps there, then `hold` more), and the holder's unlock in HolderUnlocks
// releases it.
struct HeldLock {
  std::mutex mutex;
  std::atomic<int> round{-1};        // the holder holds the lock for this round
  std::atomic<int> waiting_for{-1};  // the waiter is about to lock for this round
  std::atomic<int> done{-1};         // the waiter finished this round
  int64_t waited_ns = 0;             // the waiter's own measure, its wake-up included
};

FOUND_IN_STACKS(WaiterLocks) void WaiterLocks(HeldLock& lock) {
  const Clock::time_point start = Clock::now();
  lock.waiting_for.store(lock.round.load());
  lock.mutex.lock();
  lock.waited_ns += Nanos(Clock::now() - start);
  lock.mutex.unlock();
}

FOUND_IN_STACKS(HolderUnlocks) void HolderUnlocks(HeldLock& lock) {
  lock.mutex.unlock();
  asm volatile("");  // not a tail call: this frame stays on the stack
}

void RunHeldLock(HeldLock& lock, int rounds, std::chrono::microseconds hold) {
  std::thread holder([&] {
    for (int r = 0; r < rounds; ++r) {
      lock.mutex.lock();
      lock.round.store(r);
      while (lock.waiting_for.load() != r || !HasSleepingWaiter(lock.mutex)) {
        std::this_thread::yield();
      }
      std::this_thread::sleep_for(hold);
      HolderUnlocks(lock);
      while (lock.done.load() != r) std::this_thread::yield();
    }
  });
  std::thread waiter([&] {
    for (int r = 0; r < rounds; ++r) {
      while (lock.round.load() != r) std::this_thread::yield();
      WaiterLocks(lock);
      lock.done.store(r);
    }
  });
  holder.join();
  waiter.join();
}

// Runs `body` while the calling thread is a timing benchmark runner, so
// every thread's waits are in the timed scope.
template <typename Body>
void Timed(Body body) {
  BecomeRunner();
  EnterTimedRegion();
  body();
  LeaveTimedRegion();
}

class ContentionSamplerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kContentionHooksEnabled) GTEST_SKIP() << "no lock hooks in this build (TSan)";
    ASSERT_TRUE(LockHooksAreLive());
  }
  void TearDown() override {
    StopContentionProfile(ContentionProfile::kBlock);
    StopContentionProfile(ContentionProfile::kMutex);
  }
  void Start(ContentionProfile profile, int64_t rate) {
    const Status started = StartContentionProfile(profile, rate);
    ASSERT_TRUE(started.ok()) << started.message();
  }
};

TEST_F(ContentionSamplerTest, AHeldLockGivesOneEventPerRoundOnBothSides) {
  Start(ContentionProfile::kBlock, 1);
  Start(ContentionProfile::kMutex, 1);
  constexpr int kRounds = 40;
  constexpr std::chrono::milliseconds kHold(2);
  HeldLock lock;
  const Totals blocked_before =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kMutex, CodeOf(WaiterLocks));
  const Totals blamed_before =
      EventsThrough(ContentionProfile::kMutex, WaitKind::kMutex, CodeOf(HolderUnlocks));
  const Totals waiter_blamed_before =
      EventsThrough(ContentionProfile::kMutex, WaitKind::kMutex, CodeOf(WaiterLocks));
  Timed([&] { RunHeldLock(lock, kRounds, kHold); });

  const Totals blocked =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kMutex, CodeOf(WaiterLocks)) -
      blocked_before;
  // Both clocks are CLOCK_MONOTONIC, so the bounds are orderings, not
  // timings: every recorded wait lies inside the waiter's own measure, and
  // lasts at least the holder's sleep after the waiter fell asleep.
  const int64_t at_least = kRounds * Nanos(kHold);
  EXPECT_EQ(blocked.contentions, kRounds);
  EXPECT_GE(blocked.delay_ns, at_least);
  EXPECT_LE(blocked.delay_ns, lock.waited_ns);
  const Totals blamed =
      EventsThrough(ContentionProfile::kMutex, WaitKind::kMutex, CodeOf(HolderUnlocks)) -
      blamed_before;
  EXPECT_EQ(blamed.contentions, kRounds);
  // The unlock is charged from the start of the wait to the unlock, which
  // comes before the waiter wakes.
  EXPECT_GE(blamed.delay_ns, at_least);
  EXPECT_LE(blamed.delay_ns, lock.waited_ns);
  // The waiter's own unlocks had nobody waiting: nothing charged to them.
  EXPECT_EQ((EventsThrough(ContentionProfile::kMutex, WaitKind::kMutex, CodeOf(WaiterLocks)) -
             waiter_blamed_before)
                .contentions,
            0);
}

// Two threads hand a token back and forth through a mutex and a condition
// variable; every wait for the token is a condition-variable wait.
struct Token {
  std::mutex mutex;
  std::condition_variable turn_changed;
  int turn = 0;
  int waits = 0;          // guarded by mutex
  int64_t waited_ns = 0;  // guarded by mutex
};

FOUND_IN_STACKS(PlayTurns) void PlayTurns(Token& token, int me, int turns) {
  for (int t = 0; t < turns; ++t) {
    std::unique_lock<std::mutex> lock(token.mutex);
    while (token.turn != me) {
      const Clock::time_point start = Clock::now();
      token.turn_changed.wait(lock);
      token.waited_ns += Nanos(Clock::now() - start);
      ++token.waits;
    }
    // Long enough that what the hook adds to a wait is small beside it.
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    token.turn = 1 - me;
    token.turn_changed.notify_all();
  }
}

TEST_F(ContentionSamplerTest, EveryConditionVariableWaitIsOneBlockEvent) {
  Start(ContentionProfile::kBlock, 1);
  constexpr int kTurns = 500;
  Token token;
  const Totals before =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kCondition, CodeOf(PlayTurns));
  Timed([&] {
    std::thread other([&] { PlayTurns(token, 1, kTurns); });
    PlayTurns(token, 0, kTurns);
    other.join();
  });
  ASSERT_GE(token.waits, kTurns);  // at least the other player's every turn
  const Totals waits =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kCondition, CodeOf(PlayTurns)) - before;
  EXPECT_EQ(waits.contentions, token.waits);
  // Each recorded wait lies inside the player's own measure of it; what the
  // measure adds around the wait is small beside the other's 100 us turn.
  EXPECT_LE(waits.delay_ns, token.waited_ns);
  EXPECT_GE(waits.delay_ns, token.waited_ns / 2);
}

TEST_F(ContentionSamplerTest, SampledRatesAreScaledWithoutBias) {
  // Waits of 50-100 us at a block rate of 200 us: each is kept with
  // probability d/200us and counts 200us/d; the unlocks at fraction 2.
  Start(ContentionProfile::kBlock, 200'000);
  Start(ContentionProfile::kMutex, 2);
  constexpr int kRounds = 3000;
  HeldLock lock;
  const Totals blocked_before =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kMutex, CodeOf(WaiterLocks));
  const Totals blamed_before =
      EventsThrough(ContentionProfile::kMutex, WaitKind::kMutex, CodeOf(HolderUnlocks));
  constexpr std::chrono::microseconds kHold(50);
  Timed([&] { RunHeldLock(lock, kRounds, kHold); });
  // Unscaled samples would give about a third of the true delay, scaling
  // twice about three times it; the bounds allow 10% of sampling error
  // around the orderings of AHeldLockGivesOneEventPerRoundOnBothSides.
  const double at_least = 0.9 * kRounds * Nanos(kHold);
  const double at_most = 1.1 * lock.waited_ns;
  const Totals blocked =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kMutex, CodeOf(WaiterLocks)) -
      blocked_before;
  EXPECT_NEAR(blocked.contentions, kRounds, kRounds * 0.10);
  EXPECT_GE(blocked.delay_ns, at_least);
  EXPECT_LE(blocked.delay_ns, at_most);
  const Totals blamed =
      EventsThrough(ContentionProfile::kMutex, WaitKind::kMutex, CodeOf(HolderUnlocks)) -
      blamed_before;
  EXPECT_NEAR(blamed.contentions, kRounds, kRounds * 0.10);
  EXPECT_GE(blamed.delay_ns, at_least);
  EXPECT_LE(blamed.delay_ns, at_most);
}

TEST_F(ContentionSamplerTest, NothingOutsideATimedScopeIsRecorded) {
  Start(ContentionProfile::kBlock, 1);
  Start(ContentionProfile::kMutex, 1);
  BecomeRunner();  // a runner that is not timing: no thread is in scope
  const ContentionStats block_before = GetContentionStats(ContentionProfile::kBlock);
  const ContentionStats mutex_before = GetContentionStats(ContentionProfile::kMutex);
  HeldLock lock;
  RunHeldLock(lock, 20, std::chrono::microseconds(500));
  EXPECT_GT(lock.waited_ns, 20 * 400'000);  // the waits did happen
  EXPECT_EQ(GetContentionStats(ContentionProfile::kBlock).recorded, block_before.recorded);
  EXPECT_EQ(GetContentionStats(ContentionProfile::kMutex).recorded, mutex_before.recorded);
}

TEST_F(ContentionSamplerTest, JoinsSemaphoresAndRwlocksAreBlockEvents) {
  Start(ContentionProfile::kBlock, 1);
  Start(ContentionProfile::kMutex, 1);
  sem_t semaphore;
  sem_init(&semaphore, 0, 0);
  std::shared_mutex shared;
  const ContentionStats before = GetContentionStats(ContentionProfile::kBlock);
  Timed([&] {
    // Each waiter is seen waiting before the 2 ms start, however loaded
    // the machine; the join, which glibc does not show, gets 50 ms.
    std::thread poster([&] {
      while (!HasSemaphoreWaiter(semaphore)) std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      sem_post(&semaphore);
    });
    sem_wait(&semaphore);
    poster.join();
    shared.lock();
    std::thread reader([&] { std::shared_lock<std::shared_mutex> read(shared); });
    while (!HasReader(shared)) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    shared.unlock();
    reader.join();
    std::thread sleeper([] { std::this_thread::sleep_for(std::chrono::milliseconds(50)); });
    sleeper.join();
  });
  sem_destroy(&semaphore);
  // This test is the only one with these kinds of waits.
  EXPECT_GE(GetContentionStats(ContentionProfile::kBlock).recorded, before.recorded + 3);
  std::map<WaitKind, Totals> by_kind;
  ForEachContentionEvent(ContentionProfile::kBlock, [&](const ContentionEvent& event) {
    by_kind[event.kind].contentions += event.contentions;
    by_kind[event.kind].delay_ns += event.delay_ns;
  });
  for (const WaitKind kind : {WaitKind::kSemaphore, WaitKind::kRwlockRead, WaitKind::kJoin}) {
    EXPECT_GE(by_kind[kind].contentions, 1) << WaitKindName(kind);
    EXPECT_GE(by_kind[kind].delay_ns, 1'000'000) << WaitKindName(kind);
  }
  double blamed = 0;
  ForEachContentionEvent(ContentionProfile::kMutex, [&](const ContentionEvent& event) {
    if (event.kind == WaitKind::kRwlockWrite) blamed += event.contentions;
  });
  EXPECT_GE(blamed, 1);  // the writer's unlock released the reader
}

// Standard library waits that block in futex system calls through
// syscall(): from inline code (semaphore, latch, atomic wait) and from
// libstdc++ (future).
FOUND_IN_STACKS(AcquireSemaphore) void AcquireSemaphore(std::binary_semaphore& semaphore) {
  semaphore.acquire();
  asm volatile("");
}
FOUND_IN_STACKS(WaitForLatch) void WaitForLatch(std::latch& latch) {
  latch.wait();
  asm volatile("");
}
FOUND_IN_STACKS(WaitForAtomic) void WaitForAtomic(std::atomic<int>& value) {
  value.wait(0);
  asm volatile("");
}
FOUND_IN_STACKS(GetFuture) int GetFuture(std::future<int>& future) {
  const int value = future.get();
  asm volatile("");
  return value;
}

// Whether thread `tid` of this process is in a futex system call: the first
// field of /proc/self/task/TID/syscall is the call's number.
bool InFutexCall(pid_t tid) {
  std::ifstream syscall_file("/proc/self/task/" + std::to_string(tid) + "/syscall");
  long number = -1;
  syscall_file >> number;
  return number == SYS_futex;
}

// Runs `wait` while another thread waits until the caller sleeps in a futex
// (however loaded the machine), sleeps 30 ms more and calls `release`.
template <typename Wait, typename Release>
void WaitForRelease(Wait wait, Release release) {
  const pid_t waiter = gettid();
  std::thread releaser([&] {
    const auto give_up = Clock::now() + std::chrono::seconds(10);
    while (!InFutexCall(waiter) && Clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    release();
  });
  wait();
  releaser.join();
}

TEST_F(ContentionSamplerTest, FutexWaitsOfTheStandardLibraryAreBlockEvents) {
  Start(ContentionProfile::kBlock, 1);
  std::binary_semaphore semaphore(0);
  std::latch latch(1);
  std::atomic<int> value{0};
  std::promise<int> promise;
  std::future<int> future = promise.get_future();
  const Totals semaphore_before =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kFutex, CodeOf(AcquireSemaphore));
  const Totals latch_before =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kFutex, CodeOf(WaitForLatch));
  const Totals atomic_before =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kFutex, CodeOf(WaitForAtomic));
  const Totals future_before =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kFutex, CodeOf(GetFuture));
  Timed([&] {
    WaitForRelease([&] { AcquireSemaphore(semaphore); }, [&] { semaphore.release(); });
    WaitForRelease([&] { WaitForLatch(latch); }, [&] { latch.count_down(); });
    WaitForRelease([&] { WaitForAtomic(value); },
                   [&] {
                     value.store(1);
                     value.notify_one();
                   });
    WaitForRelease([&] { EXPECT_EQ(GetFuture(future), 7); }, [&] { promise.set_value(7); });
  });
  const std::pair<const char*, Totals> waits[] = {
      {"semaphore",
       EventsThrough(ContentionProfile::kBlock, WaitKind::kFutex, CodeOf(AcquireSemaphore)) -
           semaphore_before},
      {"latch", EventsThrough(ContentionProfile::kBlock, WaitKind::kFutex, CodeOf(WaitForLatch)) -
                    latch_before},
      {"atomic", EventsThrough(ContentionProfile::kBlock, WaitKind::kFutex, CodeOf(WaitForAtomic)) -
                     atomic_before},
      {"future", EventsThrough(ContentionProfile::kBlock, WaitKind::kFutex, CodeOf(GetFuture)) -
                     future_before},
  };
  for (const auto& [name, totals] : waits) {
    EXPECT_GE(totals.contentions, 1) << name;
    // Slept most of the releaser's 30 ms (the library spins briefly first).
    EXPECT_GE(totals.delay_ns, 15'000'000) << name;
    EXPECT_LE(totals.delay_ns, 10'000'000'000) << name;
  }
}

FOUND_IN_STACKS(OwnThreadLocks) void OwnThreadLocks(std::mutex& mutex) {
  mutex.lock();
  mutex.unlock();
  asm volatile("");
}

TEST_F(ContentionSamplerTest, BenchprofsOwnThreadsAreLeftOut) {
  Start(ContentionProfile::kBlock, 1);
  Start(ContentionProfile::kMutex, 1);
  std::mutex mutex;
  const Totals before =
      EventsThrough(ContentionProfile::kBlock, WaitKind::kMutex, CodeOf(OwnThreadLocks));
  const ContentionStats blamed_before = GetContentionStats(ContentionProfile::kMutex);
  Timed([&] {
    mutex.lock();
    std::thread own([&] {
      MarkOwnThread();
      OwnThreadLocks(mutex);
    });
    while (!HasSleepingWaiter(mutex)) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    mutex.unlock();
    own.join();
  });
  EXPECT_EQ(
      (EventsThrough(ContentionProfile::kBlock, WaitKind::kMutex, CodeOf(OwnThreadLocks)) - before)
          .contentions,
      0);
  // Nobody the profile counts waited: the unlock is not charged.
  EXPECT_EQ(GetContentionStats(ContentionProfile::kMutex).recorded, blamed_before.recorded);
}

TEST_F(ContentionSamplerTest, TheHooksDoNotAllocate) {
  if (!kAllocHooksEnabled) GTEST_SKIP() << "no allocation counter in this build";
  Start(ContentionProfile::kBlock, 1);
  Start(ContentionProfile::kMutex, 1);
  Token token;
  std::atomic<bool> go{false};
  std::atomic<int> finished{0};
  auto player = [&](int me) {
    while (!go.load()) std::this_thread::yield();
    PlayTurns(token, me, 300);
    finished.fetch_add(1);
  };
  std::thread a(player, 0), b(player, 1);
  AllocTotals during;
  Timed([&] {
    const AllocTotals before = TotalAllocations();
    go.store(true);
    while (finished.load() != 2) std::this_thread::yield();
    during = TotalAllocations() - before;
  });
  a.join();
  b.join();
  EXPECT_GE(token.waits, 300);
  EXPECT_EQ(during.allocs, 0u);
}

TEST_F(ContentionSamplerTest, ManyThreadsLockingAtFullRateNeitherCrashNorDeadlock) {
  Start(ContentionProfile::kBlock, 1);
  Start(ContentionProfile::kMutex, 1);
  static const WaitObserver kObserver{[] { return uint64_t{1}; },
                                      [](WaitKind, uint64_t, uint64_t) {}, 0};
  SetWaitObserver(&kObserver);
  std::mutex mutexes[3];
  std::shared_mutex shared;
  std::condition_variable changed;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> operations{0};
  Timed([&] {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        std::minstd_rand random(t);
        while (!stop.load(std::memory_order_relaxed)) {
          switch (random() % 4) {
            case 0: {
              std::lock_guard<std::mutex> lock(mutexes[random() % 3]);
              break;
            }
            case 1: {
              std::unique_lock<std::mutex> lock(mutexes[0]);
              changed.wait_for(lock, std::chrono::microseconds(50));
              changed.notify_one();
              break;
            }
            case 2: {
              std::shared_lock<std::shared_mutex> lock(shared);
              break;
            }
            default: {
              std::lock_guard<std::shared_mutex> lock(shared);
              break;
            }
          }
          operations.fetch_add(1, std::memory_order_relaxed);
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
    stop.store(true);
    changed.notify_all();
    for (std::thread& thread : threads) thread.join();
  });
  SetWaitObserver(nullptr);
  EXPECT_GT(operations.load(), 1000u);
  EXPECT_GT(GetContentionStats(ContentionProfile::kBlock).recorded, 0u);
  EXPECT_EQ(GetContentionStats(ContentionProfile::kBlock).dropped_table_full, 0u);
}

TEST(ContentionSamplerStartTest, RefusesANegativeRateAndASecondStart) {
  if (!kContentionHooksEnabled) {
    EXPECT_FALSE(StartContentionProfile(ContentionProfile::kBlock, 1).ok());
    return;
  }
  EXPECT_FALSE(StartContentionProfile(ContentionProfile::kBlock, -1).ok());
  ASSERT_TRUE(StartContentionProfile(ContentionProfile::kBlock, 1).ok());
  EXPECT_FALSE(StartContentionProfile(ContentionProfile::kBlock, 1).ok());
  StopContentionProfile(ContentionProfile::kBlock);
}

}  // namespace
}  // namespace benchprof::collect
