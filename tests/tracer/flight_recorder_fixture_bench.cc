// A benchmark that works and then hangs, for the flight recorder
// (--trace_window) end to end; linked with benchprof::main like a user's.
//
//   BM_WorkThenHang/signal:N   two threads named "flight-worker" run 20 µs
//       regions named "early work" for the first second, "late work" for the
//       next two, then each opens a region "waiting for a signal that never
//       comes" and blocks for ever. N = 0: the benchmark hangs (for
//       --timeout); N = a signal number: once both threads wait, the
//       process sends itself that signal (as a user's Ctrl-C would).
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "benchprof/trace.h"

namespace {

using Clock = std::chrono::steady_clock;

void SpinFor(std::chrono::microseconds duration) {
  const auto until = Clock::now() + duration;
  while (Clock::now() < until) {
  }
}

void Work(const char* region, Clock::time_point until) {
  while (Clock::now() < until) {
    benchprof::Region r = benchprof::StartRegion(region);
    // 20 µs: 100,000 regions a second over both workers, few enough that a
    // writer starved of CPU on a loaded machine still finds free chunks.
    SpinFor(std::chrono::microseconds(20));
  }
}

void BM_WorkThenHang(benchmark::State& state) {
  for (auto _ : state) {
    std::mutex mutex;
    std::condition_variable changed;
    int waiting = 0;
    const auto start = Clock::now();
    auto worker = [&] {
      pthread_setname_np(pthread_self(), "flight-worker");
      Work("early work", start + std::chrono::seconds(1));
      Work("late work", start + std::chrono::seconds(3));
      benchprof::Region hung = benchprof::StartRegion("waiting for a signal that never comes");
      std::unique_lock<std::mutex> lock(mutex);
      ++waiting;
      changed.notify_all();
      changed.wait(lock, [] { return false; });
    };
    std::thread first(worker), second(worker);
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return waiting == 2; });
    }
    if (state.range(0) != 0) raise(static_cast<int>(state.range(0)));
    first.join();  // never returns: the workers wait for ever
    second.join();
  }
}
BENCHMARK(BM_WorkThenHang)->ArgName("signal")->Arg(0)->Arg(SIGINT)->Iterations(1);

}  // namespace
