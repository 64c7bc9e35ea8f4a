// ASYNC-SIGNAL-SAFE: OnInterruptingSignal() and OnDroppedSignal() run as
// signal handlers on any thread; they only set an atomic, write one byte
// into a pipe and keep errno (or, in a process that is not bench's, restore
// the default action and raise). InForkedChild() runs in a forked child,
// where only async-signal-safe calls are allowed. Everything else here runs
// on ordinary threads.
#include "session/interruption.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "benchprof/main.h"
#include "collect/thread_stacks.h"
#include "collect/timed_scope.h"
#include "common/lock_within.h"
#include "common/own_thread.h"
#include "common/temporary_files.h"
#include "session/crash_signals.h"
#include "session/thread_stack_dump.h"

namespace benchprof::session {
namespace {

// Where the run is, for the watcher. kSetup -> kRunning (main thread,
// BeginBenchmarks), then either kRunning -> kWriting (main thread,
// EndBenchmarks) or kRunning -> kSalvaging (watcher): one compare-and-swap
// decides who writes the outputs.
enum Phase : int { kSetup, kRunning, kSalvaging, kWriting };
std::atomic<int> g_phase{kSetup};
// Set before g_phase becomes kRunning; read by the watcher after.
Salvage g_salvage;
std::function<std::string()> g_running;

// The first interrupting signal a handler took (0: none yet), set before
// the byte goes into the pipe: the main thread reads it when the
// benchmarks return, so that a signal taken while they ran is acted on as
// one that came during the run even if the watcher has not woken yet.
std::atomic<int> g_signal_taken{0};
static_assert(std::atomic<int>::is_always_lock_free, "set in a signal handler");

// Held while outputs move into place; taken for good by a watcher that
// ends the process, so no move starts after.
std::timed_mutex g_commit_mutex;
bool g_committed = false;  // guarded by g_commit_mutex

// How long the watcher waits for moves in progress (renames: microseconds)
// before it exits regardless.
constexpr auto kCommitWait = std::chrono::seconds(2);
// How often (once per millisecond) an exit tries to take stderr's lock.
constexpr int kStderrLockAttempts = 100;
// How long a timeout waits for the threads to answer with their stacks.
constexpr auto kStackWait = std::chrono::milliseconds(500);

// The interrupting signals reach the watcher through a pipe that their
// handler writes the signal's number into. Not by blocking them in every
// thread and waiting with sigwait: a blocked signal stays blocked in a
// program a benchmark starts (posix_spawn, system()), which then ignores
// Ctrl-C and outlives the run. A handled signal is reset to its default
// action by exec. Read end, write end; both close on exec.
int g_signal_pipe[2] = {-1, -1};
// The crash handlers' call (CrashReportSignal(), blocked in every thread),
// as a file descriptor the watcher polls with the pipe.
int g_crash_fd = -1;
// The process whose watcher the pipe reaches (a child made without fork()'s
// handlers, by clone, still has them until it execs).
pid_t g_watched_pid = 0;

// The signals the watcher acts on: the three that interrupt a run, and
// SIGQUIT, which also prints every thread's stack and ends the process by
// its default action (a core dump where the limits allow one).
constexpr int kWatchedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// The watched signals this process did not inherit as ignored: under
// `nohup`, SIGHUP stays ignored.
sigset_t InterruptingSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  for (const int signal_number : kWatchedSignals) {
    struct sigaction current;
    if (sigaction(signal_number, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) {
      continue;
    }
    sigaddset(&signals, signal_number);
  }
  return signals;
}

// "SIGQUIT", or the name of an interrupting signal.
const char* SignalName(int signal_number) {
  return signal_number == SIGQUIT ? "SIGQUIT" : InterruptingSignalName(signal_number);
}

// Async-signal-safe: the signal noted as taken, then one byte, its number,
// into the pipe.
void OnInterruptingSignal(int signal_number) {
  const int saved_errno = errno;
  if (getpid() != g_watched_pid) {
    // Not bench's process: the default action, once the handler returns
    // (the signal is blocked while it runs).
    signal(signal_number, SIG_DFL);
    raise(signal_number);
    errno = saved_errno;
    return;
  }
  int none = 0;
  g_signal_taken.compare_exchange_strong(none, signal_number);
  const auto byte = static_cast<unsigned char>(signal_number);
  const ssize_t ignored = write(g_signal_pipe[1], &byte, 1);
  (void)ignored;
  errno = saved_errno;
}

// SIGPIPE and SIGXFSZ are caught and dropped, not ignored: the failed write
// returns EPIPE or EFBIG as it would under SIG_IGN, and a program a
// benchmark starts gets the default action back at exec.
void OnDroppedSignal(int) {}

// Installs `handler` for `signal_number`, with the interrupting signals
// blocked while it runs (two signals at once reach the pipe in the order
// the kernel delivers them, lowest number first). Returns errno's value.
int Handle(int signal_number, void (*handler)(int)) {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (const int blocked : kWatchedSignals) sigaddset(&action.sa_mask, blocked);
  return sigaction(signal_number, &action, nullptr) == 0 ? 0 : errno;
}

// Waits up to `timeout_ms` (-1: for ever) for an interrupting signal, or
// with `crashes`, also for the crash handlers' call. Returns the signal's
// number (CrashReportSignal() for a crash), or 0 when the time is up.
int WaitForSignal(int timeout_ms, bool crashes) {
  for (;;) {
    pollfd fds[2] = {{g_signal_pipe[0], POLLIN, 0}, {g_crash_fd, POLLIN, 0}};
    const int ready = poll(fds, crashes && g_crash_fd >= 0 ? 2 : 1, timeout_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return 0;
    if ((fds[0].revents & POLLIN) != 0) {
      unsigned char byte = 0;
      if (read(g_signal_pipe[0], &byte, 1) == 1) return byte;
    }
    if (crashes && (fds[1].revents & POLLIN) != 0) {
      signalfd_siginfo info;
      if (read(g_crash_fd, &info, sizeof info) == sizeof info) {
        return static_cast<int>(info.ssi_signo);
      }
    }
    if (timeout_ms == 0) return 0;
  }
}

// Ends the process by the default action of `signal_number` (SIGQUIT: a
// core dump where the limits allow one), so that the exit status is what
// it would have been without bench's handler.
[[noreturn]] void DieOfSignal(int signal_number) {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, nullptr);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  raise(signal_number);
  _exit(128 + signal_number);  // not reached
}

// Removes every temporary, prints `program: line`, and ends the process:
// with `exit_code`, or, if `die_of` is a signal, by that signal's default
// action. Not exit(): the benchmark threads still run; static destructors
// must not.
[[noreturn]] void ExitNow(const std::string& program, int exit_code, const std::string& line,
                          int die_of = 0) {
  // A writer still running (the salvage after a second signal) must not
  // print its failure (say, its temporary was removed) after this line:
  // its stdio output waits for stderr's lock. A benchmark thread may hold
  // that lock for good, so the wait is bounded.
  for (int attempt = 0; attempt < kStderrLockAttempts && ftrylockfile(stderr) != 0; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  RemoveAllTemporaries();
  // write(2), not stdio: a benchmark thread may hold stderr's lock.
  const std::string text = program + ": " + line + "\n";
  const ssize_t ignored = write(STDERR_FILENO, text.data(), text.size());
  (void)ignored;
  if (die_of != 0) DieOfSignal(die_of);
  _exit(exit_code);
}

// How the process ends on signal `signal_number`: SIGQUIT by its default
// action, the others with exit code 128 + N (0 here).
int DiesOf(int signal_number) { return signal_number == SIGQUIT ? SIGQUIT : 0; }

// The line's end when no output is moved into place after all.
std::string NothingWritten(bool locked) {
  if (locked && g_committed) return "the output files had been written";
  return "no output file written, previous ones kept";
}

// The outputs are written from what was collected while the benchmarks
// still run; a second signal abandons that. `what` starts the last line
// ("interrupted by SIGINT"); `reason` marks the files; `die_of` as ExitNow.
[[noreturn]] void SalvageAndExit(const std::string& program, const std::string& what,
                                 const std::string& reason, int exit_code, int die_of) {
  struct Outcome {
    std::atomic<bool> done{false};
    std::optional<StatusOr<std::string>> result;
  };
  // Never freed: the writer thread may still run when the process ends.
  auto* outcome = new Outcome;
  try {
    std::thread([outcome, reason] {
      MarkOwnThread();
      collect::BecomeRunner();
      outcome->result.emplace(g_salvage(reason));
      outcome->done.store(true, std::memory_order_release);
    }).detach();
  } catch (const std::system_error& e) {
    ExitNow(program, exit_code,
            what + "; cannot write the outputs (" + e.what() + "); " + NothingWritten(false),
            die_of);
  }
  for (;;) {
    const int second = WaitForSignal(/*timeout_ms=*/20, /*crashes=*/false);
    if (second > 0) {
      const bool locked = LockWithin(g_commit_mutex, kCommitWait);
      ExitNow(program, 128 + second,
              std::string("interrupted again by ") + SignalName(second) + " while writing; " +
                  NothingWritten(locked),
              DiesOf(second));
    }
    if (outcome->done.load(std::memory_order_acquire)) break;
  }
  const StatusOr<std::string>& result = *outcome->result;
  ExitNow(program, exit_code, what + "; " + (result.ok() ? *result : result.status().message()),
          die_of);
}

// What the watcher does with a signal or the timeout, wherever the run is.
// `die_of` as ExitNow.
[[noreturn]] void Interrupt(const std::string& program, const std::string& what,
                            const std::string& reason, int exit_code, int die_of = 0) {
  int phase = kRunning;
  if (g_phase.compare_exchange_strong(phase, kSalvaging)) {
    SalvageAndExit(program, what, reason, exit_code, die_of);
  }
  if (phase == kWriting) {
    const bool locked = LockWithin(g_commit_mutex, kCommitWait);
    ExitNow(program, exit_code, what + " while writing the outputs; " + NothingWritten(locked),
            die_of);
  }
  ExitNow(program, exit_code, what + "; " + NothingWritten(false), die_of);
}

// SIGQUIT (Go's goroutine dump): what runs and every thread's stack, then
// as an interrupting signal, and the process dies of SIGQUIT.
[[noreturn]] void Quit(const std::string& program) {
  std::string report = program + ": SIGQUIT";
  if (g_phase.load() == kRunning && g_running) report += "; running " + g_running();
  report += "\n" + DescribeThreadStacks(collect::CaptureThreadStacks(kStackWait));
  const ssize_t ignored = write(STDERR_FILENO, report.data(), report.size());
  (void)ignored;
  Interrupt(program, "interrupted by SIGQUIT", "SIGQUIT", 128 + SIGQUIT, SIGQUIT);
}

// --timeout expired: what runs, and every thread's stack, then as a signal.
[[noreturn]] void TimeOut(const std::string& program, const std::string& timeout) {
  std::string report = program + ": timed out after " + timeout + " (--timeout)";
  if (g_phase.load() == kRunning && g_running) report += "; running " + g_running();
  report += "\n" + DescribeThreadStacks(collect::CaptureThreadStacks(kStackWait));
  const ssize_t ignored = write(STDERR_FILENO, report.data(), report.size());
  (void)ignored;
  Interrupt(program, "timed out (--timeout=" + timeout + ")", "--timeout=" + timeout, kExitTimeout);
}

const char* CrashSignalName(int signal_number) {
  switch (signal_number) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
  }
  return "a signal";
}

// A thread crashed (crash_signals.h) and waits in its handler: its stack,
// the outputs as for a signal, the temporaries removed; then the crashing
// thread re-raises its signal, which ends the process.
[[noreturn]] void ReportCrash(const std::string& program) {
  const CrashReport crash = TakeCrashReport();
  const std::string name = CrashSignalName(crash.signal_number);
  std::string report = program + ": crashed (" + name;
  if (crash.signal_number == SIGSEGV || crash.signal_number == SIGBUS) {
    char address[32];
    std::snprintf(address, sizeof address, " at 0x%llx",
                  static_cast<unsigned long long>(crash.fault_address));
    report += address;
  }
  report += ")";
  if (g_phase.load() == kRunning && g_running) report += " while running " + g_running();
  report += "\n" + DescribeThreadStacks({{crash.tid, true, crash.frames}});
  ssize_t ignored = write(STDERR_FILENO, report.data(), report.size());
  std::string line;
  int phase = kRunning;
  if (g_phase.compare_exchange_strong(phase, kSalvaging)) {
    const StatusOr<std::string> result = g_salvage(name);
    line = result.ok() ? *result : result.status().message();
  } else if (phase == kWriting) {
    const bool locked = LockWithin(g_commit_mutex, kCommitWait);
    line = "while writing the outputs; " + NothingWritten(locked);
  } else {
    line = NothingWritten(false);
  }
  RemoveAllTemporaries();
  line = program + ": crashed (" + name + "); " + line + "\n";
  ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
  CrashHandled();
  for (;;) pause();
}

// `ready` is fulfilled once crash reports can reach this thread.
[[noreturn]] void WatchSignals(std::string program, int64_t timeout_ns, std::string timeout,
                               std::promise<void>* ready) {
  MarkOwnThread();          // not in contention profiles
  collect::BecomeRunner();  // a paused runner: never counted in allocs/op
  SetCrashWatcher(gettid());
  ready->set_value();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout_ns);
  int signal_number = 0;
  for (;;) {
    if (signal_number == CrashReportSignal()) ReportCrash(program);
    if (signal_number == SIGQUIT) Quit(program);
    if (signal_number != 0) break;
    int wait_ms = -1;
    if (timeout_ns > 0) {
      const int64_t left = std::chrono::duration_cast<std::chrono::milliseconds>(
                               deadline - std::chrono::steady_clock::now())
                               .count();
      if (left <= 0) TimeOut(program, timeout);
      wait_ms = static_cast<int>(std::min<int64_t>(left, 60'000));
    }
    signal_number = WaitForSignal(wait_ms, /*crashes=*/true);
  }
  Interrupt(program, std::string("interrupted by ") + SignalName(signal_number),
            SignalName(signal_number), 128 + signal_number);
}

// LibraryExitGuard's state: set while a guard lives (main thread only;
// read by the atexit handler, which runs on the thread that calls exit()).
std::atomic<bool> g_guarding{false};
std::string* g_guard_program = nullptr;
int g_guard_exit_code = 1;

pid_t g_guard_pid = 0;  // the process that armed the guard

// What a benchmark's forked child must not inherit: the handlers (its
// signals would reach the parent's watcher through the shared pipe, its
// crash would wait for a watcher it does not have), the blocked crash
// signal, and the exit guard (its exit() is its own, and the temporaries
// it would remove are its parent's).
sigset_t g_handled_signals;  // the interrupting signals given a handler
bool g_dropping_sigpipe = false;
bool g_dropping_sigxfsz = false;
sigset_t g_blocked_signals;

void InForkedChild() {
  g_guarding.store(false);
  UninstallCrashHandlersInChild();
  for (const int signal_number : kWatchedSignals) {
    if (sigismember(&g_handled_signals, signal_number) == 1) signal(signal_number, SIG_DFL);
  }
  if (g_dropping_sigpipe) signal(SIGPIPE, SIG_DFL);
  if (g_dropping_sigxfsz) signal(SIGXFSZ, SIG_DFL);
  pthread_sigmask(SIG_UNBLOCK, &g_blocked_signals, nullptr);
}

void OnExit() {
  // A benchmark thread that gives up while the watcher writes what was
  // collected (say, its scratch files vanished) waits for the watcher's
  // exit instead of racing it.
  if (g_phase.load() == kSalvaging) {
    for (;;) pause();
  }
  // getpid(): also a child made without fork()'s handlers (clone) is not
  // the guarded process.
  if (!g_guarding.load() || getpid() != g_guard_pid) return;
  RemoveAllTemporaries();
  std::fprintf(stderr,
               "%s: exit() was called during the run (by Google Benchmark or a benchmark; see "
               "above); no output file written\n",
               g_guard_program->c_str());
  std::fflush(stderr);
  _exit(g_guard_exit_code);
}

}  // namespace

LibraryExitGuard::LibraryExitGuard(const std::string& program, int exit_code) {
  static const bool registered = std::atexit(OnExit) == 0;
  (void)registered;
  g_guard_program = new std::string(program);  // read by OnExit at any time: never freed
  g_guard_exit_code = exit_code;
  g_guard_pid = getpid();
  g_guarding.store(true);
}

LibraryExitGuard::~LibraryExitGuard() { g_guarding.store(false); }

Status WatchForInterruption(const std::string& program, int64_t timeout_ns,
                            const std::string& timeout) {
  NoteInterruptionsHandled();  // <benchprof/files.h>'s HandleInterruptions: bench's own
  g_watched_pid = getpid();
  if (pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    return Status::Error(std::string("cannot create the signal pipe: ") + std::strerror(errno));
  }
  // The crash handlers' call is for the watcher only: blocked everywhere,
  // read from a signalfd.
  sigset_t blocked;
  sigemptyset(&blocked);
  sigaddset(&blocked, CrashReportSignal());
  if (const int error = pthread_sigmask(SIG_BLOCK, &blocked, nullptr); error != 0) {
    return Status::Error(std::string("cannot block the crash signal: ") + std::strerror(error));
  }
  g_blocked_signals = blocked;
  g_crash_fd = signalfd(-1, &blocked, SFD_CLOEXEC);
  if (g_crash_fd < 0) {
    return Status::Error(std::string("cannot watch for crashes: ") + std::strerror(errno));
  }
  g_handled_signals = InterruptingSignals();
  for (const int signal_number : kWatchedSignals) {
    if (sigismember(&g_handled_signals, signal_number) != 1) continue;
    if (const int error = Handle(signal_number, OnInterruptingSignal); error != 0) {
      return Status::Error(std::string("cannot handle ") + SignalName(signal_number) + ": " +
                           std::strerror(error));
    }
  }
  // Past `ulimit -f`, a write fails with EFBIG (reported, the previous file
  // kept) instead of the signal killing the process mid-write. A signal
  // inherited as ignored stays so.
  const auto drop = [](int signal_number) {
    struct sigaction current;
    if (sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) {
      return false;
    }
    return Handle(signal_number, OnDroppedSignal) == 0;
  };
  g_dropping_sigpipe = drop(SIGPIPE);
  g_dropping_sigxfsz = drop(SIGXFSZ);
  static const bool at_fork = pthread_atfork(nullptr, nullptr, InForkedChild) == 0;
  (void)at_fork;
  InstallCrashHandlers();
  // A benchmark that crashes at once (a short run on a loaded machine) must
  // find the watcher in place, or it dies without its report.
  std::promise<void> ready;
  try {
    std::thread(WatchSignals, program, timeout_ns, timeout, &ready).detach();
  } catch (const std::system_error& e) {
    return Status::Error(std::string("cannot start the signal watcher: ") + e.what());
  }
  ready.get_future().wait();
  return Status();
}

void BeginBenchmarks(Salvage salvage, std::function<std::string()> running) {
  g_salvage = std::move(salvage);
  g_running = std::move(running);
  g_phase.store(kRunning, std::memory_order_seq_cst);
}

// Whether a watched signal has come that the watcher may not have acted
// on yet: taken by a handler, or pending for the process (sent, not yet
// delivered to any thread).
bool SignalCame() {
  if (g_signal_taken.load() != 0) return true;
  sigset_t pending;
  if (sigpending(&pending) != 0) return false;
  for (const int signal_number : kWatchedSignals) {
    if (sigismember(&g_handled_signals, signal_number) == 1 &&
        sigismember(&pending, signal_number) == 1) {
      return true;
    }
  }
  return false;
}

void EndBenchmarks() {
  // A signal that came while the benchmarks ran interrupted them, also if
  // the benchmarks returned before the watcher woke: the same signal may
  // well have ended them (a benchmark waiting for a child it forked, which
  // the signal to the process group killed). The watcher writes the
  // outputs, marked as interrupted, and ends the process.
  if (!SignalCame()) {
    int phase = kRunning;
    if (g_phase.compare_exchange_strong(phase, kWriting)) return;
  }
  // The watcher is writing what was collected, or will, and ends the process.
  for (;;) pause();
}

void CommitTogether(const std::function<void()>& commit) {
  // Blocks for good if the watcher has taken the lock to end the process.
  std::lock_guard lock(g_commit_mutex);
  commit();
  g_committed = true;
}

}  // namespace benchprof::session
