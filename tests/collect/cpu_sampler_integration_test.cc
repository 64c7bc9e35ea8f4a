// The CPU sampler in this process, with the real malloc replacement linked in:
// its SIGPROF handler never allocates and preserves errno, threads started
// after sampling began are sampled, and sample counts match CPU time.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/time.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "collect/alloc_counter.h"
#include "collect/cpu_sampler.h"
#include "collect/timed_scope.h"

namespace benchprof::collect {
namespace {

int64_t ThreadCpuNanos() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// Burns `nanos` of CPU time without allocating; returns the errno values seen
// that were not `expected_errno` (a handler that clobbers errno shows here).
[[gnu::noinline]] int SpinCheckingErrno(int64_t nanos, int expected_errno) {
  int clobbered = 0;
  const int64_t end = ThreadCpuNanos() + nanos;
  uint64_t x = 1;
  errno = expected_errno;
  do {
    for (int i = 0; i < 5000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      if (errno != expected_errno) {
        ++clobbered;
        errno = expected_errno;
      }
    }
    asm volatile("" : : "r"(x));
  } while (ThreadCpuNanos() < end);
  return clobbered;
}

uint64_t SampleCount() {
  uint64_t total = 0;
  ForEachCpuSample([&](const CpuSample& sample) { total += sample.weight; });
  return total;
}

class CpuSamplerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kCpuSamplerSupported) GTEST_SKIP() << "no CPU profiler under ThreadSanitizer";
    // As the CPU profile kind does: threads started while sampling arm
    // their own timers.
    ASSERT_TRUE(AddThreadListener(&kCpuSamplerThreadListener));
  }
  void TearDown() override {
    LeaveTimedRegion();
    StopCpuSampler();
  }
};

TEST_F(CpuSamplerTest, HandlerNeverAllocatesAndPreservesErrno) {
  if (!kAllocHooksEnabled) GTEST_SKIP() << "built without allocation hooks (sanitizer build)";
  ASSERT_TRUE(StartCpuSampler(250).ok());
  BecomeRunner();
  const AllocTotals before = TotalAllocations();
  EnterTimedRegion();
  const int clobbered = SpinCheckingErrno(600'000'000, 4242);
  LeaveTimedRegion();
  const AllocTotals during = TotalAllocations() - before;
  StopCpuSampler();

  EXPECT_GT(SampleCount(), 100u);  // 0.6 CPU-s at 250 Hz: ~150 samples
  // The spin loop allocates nothing: every allocation would be the handler's.
  EXPECT_EQ(during.allocs, 0u);
  EXPECT_EQ(clobbered, 0);
}

TEST_F(CpuSamplerTest, NothingIsSampledOutsideTheTimedScope) {
  ASSERT_TRUE(StartCpuSampler(250).ok());
  BecomeRunner();  // a runner that never enters its loop
  SpinCheckingErrno(300'000'000, 0);
  StopCpuSampler();
  EXPECT_EQ(SampleCount(), 0u);
}

TEST_F(CpuSamplerTest, ThreadsStartedLaterAreSampledInProportionToTheirCpuTime) {
  constexpr int kHz = 100;
  ASSERT_TRUE(StartCpuSampler(kHz).ok());
  BecomeRunner();
  EnterTimedRegion();  // the pool threads count while this runner times
  std::atomic<int64_t> cpu_nanos{0};
  std::vector<std::thread> pool;
  for (int i = 0; i < 2; ++i) {
    pool.emplace_back([&] {
      const int64_t start = ThreadCpuNanos();
      SpinCheckingErrno(700'000'000, 0);
      cpu_nanos += ThreadCpuNanos() - start;
    });
  }
  for (std::thread& t : pool) t.join();
  LeaveTimedRegion();
  StopCpuSampler();

  const double expected = static_cast<double>(cpu_nanos.load()) * kHz / 1e9;  // ~140
  const auto samples = static_cast<double>(SampleCount());
  EXPECT_NEAR(samples, expected, expected * 0.1) << "samples " << samples;
  const CpuSamplerStats stats = GetCpuSamplerStats();
  EXPECT_EQ(stats.dropped_buffer_full, 0u);
  EXPECT_EQ(stats.dropped_reentrant, 0u);
}

// A pool made before the profile started: its threads were never set up
// for the fast unwinder, so their handlers walk frame by frame. They must be
// sampled in proportion to their CPU time, with whole stacks, and without
// allocating.
TEST_F(CpuSamplerTest, ThreadsRunningBeforeTheStartAreSampledWithWholeStacks) {
  constexpr int kHz = 100;
  std::atomic<bool> go{false};
  std::atomic<int64_t> cpu_nanos{0};
  AllocTotals before, after;
  std::thread early([&] {
    while (!go.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    before = TotalAllocations();
    const int64_t start = ThreadCpuNanos();
    SpinCheckingErrno(700'000'000, 0);
    cpu_nanos = ThreadCpuNanos() - start;
    after = TotalAllocations();
  });
  ASSERT_TRUE(StartCpuSampler(kHz).ok());
  BecomeRunner();
  EnterTimedRegion();  // the early thread counts while this runner times
  go = true;
  early.join();  // this thread sleeps: every sample is the early thread's
  LeaveTimedRegion();
  StopCpuSampler();

  const double expected = static_cast<double>(cpu_nanos.load()) * kHz / 1e9;  // ~70
  size_t samples = 0, shallow = 0;
  ForEachCpuSample([&](const CpuSample& sample) {
    samples += sample.weight;
    // Spin <- the lambda <- std::thread's runner <- start_thread <- clone
    if (sample.stack.size() < 5) ++shallow;
  });
  EXPECT_NEAR(static_cast<double>(samples), expected, expected * 0.1);
  EXPECT_EQ(shallow, 0u);
  const CpuSamplerStats stats = GetCpuSamplerStats();
  EXPECT_EQ(stats.truncated, 0u);  // the walk found the interrupted frame
  EXPECT_EQ(stats.dropped_reentrant, 0u);
  if (kAllocHooksEnabled) {
    EXPECT_EQ((after - before).allocs, 0u);
  }
}

TEST_F(CpuSamplerTest, AProcessWideTimerAlongsideDoesNotDoubleCount) {
  constexpr int kHz = 100;
  // Someone else's setitimer(ITIMER_PROF) at the same rate: its signals
  // (si_code SI_KERNEL) must not become samples.
  itimerval process_timer{{0, 1'000'000 / kHz}, {0, 1'000'000 / kHz}};
  ASSERT_EQ(setitimer(ITIMER_PROF, &process_timer, nullptr), 0);
  ASSERT_TRUE(StartCpuSampler(kHz).ok());
  BecomeRunner();
  EnterTimedRegion();
  const int64_t start = ThreadCpuNanos();
  SpinCheckingErrno(600'000'000, 0);
  const int64_t cpu_nanos = ThreadCpuNanos() - start;
  LeaveTimedRegion();
  StopCpuSampler();
  itimerval off{};
  setitimer(ITIMER_PROF, &off, nullptr);
  const double expected = static_cast<double>(cpu_nanos) * kHz / 1e9;  // ~60
  EXPECT_NEAR(static_cast<double>(SampleCount()), expected, expected * 0.1);
}

TEST_F(CpuSamplerTest, StacksReachTheCallersOfTheInterruptedFunction) {
  ASSERT_TRUE(StartCpuSampler(250).ok());
  BecomeRunner();
  EnterTimedRegion();
  SpinCheckingErrno(300'000'000, 0);
  LeaveTimedRegion();
  StopCpuSampler();
  size_t samples = 0, deep = 0;
  ForEachCpuSample([&](const CpuSample& sample) {
    ++samples;
    // Spin <- this test body <- gtest frames <- main: well over 5 frames.
    if (sample.stack.size() > 5) ++deep;
  });
  ASSERT_GT(samples, 0u);
  EXPECT_EQ(deep, samples);
  EXPECT_EQ(GetCpuSamplerStats().truncated, 0u);
}

TEST_F(CpuSamplerTest, RejectsBadRatesAndASecondStart) {
  EXPECT_FALSE(StartCpuSampler(0).ok());
  EXPECT_FALSE(StartCpuSampler(10001).ok());
  ASSERT_TRUE(StartCpuSampler(100).ok());
  EXPECT_EQ(StartCpuSampler(100).message(), "the CPU profiler is already running");
}

}  // namespace
}  // namespace benchprof::collect
