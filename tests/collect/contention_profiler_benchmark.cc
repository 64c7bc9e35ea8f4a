// What the lock hooks cost, in one binary and one run:
//   * an uncontended lock/unlock pair through glibc directly, as a program
//     without the hooks calls it (through the PLT; the baseline), through
//     the hooks with no contention profile running, and with the block and
//     mutex profiles both running (targets: at most 1 ns and 3 ns more than
//     glibc);
//   * a cheap system call through glibc's syscall() directly and through
//     the hook, profiles off and on (the hook's cost on every syscall()
//     call that is not a futex wait);
//   * a contended hand-off between two threads (a mutex and a condition
//     variable, every turn a wait) without and with both profiles, whose
//     time the futex wake-ups dominate;
//   * what recording one contended event costs, alone: the block profile's
//     record of a wait that ended (a stack capture dominates), from a thread
//     that has recorded many (after its first 32 captures) and from a new
//     thread (its first 32).
//
//   build/release/tests/collect/contention_profiler_benchmark --benchmark_repetitions=10
//       --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "collect/contention_sampler.h"

namespace {

using benchprof::collect::ContentionProfile;
using benchprof::collect::GetContentionStats;
using benchprof::collect::StartContentionProfile;
using benchprof::collect::StopContentionProfile;

using LockFunction = int (*)(pthread_mutex_t*);

// glibc's own functions, past this program's hooks.
const LockFunction kGlibcLock =
    reinterpret_cast<LockFunction>(dlsym(RTLD_NEXT, "pthread_mutex_lock"));
const LockFunction kGlibcUnlock =
    reinterpret_cast<LockFunction>(dlsym(RTLD_NEXT, "pthread_mutex_unlock"));

// What a program without the hooks runs for pthread_mutex_lock: a direct
// call to a PLT entry, which jumps through a pointer to glibc. These compile
// to exactly that jump.
[[gnu::noinline]] int PltLock(pthread_mutex_t* mutex) { return kGlibcLock(mutex); }
[[gnu::noinline]] int PltUnlock(pthread_mutex_t* mutex) { return kGlibcUnlock(mutex); }

using SyscallFunction = long (*)(long, ...);
const SyscallFunction kGlibcSyscall =
    reinterpret_cast<SyscallFunction>(dlsym(RTLD_NEXT, "syscall"));

// Starts both profiles for the benchmark when `on`; false if they cannot run.
bool StartProfiles(benchmark::State& state, bool on) {
  if (!on) return true;
  if (!StartContentionProfile(ContentionProfile::kBlock, 1).ok() ||
      !StartContentionProfile(ContentionProfile::kMutex, 1).ok()) {
    state.SkipWithError("cannot start the contention profiles (no lock hooks in this build)");
    return false;
  }
  return true;
}

void StopProfiles() {
  StopContentionProfile(ContentionProfile::kBlock);
  StopContentionProfile(ContentionProfile::kMutex);
}

void BM_UncontendedGlibc(benchmark::State& state) {
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  for (auto _ : state) {
    PltLock(&mutex);
    benchmark::ClobberMemory();
    PltUnlock(&mutex);
  }
}
BENCHMARK(BM_UncontendedGlibc);

// Through the hooks (pthread_mutex_lock is this program's), profiles off
// (profiles:0) or on (profiles:1).
void BM_UncontendedHooked(benchmark::State& state) {
  if (!StartProfiles(state, state.range(0) != 0)) return;
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  for (auto _ : state) {
    pthread_mutex_lock(&mutex);
    benchmark::ClobberMemory();
    pthread_mutex_unlock(&mutex);
  }
  StopProfiles();
}
BENCHMARK(BM_UncontendedHooked)->ArgName("profiles")->Arg(0)->Arg(1);

void BM_SyscallGlibc(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(kGlibcSyscall(SYS_getppid));
}
BENCHMARK(BM_SyscallGlibc);

void BM_SyscallHooked(benchmark::State& state) {
  if (!StartProfiles(state, state.range(0) != 0)) return;
  for (auto _ : state) benchmark::DoNotOptimize(syscall(SYS_getppid));
  StopProfiles();
}
BENCHMARK(BM_SyscallHooked)->ArgName("profiles")->Arg(0)->Arg(1);

// Two threads pass a turn back and forth; each iteration is one round trip
// (each thread waits once).
void BM_ContendedHandoff(benchmark::State& state) {
  if (!StartProfiles(state, state.range(0) != 0)) return;
  std::mutex mutex;
  std::condition_variable changed;
  int turn = 0;
  bool stop = false;
  std::thread other([&] {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return turn == 1 || stop; });
      if (stop) return;
      turn = 0;
      changed.notify_one();
    }
  });
  const uint64_t before = GetContentionStats(ContentionProfile::kBlock).recorded +
                          GetContentionStats(ContentionProfile::kMutex).recorded;
  for (auto _ : state) {
    std::unique_lock<std::mutex> lock(mutex);
    turn = 1;
    changed.notify_one();
    changed.wait(lock, [&] { return turn == 0; });
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  changed.notify_one();
  other.join();
  const uint64_t events = GetContentionStats(ContentionProfile::kBlock).recorded +
                          GetContentionStats(ContentionProfile::kMutex).recorded - before;
  state.counters["events/iter"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kAvgIterations);
  StopProfiles();
}
BENCHMARK(BM_ContendedHandoff)->ArgName("profiles")->Arg(0)->Arg(1)->UseRealTime();

void BM_RecordContendedWait(benchmark::State& state) {
  if (!StartProfiles(state, true)) return;
  const int64_t begin = benchprof::collect::internal::NowNanos();
  for (auto _ : state) {
    const uint64_t bucket =
        benchprof::collect::internal::PrepareWaitRecord(benchprof::collect::WaitKind::kMutex);
    benchprof::collect::internal::RecordWait(benchprof::collect::WaitKind::kMutex, begin,
                                             begin + 1000, 0, bucket);
  }
  StopProfiles();
}
BENCHMARK(BM_RecordContendedWait);

// The same on a new thread for each batch of 32: the captures a short-lived
// thread makes, frame by frame. The batch is timed on its thread (manual
// time); an iteration is one event.
void BM_RecordContendedWaitNewThread(benchmark::State& state) {
  if (!StartProfiles(state, true)) return;
  constexpr int kBatch = 32;
  const int64_t begin = benchprof::collect::internal::NowNanos();
  for (auto _ : state) {
    std::chrono::duration<double> batch{};
    std::thread thread([&] {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < kBatch; ++i) {
        const uint64_t bucket =
            benchprof::collect::internal::PrepareWaitRecord(benchprof::collect::WaitKind::kMutex);
        benchprof::collect::internal::RecordWait(benchprof::collect::WaitKind::kMutex, begin,
                                                 begin + 1000, 0, bucket);
      }
      batch = std::chrono::steady_clock::now() - start;
    });
    thread.join();
    state.SetIterationTime(batch.count() / kBatch);
  }
  StopProfiles();
}
BENCHMARK(BM_RecordContendedWaitNewThread)->UseManualTime();

}  // namespace
