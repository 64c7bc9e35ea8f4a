// Benchmarks whose execution trace is known in advance, linked with
// benchprof::main like a user's. trace_integration_test.cc runs them with
// --trace and checks the file.
//
//   BM_BusyAndIdle     a thread named "busy" spins while one named "idle"
//                      blocks, for 300 ms: their CPU counters must say so
//                      (the busy one logs the CPU share it measured itself).
//   BM_TaskHandOff     each "job" task starts on the main thread (region
//                      "Produce" with nested "Encode") and continues on a
//                      worker thread (region "Consume", a log message).
//   BM_PausedSetup     PauseTiming/ResumeTiming around setup: "paused" spans.
//   BM_TwoRunners      ->Threads(2): a "benchmark worker 1" track.
//
// And a thread named "static-pool", made before main() like a user's global
// pool, that waits for work which never comes: it must still have a track
// and an idle CPU counter.
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "benchprof/trace.h"

namespace {

int64_t ThreadCpuNanos() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

void BM_BusyAndIdle(benchmark::State& state) {
  for (auto _ : state) {
    std::mutex mutex;
    std::condition_variable stopped;
    bool stop = false;
    std::atomic<bool> spinning{true};
    std::thread busy([&] {
      const int64_t cpu_start = ThreadCpuNanos();
      const auto wall_start = std::chrono::steady_clock::now();
      pthread_setname_np(pthread_self(), "busy");
      {
        benchprof::Region spin = benchprof::StartRegion("Spin");
        uint64_t x = 1;
        while (spinning.load(std::memory_order_relaxed)) {
          for (int i = 0; i < 10000; ++i) x = x * 6364136223846793005ull + 1;
          benchmark::DoNotOptimize(x);
        }
      }
      // What the thread got, by its own clocks: on a loaded machine a
      // spinning thread gets less than a core, and its counter must say so.
      const int64_t wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now() - wall_start)
                               .count();
      benchprof::Log("measured",
                     std::to_string(ThreadCpuNanos() - cpu_start) + " " + std::to_string(wall));
    });
    std::thread idle([&] {
      pthread_setname_np(pthread_self(), "idle");
      std::unique_lock<std::mutex> lock(mutex);
      stopped.wait(lock, [&] { return stop; });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    spinning.store(false);
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    stopped.notify_one();
    busy.join();
    idle.join();
  }
}
BENCHMARK(BM_BusyAndIdle)->Iterations(1)->UseRealTime();

// One worker thread, fed one task at a time.
class Worker {
 public:
  explicit Worker(const char* name) : name_(name), thread_([this] { Run(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  // Runs the second half of `task` on the worker and waits for it.
  void Consume(const benchprof::Task& task) {
    std::unique_lock<std::mutex> lock(mutex_);
    task_ = &task;
    changed_.notify_all();
    changed_.wait(lock, [this] { return task_ == nullptr; });
  }

 private:
  void Run() {
    pthread_setname_np(pthread_self(), name_);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return quit_ || task_ != nullptr; });
      if (quit_) return;
      {
        benchprof::Region region = benchprof::StartRegion(*task_, "Consume");
        const int64_t end = ThreadCpuNanos() + 20'000;
        while (ThreadCpuNanos() < end) {
        }
        benchprof::Log(*task_, "result", "consumed");
      }
      task_ = nullptr;
      changed_.notify_all();
    }
  }

  const char* const name_;
  std::mutex mutex_;
  std::condition_variable changed_;
  const benchprof::Task* task_ = nullptr;
  bool quit_ = false;
  std::thread thread_;
};

// Made during static initialization, like a user's global pool, and never
// given work.
Worker g_standing_pool("static-pool");

void BM_TaskHandOff(benchmark::State& state) {
  Worker worker("consumer");
  for (auto _ : state) {
    benchprof::Task job = benchprof::NewTask("job");
    {
      benchprof::Region produce = benchprof::StartRegion(job, "Produce");
      benchprof::WithRegion(job, "Encode", [] {
        const int64_t end = ThreadCpuNanos() + 10'000;
        while (ThreadCpuNanos() < end) {
        }
      });
    }
    worker.Consume(job);
    benchprof::Task child = benchprof::NewTask(job, "job.cleanup");
    benchprof::Log("note", std::string(300, 'x'));  // cut to kMaxLogMessageBytes
    child.End();
  }
}
BENCHMARK(BM_TaskHandOff)->Iterations(20);

void BM_PausedSetup(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    state.ResumeTiming();
    benchmark::DoNotOptimize(ThreadCpuNanos());
  }
}
BENCHMARK(BM_PausedSetup)->Iterations(5);

void BM_TwoRunners(benchmark::State& state) {
  for (auto _ : state) {
    benchprof::Region region = benchprof::StartRegion("Step");
    benchmark::DoNotOptimize(ThreadCpuNanos());
  }
}
BENCHMARK(BM_TwoRunners)->Threads(2)->Iterations(50);

}  // namespace
