#include "session/interruption.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>

#include "collect/timed_scope.h"
#include "common/own_thread.h"
#include "common/temporary_files.h"

namespace benchprof::session {
namespace {

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

[[noreturn]] void WatchSignals(std::string program, sigset_t signals) {
  MarkOwnThread();          // not in contention profiles
  collect::BecomeRunner();  // a paused runner: never counted in allocs/op
  int signal_number = 0;
  while (sigwait(&signals, &signal_number) != 0) {
  }
  RemoveAllTemporaries();
  std::fprintf(stderr, "%s: interrupted by %s; no output file written, previous ones kept\n",
               program.c_str(), SignalName(signal_number));
  std::fflush(stderr);
  // Not exit(): the benchmark threads still run; static destructors must not.
  _exit(128 + signal_number);
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

void InForkedChild() {
  g_guarding.store(false);
  pthread_sigmask(SIG_UNBLOCK, &g_blocked_signals, nullptr);
  if (g_restore_sigpipe) signal(SIGPIPE, SIG_DFL);
}

void OnExit() {
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
  const sigset_t signals = InterruptingSignals();
  if (const int error = pthread_sigmask(SIG_BLOCK, &signals, nullptr); error != 0) {
    return Status::Error(std::string("cannot block interrupting signals: ") + std::strerror(error));
  }
  g_blocked_signals = signals;
  g_restore_sigpipe = signal(SIGPIPE, SIG_IGN) == SIG_DFL;
  static const bool at_fork = pthread_atfork(nullptr, nullptr, InForkedChild) == 0;
  (void)at_fork;
  try {
    std::thread(WatchSignals, program, signals).detach();
  } catch (const std::system_error& e) {
    return Status::Error(std::string("cannot start the signal watcher: ") + e.what());
  }
  return Status();
}

}  // namespace benchprof::session
