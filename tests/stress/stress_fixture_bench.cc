// The stress fixture: every collector at its highest rate meets what real
// benchmarks do — threads that allocate, throw and catch exceptions and
// contend for a lock; benchmark code in a shared library that is dlopen()ed
// and dlclose()d while profiling; fork() with a child that exits through
// exit() (atexit handlers and all). stress_integration_test.cc runs it with
// every profile and checks what was written.
//
// A benchmark that sees something wrong reports it with SkipWithError, so
// bench exits 1 naming it:
//   - the plugin cannot be loaded (STRESS_PLUGIN names it);
//   - a forked child has a POSIX timer or an interval timer of its parent's,
//     the signals its parent blocks for its watcher thread blocked or SIGPIPE
//     ignored, or does not exit with its own status (the harness's exit handlers ran
//     in it and changed it), or does not exit within 10 s (a deadlock, e.g.
//     on a lock another thread held at fork()).
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace stress_fixture {

std::mutex g_shared;
std::map<int, std::string> g_table;

[[gnu::noinline]] void ThrowAndCatch(int i) {
  try {
    if (i >= 0) throw std::runtime_error("stress " + std::to_string(i));
  } catch (const std::runtime_error& e) {
    benchmark::DoNotOptimize(e.what());
  }
}

// Threads that allocate, throw and catch, and contend for one lock.
void BM_StressThreads(benchmark::State& state) {
  int i = state.thread_index() * 1000;
  for (auto _ : state) {
    std::vector<std::string> v(8, std::string(32, 'x'));
    ThrowAndCatch(i);
    {
      std::lock_guard<std::mutex> lock(g_shared);
      g_table[i % 512] = v.back();
    }
    ++i;
  }
}
BENCHMARK(BM_StressThreads)->Threads(4)->UseRealTime();

// Loads the plugin, runs its code, unloads it: every iteration.
void BM_StressPlugin(benchmark::State& state) {
  const char* path = std::getenv("STRESS_PLUGIN");
  if (path == nullptr) {
    state.SkipWithError("STRESS_PLUGIN is not set");
    return;
  }
  uint64_t x = 1;
  for (auto _ : state) {
    void* plugin = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (plugin == nullptr) {
      state.SkipWithError(dlerror());
      break;
    }
    auto work = reinterpret_cast<uint64_t (*)(uint64_t)>(dlsym(plugin, "stress_plugin_work"));
    if (work == nullptr) {
      state.SkipWithError("no stress_plugin_work in STRESS_PLUGIN");
      dlclose(plugin);
      break;
    }
    for (int i = 0; i < 20; ++i) x = work(x);
    dlclose(plugin);
  }
  benchmark::DoNotOptimize(x);
}
BENCHMARK(BM_StressPlugin)->Threads(2)->UseRealTime();

bool SigpipeIgnored() {
  struct sigaction action;
  return sigaction(SIGPIPE, nullptr, &action) == 0 && action.sa_handler == SIG_IGN;
}
// Before main(): as the process was started, before the harness ran.
const bool g_sigpipe_ignored_at_start = SigpipeIgnored();

// What a forked child sees; "" if all is well.
std::string ChildProblem() {
  itimerval timer{};
  if (getitimer(ITIMER_PROF, &timer) == 0 &&
      (timer.it_value.tv_sec != 0 || timer.it_value.tv_usec != 0)) {
    return "the child inherited an ITIMER_PROF timer";
  }
  sigset_t blocked;
  if (pthread_sigmask(SIG_BLOCK, nullptr, &blocked) == 0) {
    for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
      if (sigismember(&blocked, signal_number) == 1) {
        return "the child inherited blocked signal " + std::to_string(signal_number);
      }
    }
  }
  if (!g_sigpipe_ignored_at_start && SigpipeIgnored()) {
    return "the child inherited an ignored SIGPIPE";
  }
  std::ifstream timers("/proc/self/timers");
  std::string line;
  if (timers && std::getline(timers, line) && !line.empty()) {
    return "the child has a POSIX timer: " + line;
  }
  return "";
}

constexpr int kChildStatus = 42;
std::atomic<bool> g_forking{false};

// fork() while the other benchmark threads allocate (one forking thread
// beside three allocating ones); the child allocates, burns CPU and leaves
// through exit().
void BM_StressFork(benchmark::State& state) {
  if (state.thread_index() != 0) {
    for (auto _ : state) {
      do {
        std::vector<std::string> v(16, std::string(64, 'y'));
        benchmark::DoNotOptimize(v.data());
      } while (g_forking.load(std::memory_order_relaxed));
    }
    return;
  }
  for (auto _ : state) {
    g_forking.store(true, std::memory_order_relaxed);
    const pid_t child = fork();
    if (child < 0) {
      g_forking.store(false, std::memory_order_relaxed);
      state.SkipWithError("fork failed");
      break;
    }
    if (child == 0) {
      const std::string problem = ChildProblem();
      if (!problem.empty()) {
        (void)!write(2, problem.data(), problem.size());
        _exit(1);
      }
      // CPU time (a timer that fired would deliver SIGPROF) and allocations.
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(5);
      std::vector<std::string> v;
      while (std::chrono::steady_clock::now() < until) v.push_back(std::string(100, 'z'));
      std::exit(kChildStatus);  // runs atexit handlers, as a user's child may
    }
    int status = 0;
    pid_t waited = 0;
    for (int ms = 0; ms < 10'000 && waited == 0; ++ms) {
      waited = waitpid(child, &status, WNOHANG);
      if (waited == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    // The other threads end their iteration, so that none still spins when
    // this thread's last one ends (the loop's end waits for them).
    g_forking.store(false, std::memory_order_relaxed);
    if (waited == 0) {
      // STRESS_HUNG_CHILD_WAIT=SECONDS leaves a hung child that long for a
      // debugger to attach to.
      if (const char* wait = std::getenv("STRESS_HUNG_CHILD_WAIT"); wait != nullptr) {
        std::fprintf(stderr, "hung child: %d\n", static_cast<int>(child));
        std::this_thread::sleep_for(std::chrono::seconds(std::atoi(wait)));
      }
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      state.SkipWithError("a forked child hung (deadlock)");
      break;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != kChildStatus) {
      const std::string problem =
          WIFEXITED(status)
              ? "a forked child exited " + std::to_string(WEXITSTATUS(status)) + ", not " +
                    std::to_string(kChildStatus)
              : "a forked child was killed by signal " + std::to_string(WTERMSIG(status));
      state.SkipWithError(problem.c_str());
      break;
    }
  }
}
BENCHMARK(BM_StressFork)->Threads(4)->UseRealTime()->Iterations(40);

}  // namespace stress_fixture
