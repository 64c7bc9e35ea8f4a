// ASYNC-SIGNAL-SAFE: OnCrash() runs in the handler of a synchronous fault
// (or abort()) on the crashing thread, which may hold any lock. It takes no
// lock, never allocates, and calls only CaptureStackInSignalHandler,
// syscall(tgkill), getpid, nanosleep, write, sigaction and raise.
// UninstallCrashHandlersInChild() runs in a forked child: sigaction and
// std::set_terminate (an atomic exchange) only. The terminate
// handler, the watcher's functions and the alternate stacks' set-up (loop
// start) and removal (thread exit) run on ordinary threads.
#include "session/crash_signals.h"

#include <cxxabi.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <typeinfo>

#include "collect/stack_capture.h"

namespace benchprof::session {
namespace {

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kMaxFrames = 64;
// Room for the handler and libunwind's walk of the overflowed stack.
constexpr size_t kAlternateStackBytes = 256 * 1024;

std::atomic<pid_t> g_watcher{0};
// The process that installed the handlers: a crash in another one (a child
// made by clone, which skips fork()'s handlers) is that process's own.
std::atomic<pid_t> g_installed_in{0};
std::terminate_handler g_previous_terminate = nullptr;
// The first crash wins; another thread that crashes meanwhile waits.
std::atomic<pid_t> g_crashing{0};
std::atomic<bool> g_handled{false};
// Published with release once g_signal ... g_frames are written; the
// watcher reads them after an acquire load (a fence would do, but
// ThreadSanitizer builds refuse fences).
std::atomic<bool> g_report_written{false};

// Filled by the crashing thread before it tells the watcher.
int g_signal = 0;
uintptr_t g_fault_address = 0;
int g_depth = 0;
uintptr_t g_frames[kMaxFrames];

// Async-signal-safe.
void WriteText(const char* text) {
  const ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

// Async-signal-safe.
void WriteHex(uintptr_t value) {
  char text[19] = "0x";
  int at = 2;
  bool started = false;
  for (int shift = 60; shift >= 0; shift -= 4) {
    const int digit = static_cast<int>((value >> shift) & 15);
    if (digit == 0 && !started && shift > 0) continue;
    started = true;
    text[at++] = "0123456789abcdef"[digit];
  }
  text[at] = '\0';
  WriteText(text);
}

// Async-signal-safe. Sleeps `ms` milliseconds.
void SleepMs(long ms) {
  timespec pause{ms / 1000, (ms % 1000) * 1'000'000};
  while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
  }
}

// Async-signal-safe. The default action from now on, for this signal when
// the handler returns (a fault re-executes its instruction; abort() raises
// again), with the signal pending so that it happens.
void DieOfSignal(int signal_number) {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, nullptr);
  raise(signal_number);
}

// Async-signal-safe.
void OnCrash(int signal_number, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  if (getpid() != g_installed_in.load()) {
    DieOfSignal(signal_number);
    return;
  }
  const auto self = static_cast<pid_t>(syscall(SYS_gettid));
  pid_t none = 0;
  if (!g_crashing.compare_exchange_strong(none, self)) {
    if (none == self) {  // crashed again inside this handler
      DieOfSignal(signal_number);
      return;
    }
    // Another thread crashed first and will end the process.
    for (;;) SleepMs(1000);
  }
  const pid_t watcher = g_watcher.load();
  if (watcher != 0) {
    const int depth = collect::CaptureInterruptedStack(context, g_frames, kMaxFrames);
    g_depth = depth;
    g_signal = signal_number;
    g_fault_address = reinterpret_cast<uintptr_t>(info->si_addr);
    g_report_written.store(true, std::memory_order_release);
    if (syscall(SYS_tgkill, getpid(), watcher, CrashReportSignal()) == 0) {
      const long waits = std::chrono::milliseconds(kCrashReportWait).count() / 10;
      for (long i = 0; i < waits && !g_handled.load(std::memory_order_acquire); ++i) SleepMs(10);
    }
    if (!g_handled.load(std::memory_order_acquire)) {
      // The watcher could not report (a lock this thread holds?): the raw
      // addresses at least.
      WriteText("crash: no report in time; the crashing thread's stack:");
      for (int i = 0; i < depth; ++i) {
        WriteText(" ");
        WriteHex(g_frames[i]);
      }
      WriteText("\n");
    }
  }
  errno = saved_errno;
  DieOfSignal(signal_number);
}

// An uncaught exception: say what it was, then abort() (and OnCrash).
[[noreturn]] void OnTerminate() {
  std::string line = "uncaught exception";
  if (const std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::exception& e) {
      int status = 0;
      char* type = abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status);
      line += std::string(" (") + (status == 0 ? type : typeid(e).name()) + "): " + e.what();
      std::free(type);
    } catch (...) {
      line += " (not a std::exception)";
    }
  }
  line = "terminate called: " + line + "\n";
  WriteText(line.c_str());
  std::abort();
}

// The key whose destructor unmaps a thread's alternate stack when the
// thread ends (a pthread key, not a thread_local: registering a
// thread_local's destructor may call malloc).
pthread_key_t g_alternate_stack_key;
bool g_alternate_stack_key_made = false;

// The mapping: a guard page, then the stack. A handler that overflows
// the stack faults on the guard page instead of writing over whatever is
// mapped below.
constexpr size_t kGuardBytes = 4096;

void UnmapAlternateStack(void* mapping) {
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  // Still in use (a handler running as the thread ends): left mapped.
  if (sigaltstack(&off, nullptr) != 0) return;
  munmap(mapping, kGuardBytes + kAlternateStackBytes);
}

void MakeAlternateStackKey() {
  g_alternate_stack_key_made =
      pthread_key_create(&g_alternate_stack_key, &UnmapAlternateStack) == 0;
}

}  // namespace

int CrashReportSignal() { return SIGRTMIN + 6; }

void EnsureAlternateSignalStack() {
  if (!kCrashHandlersInstalled) return;
  stack_t current{};
  if (sigaltstack(nullptr, &current) != 0 || (current.ss_flags & SS_DISABLE) == 0) return;
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, &MakeAlternateStackKey);
  if (!g_alternate_stack_key_made) return;
  // This thread's earlier mapping, if the benchmark turned the stack off.
  void* mapping = pthread_getspecific(g_alternate_stack_key);
  if (mapping == nullptr) {
    mapping = mmap(nullptr, kGuardBytes + kAlternateStackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (mapping == MAP_FAILED) return;  // a crash here goes unreported, as before
    if (mprotect(mapping, kGuardBytes, PROT_NONE) != 0 ||
        pthread_setspecific(g_alternate_stack_key, mapping) != 0) {
      munmap(mapping, kGuardBytes + kAlternateStackBytes);
      return;
    }
  }
  stack_t alternate{};
  alternate.ss_sp = static_cast<char*>(mapping) + kGuardBytes;
  alternate.ss_size = kAlternateStackBytes;
  sigaltstack(&alternate, nullptr);  // failing, it leaves things as they were
}

void SetCrashWatcher(pid_t watcher) { g_watcher.store(watcher); }

void InstallCrashHandlers() {
  if (!kCrashHandlersInstalled) return;
  // A benchmark that overflows the main thread's stack still gets its
  // report: the handler runs on a stack of its own (never freed).
  stack_t alternate{};
  alternate.ss_size = kAlternateStackBytes;
  alternate.ss_sp = std::malloc(alternate.ss_size);
  if (alternate.ss_sp != nullptr) sigaltstack(&alternate, nullptr);
  g_installed_in.store(getpid());
  for (const int signal_number : kCrashSignals) {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = &OnCrash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, nullptr);
  }
  g_previous_terminate = std::set_terminate(&OnTerminate);
}

void UninstallCrashHandlersInChild() {
  if (!kCrashHandlersInstalled || g_installed_in.load() == 0) return;
  for (const int signal_number : kCrashSignals) {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, nullptr);
  }
  std::set_terminate(g_previous_terminate);
}

CrashReport TakeCrashReport() {
  (void)g_report_written.load(std::memory_order_acquire);
  CrashReport report;
  report.signal_number = g_signal;
  report.tid = g_crashing.load();
  report.fault_address = g_fault_address;
  report.frames.assign(g_frames, g_frames + g_depth);
  return report;
}

void CrashHandled() { g_handled.store(true, std::memory_order_release); }

}  // namespace benchprof::session
