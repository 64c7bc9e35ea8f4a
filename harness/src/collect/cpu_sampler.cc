// ASYNC-SIGNAL-SAFE: OnSigprof() and RecordSample() run in a SIGPROF handler
// on any thread, possibly inside malloc. They take no lock, never allocate,
// call only CaptureStackInSignalHandler (stack_capture.h: guarded against
// re-entry) and lock-free atomics, and preserve errno. Everything else here
// runs on ordinary threads.
//
// Shared state and who changes it:
//   g_running        set by Start/Stop; the handler samples only while set.
//   g_handlers_busy  incremented before and decremented after the handler's
//                    work; Stop waits for zero after clearing g_running, so
//                    the buffer is quiet when it is read.
//   g_buffer         mapped by Start; handlers reserve records with one
//                    fetch_add on g_buffer_used, then fill them.
//   g_timers         one entry per armed thread, claimed and released with
//                    compare-and-swap (a thread deletes its own timer when it
//                    ends; Stop deletes the rest). Arming takes g_arm_mutex,
//                    so a thread that starts while Start arms the threads
//                    already running gets one timer, not two.
#include "collect/cpu_sampler.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <x86intrin.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "collect/stack_capture.h"
#include "collect/timed_scope.h"
#include "common/process_threads.h"

namespace benchprof::collect {
namespace {

// Room for about a million 64-frame samples; untouched pages cost nothing.
constexpr size_t kBufferBytes = size_t{1} << 30;
constexpr size_t kBufferWords = kBufferBytes / sizeof(uintptr_t);
constexpr size_t kPrefaultBytes = size_t{8} << 20;
// A record: [depth | segment << 32] [weight] [depth addresses].
constexpr size_t kHeaderWords = 2;
// The handler's own frames above the interrupted one (handler, its caller
// in the kernel trampoline) plus slack.
constexpr int kHandlerFrames = 8;
constexpr int kMaxTimers = 4096;

enum TimerState : int { kFree = 0, kLive = 1, kBusy = 2 };

struct TimerEntry {
  std::atomic<int> state{kFree};
  timer_t timer{};
  pid_t tid = 0;        // the thread it samples (set under g_arm_mutex)
  bool by_tid = false;  // armed by Start for a thread already running
};

// A thread's timer belongs to one run of the sampler: after a Stop and a new
// Start, an index left in a thread's TLS is stale.
std::atomic<uint32_t> g_generation{0};

std::atomic<bool> g_running{false};
std::atomic<int> g_handlers_busy{0};
int64_t g_period_ns = 0;
bool g_handler_installed = false;

uintptr_t* g_buffer = nullptr;
std::atomic<size_t> g_buffer_used{0};

std::atomic<uint64_t> g_recorded{0};
std::atomic<uint64_t> g_dropped_buffer_full{0};
std::atomic<uint64_t> g_dropped_reentrant{0};
std::atomic<uint64_t> g_truncated{0};
std::atomic<uint64_t> g_signals_handled{0};
std::atomic<uint64_t> g_handler_nanos{0};

TimerEntry g_timers[kMaxTimers];
std::mutex g_arm_mutex;

__thread int t_timer_index __attribute__((tls_model("initial-exec"))) = -1;
__thread uint32_t t_timer_generation __attribute__((tls_model("initial-exec"))) = 0;

// Async-signal-safe.
void RecordSample(const siginfo_t* info, void* context) {
  const uint64_t weight = 1 + static_cast<uint64_t>(info->si_overrun > 0 ? info->si_overrun : 0);
  uintptr_t frames[kMaxSampledFrames + kHandlerFrames];
  const int captured =
      CaptureStackInSignalHandler(context, frames, kMaxSampledFrames + kHandlerFrames);
  if (captured == kAlreadyCapturing) {
    // This signal interrupted the handler's own walk on this thread.
    g_dropped_reentrant.fetch_add(weight, std::memory_order_relaxed);
    return;
  }

  // libunwind 1.6 has no unw_backtrace2: drop the handler's frames, which
  // come before the interrupted instruction.
  const auto pc =
      static_cast<uintptr_t>(static_cast<const ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  int first = 0;
  while (first < captured && frames[first] != pc) ++first;
  const uintptr_t* stack;
  size_t depth;
  if (first < captured) {
    stack = frames + first;
    depth = static_cast<size_t>(captured - first);
    if (depth > static_cast<size_t>(kMaxSampledFrames)) depth = kMaxSampledFrames;
  } else {
    stack = &pc;
    depth = 1;
    g_truncated.fetch_add(weight, std::memory_order_relaxed);
  }

  const size_t words = kHeaderWords + depth;
  const size_t start = g_buffer_used.fetch_add(words, std::memory_order_relaxed);
  if (start + words > kBufferWords) {
    g_dropped_buffer_full.fetch_add(weight, std::memory_order_relaxed);
    return;
  }
  uintptr_t* record = g_buffer + start;
  record[0] = depth | (static_cast<uintptr_t>(CurrentProfileSegment()) << 32);
  record[1] = weight;
  for (size_t i = 0; i < depth; ++i) record[kHeaderWords + i] = stack[i];
  g_recorded.fetch_add(weight, std::memory_order_relaxed);
}

// Async-signal-safe.
void OnSigprof(int, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  g_handlers_busy.fetch_add(1, std::memory_order_seq_cst);
  // SI_TIMER: only our per-thread timers, never a process-wide setitimer,
  // so no thread's CPU time is counted twice.
  if (g_running.load(std::memory_order_seq_cst) && info->si_code == SI_TIMER && InTimedScope()) {
    // clock_gettime is async-signal-safe (vDSO, ~20 ns); it measures what
    // a sample costs from handler entry until its record is stored.
    timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    RecordSample(info, context);
    clock_gettime(CLOCK_MONOTONIC, &end);
    g_signals_handled.fetch_add(1, std::memory_order_relaxed);
    g_handler_nanos.fetch_add(static_cast<uint64_t>((end.tv_sec - start.tv_sec) * 1'000'000'000 +
                                                    (end.tv_nsec - start.tv_nsec)),
                              std::memory_order_relaxed);
  }
  g_handlers_busy.fetch_sub(1, std::memory_order_seq_cst);
  errno = saved_errno;
}

// Uniform in [1, period]: threads that run for less than a period are still
// sampled in proportion to their CPU time.
int64_t RandomFirstExpiry(pid_t tid) {
  uint64_t x = __rdtsc() ^ (static_cast<uint64_t>(tid) << 32);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return 1 + static_cast<int64_t>(x % static_cast<uint64_t>(g_period_ns));
}

void DeleteTimer(TimerEntry& entry) {
  int live = kLive;
  if (entry.state.compare_exchange_strong(live, kBusy)) {
    timer_delete(entry.timer);
    entry.state.store(kFree);
  }
}

// Arms a timer on `clock` (a thread's CPU clock) that signals thread `tid`.
// Returns its entry, or -1. Takes g_arm_mutex.
//
// Only Start arms threads by tid (`by_tid`), and it skips a thread that has
// a timer. A thread arming itself replaces an entry armed by tid for its
// tid: either Start armed this very thread as it was starting (it keeps one
// timer), or the entry is left from a thread that ended (threads made before
// profiling started do not pass through thread_hooks.cc and cannot free it
// themselves) and whose tid the kernel has given to this one.
int ArmTimer(pid_t tid, clockid_t clock, bool by_tid) {
  std::lock_guard<std::mutex> lock(g_arm_mutex);
  int free_entry = -1;
  for (int i = 0; i < kMaxTimers; ++i) {
    TimerEntry& entry = g_timers[i];
    if (entry.state.load() != kFree && entry.tid == tid) {
      if (by_tid) return -1;
      if (entry.by_tid) DeleteTimer(entry);
    }
    if (entry.state.load() == kFree && free_entry < 0) free_entry = i;
  }
  if (free_entry < 0) return -1;
  TimerEntry& entry = g_timers[free_entry];
  int free_state = kFree;
  if (!entry.state.compare_exchange_strong(free_state, kBusy)) return -1;
  struct sigevent event;
  std::memset(&event, 0, sizeof event);
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = tid;
  if (timer_create(clock, &event, &entry.timer) != 0) {
    entry.state.store(kFree);
    return -1;
  }
  entry.tid = tid;
  entry.by_tid = by_tid;
  const int64_t first = RandomFirstExpiry(tid);
  struct itimerspec spec;
  spec.it_interval.tv_sec = g_period_ns / 1'000'000'000;
  spec.it_interval.tv_nsec = g_period_ns % 1'000'000'000;
  spec.it_value.tv_sec = first / 1'000'000'000;
  spec.it_value.tv_nsec = first % 1'000'000'000;
  timer_settime(entry.timer, 0, &spec, nullptr);
  entry.state.store(kLive);
  return free_entry;
}

// Arms the threads that were running before the sampler started (a pool made
// before the benchmarks); the calling thread is armed already. They were
// never warmed up, so their handlers walk their stacks the slow way.
void ArmThreadsAlreadyRunning() {
  const pid_t self = gettid();
  for (const pid_t tid : ListProcessThreads()) {
    if (tid != self) ArmTimer(tid, CpuClockOfThread(tid), /*by_tid=*/true);
  }
}

}  // namespace

Status StartCpuSampler(int hz) {
  if (!kCpuSamplerSupported) {
    return Status::Error(
        "this build (ThreadSanitizer) cannot profile CPU: the sanitizer delays signals");
  }
  if (g_running.load()) return Status::Error("the CPU profiler is already running");
  if (hz < 1 || hz > 10000) return Status::Error("sampling rate must be 1 to 10000 Hz");
  if (Status unwinder = LoadStackUnwinder(); !unwinder.ok()) return unwinder;

  if (g_buffer != nullptr) munmap(g_buffer, kBufferBytes);
  void* buffer = mmap(nullptr, kBufferBytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (buffer == MAP_FAILED) {
    g_buffer = nullptr;
    return Status::Error(std::string("cannot map the sample buffer: ") + std::strerror(errno));
  }
  g_buffer = static_cast<uintptr_t*>(buffer);
  // Fault in the first pages now, so the first ~30,000 samples do not take a
  // page fault inside the handler.
  for (size_t page = 0; page < kPrefaultBytes; page += 4096) {
    static_cast<volatile char*>(buffer)[page] = 0;
  }
  g_buffer_used.store(0);
  g_recorded.store(0);
  g_dropped_buffer_full.store(0);
  g_dropped_reentrant.store(0);
  g_truncated.store(0);
  g_signals_handled.store(0);
  g_handler_nanos.store(0);
  g_period_ns = 1'000'000'000 / hz;
  g_generation.fetch_add(1);

  if (!g_handler_installed) {
    // Stays installed after Stop (it does nothing then): a signal still
    // pending when the profile stops must not meet SIGPROF's default
    // action, which ends the process.
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = &OnSigprof;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGPROF, &action, nullptr) != 0) {
      return Status::Error(std::string("cannot install the SIGPROF handler: ") +
                           std::strerror(errno));
    }
    g_handler_installed = true;
  }
  g_running.store(true);
  RegisterCurrentThread();
  ArmThreadsAlreadyRunning();
  return Status();
}

void StopCpuSampler() {
  if (!g_running.exchange(false)) return;
  for (TimerEntry& entry : g_timers) DeleteTimer(entry);
  while (g_handlers_busy.load() != 0) sched_yield();
}

bool CpuSamplerRunning() { return g_running.load(std::memory_order_relaxed); }

constinit const ThreadListener kCpuSamplerThreadListener{&CpuSamplerRunning, &RegisterCurrentThread,
                                                         &UnregisterCurrentThread};

bool HasCurrentTimer() { return t_timer_index >= 0 && t_timer_generation == g_generation.load(); }

void RegisterCurrentThread() {
  if (!g_running.load() || HasCurrentTimer()) return;
  WarmUpStackCapture();
  // Before arming: a Stop and a new Start in between must leave this
  // thread's index stale, not current.
  const uint32_t generation = g_generation.load();
  const int index = ArmTimer(gettid(), CLOCK_THREAD_CPUTIME_ID, /*by_tid=*/false);
  if (index < 0) return;
  t_timer_index = index;
  t_timer_generation = generation;
  // Stop may have swept the table while this entry was being set up.
  if (!g_running.load()) UnregisterCurrentThread();
}

void UnregisterCurrentThread() {
  // A stale index: Stop deleted that timer, and the entry may be another
  // thread's now.
  if (HasCurrentTimer()) DeleteTimer(g_timers[t_timer_index]);
  t_timer_index = -1;
}

void ForEachCpuSample(const std::function<void(const CpuSample&)>& visit) {
  if (g_buffer == nullptr) return;
  const size_t used = std::min(g_buffer_used.load(), kBufferWords);
  size_t at = 0;
  while (at + kHeaderWords <= used) {
    const uintptr_t* record = g_buffer + at;
    const size_t depth = record[0] & 0xffffffffu;
    if (depth == 0 || at + kHeaderWords + depth > used) break;  // never written
    visit(CpuSample{static_cast<uint32_t>(record[0] >> 32), static_cast<uint32_t>(record[1]),
                    std::span<const uintptr_t>(record + kHeaderWords, depth)});
    at += kHeaderWords + depth;
  }
}

CpuSamplerStats GetCpuSamplerStats() {
  return {g_recorded.load(),  g_dropped_buffer_full.load(), g_dropped_reentrant.load(),
          g_truncated.load(), g_signals_handled.load(),     g_handler_nanos.load()};
}

}  // namespace benchprof::collect
