// <benchprof/measure.h>: a region's allocations are counted exactly, on the
// calling thread and on a thread the region feeds, and nothing outside the
// region is; its wall and CPU times are sane; builds without the allocator
// hooks say they did not count rather than report zeros.
#include "benchprof/measure.h"

#include <gtest/gtest.h>
#include <time.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <thread>

namespace benchprof {
namespace {

// Keeps an allocation from being optimised away.
void* Escape(void* pointer) {
  asm volatile("" : : "g"(pointer) : "memory");
  return pointer;
}

// Three allocations, 24 + 100 + 4000 bytes.
constexpr uint64_t kCallerAllocations = 3;
constexpr uint64_t kCallerBytes = 24 + 100 + 4000;
void MakeCallerAllocations() {
  std::free(Escape(std::malloc(24)));
  std::free(Escape(std::malloc(100)));
  ::operator delete(Escape(::operator new(4000)));
}

// Three allocations, 8 + 5 * 10 + 333 bytes.
constexpr uint64_t kHelperAllocations = 3;
constexpr uint64_t kHelperBytes = 8 + 50 + 333;
void MakeHelperAllocations() {
  std::free(Escape(std::malloc(8)));
  std::free(Escape(std::calloc(5, 10)));
  ::operator delete(Escape(::operator new(333)));
}

// Steps of a test that hands work between the caller and a helper thread.
// Spinning with yield: waiting must not allocate.
void AwaitStep(const std::atomic<int>& step, int wanted) {
  while (step.load(std::memory_order_acquire) < wanted) std::this_thread::yield();
}

TEST(MeasureRegionTest, CountsTheRegionsAllocationsOnEveryThread) {
  std::atomic<int> step{0};
  std::thread helper([&step] {
    // Outside the region: whatever a new thread allocates for itself.
    std::free(Escape(std::malloc(1)));
    step.store(1, std::memory_order_release);
    AwaitStep(step, 2);
    MakeHelperAllocations();
    step.store(3, std::memory_order_release);
  });
  AwaitStep(step, 1);
  const RegionCost cost = MeasureRegion([&step] {
    MakeCallerAllocations();
    step.store(2, std::memory_order_release);
    AwaitStep(step, 3);
  });
  helper.join();

  EXPECT_EQ(cost.allocations_counted, static_cast<bool>(ALLOC_HOOKS_ENABLED));
  if (!ALLOC_HOOKS_ENABLED) {
    EXPECT_EQ(cost.allocations, 0u);
    EXPECT_EQ(cost.allocated_bytes, 0u);
    GTEST_SKIP() << "built without the allocator hooks: allocations are not counted";
  }
  EXPECT_EQ(cost.allocations, kCallerAllocations + kHelperAllocations);
  EXPECT_EQ(cost.allocated_bytes, kCallerBytes + kHelperBytes);
}

TEST(MeasureRegionTest, AllocationsOutsideTheRegionDoNotCount) {
  std::atomic<int> step{0};
  std::thread helper([&step] {
    MakeHelperAllocations();  // before the region
    step.store(1, std::memory_order_release);
    AwaitStep(step, 2);  // the region has ended
    MakeHelperAllocations();
    step.store(3, std::memory_order_release);
  });
  MakeCallerAllocations();  // before the region
  AwaitStep(step, 1);
  const RegionCost cost = MeasureRegion([] { std::free(Escape(std::malloc(10))); });
  step.store(2, std::memory_order_release);
  MakeCallerAllocations();  // after it
  AwaitStep(step, 3);
  helper.join();
  const RegionCost empty = MeasureRegion([] {});

  if (!ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "built without the allocator hooks";
  EXPECT_EQ(cost.allocations, 1u);
  EXPECT_EQ(cost.allocated_bytes, 10u);
  EXPECT_EQ(empty.allocations, 0u);
  EXPECT_EQ(empty.allocated_bytes, 0u);
}

TEST(MeasureRegionTest, WallAndCpuTimes) {
  const RegionCost idle = MeasureRegion([] {});
  EXPECT_GE(idle.wall_seconds, 0);
  EXPECT_GE(idle.cpu_seconds, 0);

  // Busy until this thread has run for 5 ms of CPU, however loaded the
  // machine is.
  const RegionCost busy = MeasureRegion([] {
    timespec start{}, now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    do {
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1'000'000'000L + (now.tv_nsec - start.tv_nsec) <
             5'000'000L);
  });
  EXPECT_GE(busy.cpu_seconds, 0.004);
  EXPECT_GE(busy.wall_seconds, 0.004);
}

}  // namespace
}  // namespace benchprof
