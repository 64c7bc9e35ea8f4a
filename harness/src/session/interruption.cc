#include "session/interruption.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "collect/timed_scope.h"
#include "common/own_thread.h"
#include "common/temporary_files.h"

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

// Held while outputs move into place; taken for good by a watcher that
// ends the process, so no move starts after.
std::timed_mutex g_commit_mutex;
bool g_committed = false;  // guarded by g_commit_mutex

// How long the watcher waits for moves in progress (renames: microseconds)
// before it exits regardless.
constexpr auto kCommitWait = std::chrono::seconds(2);

// The interrupting signals this process did not inherit as ignored: under
// `nohup`, SIGHUP stays ignored.
sigset_t InterruptingSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current;
    if (sigaction(signal_number, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) {
      continue;
    }
    sigaddset(&signals, signal_number);
  }
  return signals;
}

const char* SignalName(int signal_number) {
  switch (signal_number) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
  }
  return "a signal";
}

// Removes every temporary, prints `program: line`, and ends the process.
// Not exit(): the benchmark threads still run; static destructors must not.
[[noreturn]] void ExitNow(const std::string& program, int exit_code, const std::string& line) {
  RemoveAllTemporaries();
  // write(2), not stdio: a benchmark thread may hold stderr's lock.
  const std::string text = program + ": " + line + "\n";
  const ssize_t ignored = write(STDERR_FILENO, text.data(), text.size());
  (void)ignored;
  _exit(exit_code);
}

// The line's end when no output is moved into place after all.
std::string NothingWritten(bool locked) {
  if (locked && g_committed) return "the output files had been written";
  return "no output file written, previous ones kept";
}

// The outputs are written from what was collected while the benchmarks
// still run; a second signal abandons that.
[[noreturn]] void SalvageAndExit(const std::string& program, const sigset_t& signals,
                                 int signal_number) {
  const std::string reason = SignalName(signal_number);
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
    ExitNow(program, 128 + signal_number,
            "interrupted by " + reason + "; cannot write the outputs (" + e.what() + "); " +
                NothingWritten(false));
  }
  const timespec poll{0, 20'000'000};
  for (;;) {
    siginfo_t info;
    const int second = sigtimedwait(&signals, &info, &poll);
    if (second > 0) {
      const bool locked = g_commit_mutex.try_lock_for(kCommitWait);
      ExitNow(program, 128 + second,
              std::string("interrupted again by ") + SignalName(second) + " while writing; " +
                  NothingWritten(locked));
    }
    if (outcome->done.load(std::memory_order_acquire)) break;
  }
  const StatusOr<std::string>& result = *outcome->result;
  ExitNow(program, 128 + signal_number,
          "interrupted by " + reason + "; " + (result.ok() ? *result : result.status().message()));
}

[[noreturn]] void WatchSignals(std::string program, sigset_t signals) {
  MarkOwnThread();          // not in contention profiles
  collect::BecomeRunner();  // a paused runner: never counted in allocs/op
  int signal_number = 0;
  while (sigwait(&signals, &signal_number) != 0) {
  }
  const std::string reason = SignalName(signal_number);
  const int exit_code = 128 + signal_number;
  int phase = kRunning;
  if (g_phase.compare_exchange_strong(phase, kSalvaging)) {
    SalvageAndExit(program, signals, signal_number);
  }
  if (phase == kWriting) {
    const bool locked = g_commit_mutex.try_lock_for(kCommitWait);
    ExitNow(program, exit_code,
            "interrupted by " + reason + " while writing the outputs; " + NothingWritten(locked));
  }
  ExitNow(program, exit_code, "interrupted by " + reason + "; " + NothingWritten(false));
}

// LibraryExitGuard's state: set while a guard lives (main thread only;
// read by the atexit handler, which runs on the thread that calls exit()).
std::atomic<bool> g_guarding{false};
std::string* g_guard_program = nullptr;
int g_guard_exit_code = 1;

pid_t g_guard_pid = 0;  // the process that armed the guard

// What a benchmark's forked child must not inherit: the blocked signals
// (its children would keep them blocked even after exec), the ignored
// SIGPIPE, and the exit guard (its exit() is its own, and the temporaries
// it would remove are its parent's).
sigset_t g_blocked_signals;
bool g_restore_sigpipe = false;
bool g_restore_sigxfsz = false;

void InForkedChild() {
  g_guarding.store(false);
  pthread_sigmask(SIG_UNBLOCK, &g_blocked_signals, nullptr);
  if (g_restore_sigpipe) signal(SIGPIPE, SIG_DFL);
  if (g_restore_sigxfsz) signal(SIGXFSZ, SIG_DFL);
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

Status WatchForInterruption(const std::string& program) {
  NoteInterruptionsHandled();  // <benchprof/files.h>'s HandleInterruptions: bench's own
  const sigset_t signals = InterruptingSignals();
  if (const int error = pthread_sigmask(SIG_BLOCK, &signals, nullptr); error != 0) {
    return Status::Error(std::string("cannot block interrupting signals: ") + std::strerror(error));
  }
  g_blocked_signals = signals;
  g_restore_sigpipe = signal(SIGPIPE, SIG_IGN) == SIG_DFL;
  // Past `ulimit -f`, a write fails with EFBIG (reported, the previous file
  // kept) instead of the signal killing the process mid-write.
  g_restore_sigxfsz = signal(SIGXFSZ, SIG_IGN) == SIG_DFL;
  static const bool at_fork = pthread_atfork(nullptr, nullptr, InForkedChild) == 0;
  (void)at_fork;
  try {
    std::thread(WatchSignals, program, signals).detach();
  } catch (const std::system_error& e) {
    return Status::Error(std::string("cannot start the signal watcher: ") + e.what());
  }
  return Status();
}

void BeginBenchmarks(Salvage salvage) {
  g_salvage = std::move(salvage);
  g_phase.store(kRunning, std::memory_order_seq_cst);
}

void EndBenchmarks() {
  int phase = kRunning;
  if (g_phase.compare_exchange_strong(phase, kWriting)) return;
  // The watcher is writing what was collected and will end the process.
  for (;;) pause();
}

void CommitTogether(const std::function<void()>& commit) {
  // Blocks for good if the watcher has taken the lock to end the process.
  std::lock_guard lock(g_commit_mutex);
  commit();
  g_committed = true;
}

}  // namespace benchprof::session
