// The allocation counter with the real malloc/operator new replacements
// linked in, driven directly (no benchmark library): which allocations count,
// on which thread, and that counts survive thread exit and concurrency.
#include "collect/alloc_counter.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <new>
#include <thread>
#include <vector>

namespace benchprof::collect {
namespace {

// Keeps an allocation from being optimised away.
template <typename T>
T* Escape(T* pointer) {
  asm volatile("" : : "g"(pointer) : "memory");
  return pointer;
}

// A size no allocator can satisfy, hidden from the compiler's size checks.
size_t Huge(size_t divisor = 1) {
  volatile size_t huge = (SIZE_MAX - 4096) / divisor;
  return huge;
}

// Counts what `body` allocates while the calling thread is a timed runner.
template <typename Body>
AllocTotals CountTimed(Body body) {
  BecomeRunner();
  const AllocTotals before = TotalAllocations();
  EnterTimedRegion();
  body();
  LeaveTimedRegion();
  return TotalAllocations() - before;
}

TEST(AllocCounterTest, HooksAreCompiledIn) { EXPECT_TRUE(kAllocHooksEnabled); }

TEST(AllocCounterTest, NothingCountsOutsideATimedRegion) {
  BecomeRunner();
  const AllocTotals before = TotalAllocations();
  free(Escape(malloc(100)));
  delete Escape(new int(1));
  EXPECT_EQ(TotalAllocations().allocs, before.allocs);
  EXPECT_FALSE(InTimedRegion());
}

TEST(AllocCounterTest, CAllocatorFamilyCountsRequestedBytes) {
  const AllocTotals counted = CountTimed([] {
    free(Escape(malloc(48)));
    void* p = Escape(calloc(3, 10));  // 30
    p = Escape(realloc(p, 70));       // 70
    free(p);
    void* q = nullptr;
    ASSERT_EQ(posix_memalign(&q, 64, 100), 0);  // 100
    free(Escape(q));
    free(Escape(aligned_alloc(32, 64)));        // 64
    free(Escape(memalign(16, 5)));              // 5
    free(Escape(reallocarray(nullptr, 4, 6)));  // 24
    free(Escape(valloc(10)));                   // 10
  });
  EXPECT_EQ(counted.allocs, 8u);
  EXPECT_EQ(counted.bytes, 48u + 30 + 70 + 100 + 64 + 5 + 24 + 10);
}

TEST(AllocCounterTest, AllocationsInsideTheCLibraryCount) {
  const AllocTotals duplicated = CountTimed([] { free(Escape(strdup("twelve bytes"))); });
  EXPECT_EQ(duplicated.allocs, 1u);
  EXPECT_EQ(duplicated.bytes, 13u);
  const AllocTotals opened = CountTimed([] {
    FILE* file = fopen("/dev/null", "r");
    ASSERT_NE(file, nullptr);
    fclose(Escape(file));
  });
  EXPECT_GE(opened.allocs, 1u);
  EXPECT_GE(opened.bytes, sizeof(FILE));
}

TEST(AllocCounterTest, InvalidRequestsAndFreeingCallsDoNotCount) {
  const AllocTotals counted = CountTimed([] {
    EXPECT_EQ(calloc(Huge(2), 4), nullptr);  // overflows
    EXPECT_EQ(errno, ENOMEM);
    EXPECT_EQ(reallocarray(nullptr, Huge(2), 4), nullptr);
    void* q = nullptr;
    EXPECT_EQ(posix_memalign(&q, 3, 16), EINVAL);
    EXPECT_EQ(q, nullptr);
  });
  EXPECT_EQ(counted.allocs, 0u);
  const AllocTotals freed = CountTimed([] {
    void* p = malloc(10);                       // counted
    EXPECT_EQ(realloc(Escape(p), 0), nullptr);  // a free
  });
  EXPECT_EQ(freed.allocs, 1u);
  EXPECT_EQ(freed.bytes, 10u);
}

TEST(AllocCounterTest, EveryOperatorNewFormCounts) {
  const AllocTotals counted = CountTimed([] {
    delete Escape(new char);                                      // 1
    delete[] Escape(new char[20]);                                // 20
    ::operator delete(Escape(::operator new(30, std::nothrow)));  // 30
    delete[] Escape(new (std::nothrow) char[40]);                 // 40
    void* a = Escape(::operator new(50, std::align_val_t(64)));   // 50
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
    ::operator delete(a, std::align_val_t(64));
    void* b = Escape(::operator new[](60, std::align_val_t(256), std::nothrow));  // 60
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 256, 0u);
    ::operator delete[](b, std::align_val_t(256));
  });
  EXPECT_EQ(counted.allocs, 6u);
  EXPECT_EQ(counted.bytes, 1u + 20 + 30 + 40 + 50 + 60);
}

TEST(AllocCounterTest, FailedNewThrowsAndNothrowReturnsNull) {
  const AllocTotals counted = CountTimed([] {
    EXPECT_THROW(Escape(::operator new(Huge())), std::bad_alloc);
    EXPECT_EQ(::operator new(Huge(), std::nothrow), nullptr);
  });
  // The thrown bad_alloc is itself a (small) heap allocation; the nothrow
  // form fails without one.
  EXPECT_EQ(counted.allocs, 1u);
  EXPECT_LT(counted.bytes, 1024u);
}

TEST(AllocCounterTest, PausedRunnerDoesNotCount) {
  BecomeRunner();
  const AllocTotals before = TotalAllocations();
  EnterTimedRegion();
  free(Escape(malloc(8)));
  LeaveTimedRegion();  // paused
  free(Escape(malloc(1000)));
  EnterTimedRegion();  // resumed
  free(Escape(malloc(16)));
  LeaveTimedRegion();
  const AllocTotals counted = TotalAllocations() - before;
  EXPECT_EQ(counted.allocs, 2u);
  EXPECT_EQ(counted.bytes, 24u);
}

// Starts a thread while the caller is paused, lets it run `body` while the
// caller times when `timed` (else while it stays paused), and joins it.
template <typename Body>
void RunOnFreshThread(bool timed, Body body) {
  std::atomic<int> step{0};
  std::thread worker([&] {
    while (step.load() != 1) std::this_thread::yield();
    body();
    step.store(2);
  });
  if (timed) EnterTimedRegion();
  step.store(1);
  while (step.load() != 2) std::this_thread::yield();
  LeaveTimedRegion();
  worker.join();
}

TEST(AllocCounterTest, OtherThreadsCountOnlyWhileARunnerTimes) {
  BecomeRunner();
  const AllocTotals before = TotalAllocations();
  RunOnFreshThread(false, [] { free(Escape(malloc(111))); });
  RunOnFreshThread(true, [] { free(Escape(malloc(222))); });
  RunOnFreshThread(false, [] { free(Escape(malloc(333))); });
  const AllocTotals counted = TotalAllocations() - before;
  EXPECT_EQ(counted.allocs, 1u);
  EXPECT_EQ(counted.bytes, 222u);
}

TEST(AllocCounterTest, CountsSurviveThousandsOfExitedThreads) {
  constexpr int kThreads = 2000;
  BecomeRunner();
  const AllocTotals before = TotalAllocations();
  for (int i = 0; i < kThreads; ++i) {
    RunOnFreshThread(true, [] { free(Escape(malloc(7))); });
  }
  const AllocTotals counted = TotalAllocations() - before;
  EXPECT_EQ(counted.allocs, static_cast<uint64_t>(kThreads));
  EXPECT_EQ(counted.bytes, 7u * kThreads);
  EXPECT_EQ(UncountedAllocations(), 0u);
}

TEST(AllocCounterTest, ConcurrentThreadsLoseNoCounts) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 50000;
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  // Started before the region so their start-up does not count.
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < kPerThread; ++i) free(Escape(malloc(3)));
      ready.fetch_sub(1);
    });
  }
  while (ready.load() != kThreads) std::this_thread::yield();
  const AllocTotals counted = CountTimed([&] {
    go.store(true);
    while (ready.load() != 0) std::this_thread::yield();
  });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(counted.allocs, static_cast<uint64_t>(kThreads) * kPerThread);
  EXPECT_EQ(counted.bytes, 3ull * kThreads * kPerThread);
}

}  // namespace
}  // namespace benchprof::collect
