// The heap sampler inside the real allocator replacements, driven directly
// (no benchmark library): which allocations are sampled, that sampled
// blocks behave like any other block through every allocator entry point,
// that frees are matched, and where stacks start.
#include "collect/heap_sampler.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include <cmath>
#include <new>
#include <thread>
#include <vector>

#include "collect/alloc_counter.h"
#include "collect/timed_scope.h"

extern "C" {
void* __libc_malloc(size_t size) noexcept;
void __libc_free(void* ptr) noexcept;
}

namespace benchprof::collect {
namespace {

template <typename T>
T* Escape(T* pointer) {
  asm volatile("" : : "g"(pointer) : "memory");
  return pointer;
}

struct BucketTotals {
  uint64_t allocs = 0;
  uint64_t frees = 0;
};

// Every test uses object sizes of its own, so buckets left by other tests
// do not count.
BucketTotals BucketsOfSize(size_t size) {
  BucketTotals totals;
  ForEachHeapBucket([&](const HeapBucket& bucket) {
    if (bucket.size != size) return;
    totals.allocs += bucket.allocs;
    totals.frees += bucket.frees;
  });
  return totals;
}

// Runs `body` as a timed benchmark runner.
template <typename Body>
void Timed(Body body) {
  BecomeRunner();
  EnterTimedRegion();
  body();
  LeaveTimedRegion();
}

bool IsAligned(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

class HeapSamplerTest : public ::testing::Test {
 protected:
  void Start(int64_t rate) {
    const Status started = StartHeapSampler(rate);
    ASSERT_TRUE(started.ok()) << started.message();
  }
  void TearDown() override { StopHeapSampler(); }
};

TEST_F(HeapSamplerTest, RateOneSamplesEveryTimedAllocationAndMatchesFrees) {
  Start(1);
  Timed([] {
    for (int i = 0; i < 100; ++i) free(Escape(malloc(1001)));
    for (int i = 0; i < 50; ++i) delete[] Escape(new char[1011]);
  });
  EXPECT_EQ(BucketsOfSize(1001).allocs, 100u);
  EXPECT_EQ(BucketsOfSize(1001).frees, 100u);
  EXPECT_EQ(BucketsOfSize(1011).allocs, 50u);
  EXPECT_EQ(BucketsOfSize(1011).frees, 50u);
}

// The allocation counter sees every malloc of the process: had taking a
// sample (unwinding, bucket lookup) allocated, the count would exceed the
// program's own allocations.
TEST_F(HeapSamplerTest, TakingASampleAllocatesNothing) {
  Start(1);
  BecomeRunner();
  const AllocTotals before = TotalAllocations();
  Timed([] {
    for (int i = 0; i < 100; ++i) free(Escape(malloc(1012)));
  });
  const AllocTotals counted = TotalAllocations() - before;
  EXPECT_EQ(BucketsOfSize(1012).allocs, 100u);
  EXPECT_EQ(counted.allocs, 100u);
  EXPECT_EQ(counted.bytes, 100u * 1012);
}

TEST_F(HeapSamplerTest, NothingIsSampledOutsideTheTimedScope) {
  Start(1);
  BecomeRunner();  // a runner that is not timing
  free(Escape(malloc(1002)));
  EXPECT_EQ(BucketsOfSize(1002).allocs, 0u);
}

TEST_F(HeapSamplerTest, OrdinaryBlocksAreNeverTakenForSampledOnes) {
  for (const size_t size : {size_t{1}, size_t{24}, size_t{4000}, size_t{1} << 20}) {
    void* block = Escape(__libc_malloc(size));
    EXPECT_FALSE(IsSampledBlock(block)) << size;
    __libc_free(block);
  }
  EXPECT_FALSE(IsSampledBlock(nullptr));
}

TEST_F(HeapSamplerTest, SampledBlocksWorkThroughEveryEntryPoint) {
  Start(1);
  Timed([] {
    char* p = static_cast<char*>(Escape(malloc(1003)));
    ASSERT_TRUE(IsSampledBlock(p));
    EXPECT_TRUE(IsAligned(p, 16));
    EXPECT_EQ(malloc_usable_size(p), 1003u);
    for (int i = 0; i < 1003; ++i) p[i] = static_cast<char>(i);
    p = static_cast<char*>(Escape(realloc(p, 5003)));  // grows: moves
    ASSERT_NE(p, nullptr);
    for (int i = 0; i < 1003; ++i) ASSERT_EQ(p[i], static_cast<char>(i)) << i;
    p = static_cast<char*>(Escape(realloc(p, 13)));  // shrinks
    for (int i = 0; i < 13; ++i) ASSERT_EQ(p[i], static_cast<char>(i)) << i;
    EXPECT_EQ(realloc(p, 0), nullptr);  // frees

    auto* zeroed = static_cast<unsigned char*>(Escape(calloc(7, 149)));
    ASSERT_TRUE(IsSampledBlock(zeroed));
    for (int i = 0; i < 7 * 149; ++i) ASSERT_EQ(zeroed[i], 0) << i;
    free(zeroed);

    for (const size_t alignment : {size_t{16}, size_t{32}, size_t{64}}) {
      for (int i = 0; i < 4; ++i) {  // glibc's base alignment varies
        void* aligned = Escape(aligned_alloc(alignment, 1013));
        EXPECT_TRUE(IsSampledBlock(aligned));
        EXPECT_TRUE(IsAligned(aligned, alignment)) << alignment;
        EXPECT_EQ(malloc_usable_size(aligned), 1013u);
        free(aligned);
      }
    }
    void* aligned = Escape(aligned_alloc(64, 1004));
    EXPECT_TRUE(IsAligned(aligned, 64));
    free(aligned);
    void* page = nullptr;
    ASSERT_EQ(posix_memalign(&page, 4096, 1004), 0);
    EXPECT_TRUE(IsAligned(Escape(page), 4096));
    free(page);
    void* old_style = Escape(memalign(256, 1004));
    EXPECT_TRUE(IsAligned(old_style, 256));
    free(old_style);
    void* avx = Escape(::operator new (1014, std::align_val_t{32}));
    EXPECT_TRUE(IsSampledBlock(avx));
    EXPECT_TRUE(IsAligned(avx, 32));
    ::operator delete(avx, std::align_val_t{32});
    void* big_aligned = Escape(::operator new (1004, std::align_val_t{128}));
    EXPECT_TRUE(IsSampledBlock(big_aligned));
    EXPECT_TRUE(IsAligned(big_aligned, 128));
    ::operator delete (big_aligned, std::align_val_t{128});
    void* nothrow = Escape(::operator new[](1004, std::nothrow));
    ASSERT_NE(nothrow, nullptr);
    ::operator delete[](nothrow);
  });
  EXPECT_EQ(BucketsOfSize(1003).allocs, 1u);
  EXPECT_EQ(BucketsOfSize(1003).frees, 1u);
  EXPECT_EQ(BucketsOfSize(5003).frees, 1u);
  EXPECT_EQ(BucketsOfSize(13).frees, 1u);
  EXPECT_EQ(BucketsOfSize(7 * 149).allocs, 1u);
  EXPECT_EQ(BucketsOfSize(1013).allocs, 12u);
  EXPECT_EQ(BucketsOfSize(1013).frees, 12u);
  EXPECT_EQ(BucketsOfSize(1014).frees, 1u);
  EXPECT_EQ(BucketsOfSize(1004).allocs, 5u);
  EXPECT_EQ(BucketsOfSize(1004).frees, 5u);
}

TEST_F(HeapSamplerTest, AnOrdinaryBlockReallocatedWhileSamplingKeepsItsContents) {
  char* p = static_cast<char*>(Escape(malloc(100)));  // not timed: ordinary
  ASSERT_FALSE(IsSampledBlock(p));
  for (int i = 0; i < 100; ++i) p[i] = static_cast<char>(i + 1);
  Start(1);
  Timed([&] { p = static_cast<char*>(Escape(realloc(p, 1005))); });
  ASSERT_TRUE(IsSampledBlock(p));
  for (int i = 0; i < 100; ++i) ASSERT_EQ(p[i], static_cast<char>(i + 1)) << i;
  free(p);
  EXPECT_EQ(BucketsOfSize(1005).allocs, 1u);
  EXPECT_EQ(BucketsOfSize(1005).frees, 1u);
}

[[gnu::noinline]] void* AllocateHere() { return Escape(malloc(1006)); }

TEST_F(HeapSamplerTest, StacksStartAtTheAllocatorsCaller) {
  Start(1);
  void* block = nullptr;
  Timed([&] { block = AllocateHere(); });
  free(block);
  const auto function = reinterpret_cast<uintptr_t>(&AllocateHere);
  int buckets = 0;
  ForEachHeapBucket([&](const HeapBucket& bucket) {
    if (bucket.size != 1006) return;
    ++buckets;
    ASSERT_GE(bucket.stack.size(), 2u);
    // The innermost frame is the return address into AllocateHere.
    EXPECT_GT(bucket.stack[0], function);
    EXPECT_LT(bucket.stack[0], function + 64);
  });
  EXPECT_EQ(buckets, 1);
}

TEST_F(HeapSamplerTest, OtherThreadsAreSampledWhileARunnerTimes) {
  Start(1);
  constexpr int kThreads = 4;
  constexpr int kPairs = 10'000;
  Timed([] {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([] {
        for (int i = 0; i < kPairs; ++i) free(Escape(malloc(1007)));
      });
    }
    for (std::thread& thread : threads) thread.join();
  });
  EXPECT_EQ(BucketsOfSize(1007).allocs, uint64_t{kThreads} * kPairs);
  EXPECT_EQ(BucketsOfSize(1007).frees, uint64_t{kThreads} * kPairs);
}

TEST_F(HeapSamplerTest, FreesAreMatchedAfterTheSamplerStops) {
  Start(1);
  void* block = nullptr;
  Timed([&] { block = Escape(malloc(1008)); });
  StopHeapSampler();
  Timed([] { free(Escape(malloc(1008))); });  // not sampled any more
  free(block);
  EXPECT_EQ(BucketsOfSize(1008).allocs, 1u);
  EXPECT_EQ(BucketsOfSize(1008).frees, 1u);
}

// At a mean of 4096 bytes, an object of 1009 bytes is sampled with
// probability p = 1 - exp(-1009/4096) = 0.2184: of 200,000, about 43,700
// (standard deviation 185). The ±3% bound is seven standard deviations.
TEST_F(HeapSamplerTest, ObjectsAreSampledWithGosProbability) {
  Start(4096);
  constexpr int kObjects = 200'000;
  Timed([] {
    for (int i = 0; i < kObjects; ++i) free(Escape(malloc(1009)));
  });
  const double expected = kObjects * (1 - std::exp(-1009.0 / 4096.0));
  EXPECT_NEAR(static_cast<double>(BucketsOfSize(1009).allocs) / expected, 1.0, 0.03);
}

TEST_F(HeapSamplerTest, StartRejectsBadRatesAndDoubleStarts) {
  EXPECT_FALSE(StartHeapSampler(0).ok());
  Start(1);
  EXPECT_FALSE(StartHeapSampler(1).ok());
}

}  // namespace
}  // namespace benchprof::collect
