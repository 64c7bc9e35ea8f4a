#include "common/temporary_files.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

namespace benchprof {
namespace {

struct Registry {
  std::mutex mutex;
  std::set<std::string> paths;  // guarded by mutex
  std::set<pid_t> children;     // guarded by mutex
  bool closed = false;          // guarded by mutex
};

// Never destroyed: an interruption may come while static destructors run.
Registry& TheRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

// A file, or a directory with everything in it. The program's threads
// still run and may be writing into the directory by its path: it is first
// renamed away, so that they cannot add to it while it is emptied (a
// busy writer kept refilling it faster than a loaded machine removed it).
// Where it cannot be renamed, the walk is repeated until it is gone.
void RemovePath(const std::string& path) {
  if (unlink(path.c_str()) == 0 || errno != EISDIR) return;
  std::string target = path;
  const std::string away = path + ".removing";
  if (rename(path.c_str(), away.c_str()) == 0) target = away;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::error_code error;
    std::filesystem::remove_all(target, error);
    if (!std::filesystem::exists(target, error)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::atomic<bool> g_interruptions_handled{false};
// Set once HandleInterruptions' watcher has taken a signal: a thread that
// calls exit() meanwhile (its files vanished) waits for the watcher's exit
// code instead of racing it with its own.
std::atomic<bool> g_exiting_on_signal{false};

void WaitIfExitingOnSignal() {
  if (!g_exiting_on_signal.load()) return;
  for (;;) pause();
}

// Whether `child` has ended: a zombie not yet waited for, or already waited
// for by the thread that started it. Does not reap it (WNOWAIT): that
// thread may still wait for it.
bool ChildEnded(pid_t child) {
  siginfo_t info{};
  if (waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    return errno == ECHILD;
  }
  return info.si_pid == child;
}

// Passes `signal_number` on to every registered child and waits for them to
// end, up to 10 s; then kills those still running. No child can be
// registered afterwards.
void StopChildren(int signal_number) {
  Registry& registry = TheRegistry();
  std::set<pid_t> children;
  {
    std::lock_guard lock(registry.mutex);
    children = registry.children;
    registry.closed = true;
  }
  for (const pid_t child : children) kill(child, signal_number);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (const pid_t child : children) {
    while (!ChildEnded(child) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!ChildEnded(child)) kill(child, SIGKILL);
  }
}

}  // namespace

const char* InterruptingSignalName(int signal_number) {
  switch (signal_number) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
  }
  return "a signal";
}

void RegisterTemporary(const std::string& path) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  if (registry.closed) {
    RemovePath(path);
    return;
  }
  registry.paths.insert(path);
}

int CreateTemporary(std::string& pattern) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  if (registry.closed) {
    errno = ECANCELED;
    return -1;
  }
  const int fd = mkstemp(pattern.data());
  if (fd >= 0) registry.paths.insert(pattern);
  return fd;
}

int CommitTemporary(const std::string& temp, const std::string& target) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  int error = registry.closed ? ECANCELED : 0;
  if (error == 0 && rename(temp.c_str(), target.c_str()) != 0) error = errno;
  if (error != 0) unlink(temp.c_str());
  registry.paths.erase(temp);
  return error;
}

std::FILE* OpenForWriting(const std::string& path, const char* mode) {
  Registry& registry = TheRegistry();
  std::unique_lock lock(registry.mutex);
  if (registry.closed) {
    errno = ECANCELED;
    return nullptr;
  }
  if (!registry.paths.contains(path)) lock.unlock();
  return std::fopen(path.c_str(), mode);
}

void UnregisterTemporary(const std::string& path) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  registry.paths.erase(path);
}

void RemoveAllTemporaries() {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  for (const std::string& path : registry.paths) RemovePath(path);
  registry.paths.clear();
  registry.closed = true;
}

bool RegisterChild(pid_t child) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  if (registry.closed) return false;
  registry.children.insert(child);
  return true;
}

void UnregisterChild(pid_t child) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  registry.children.erase(child);
}

bool ExitingOnSignal() { return g_exiting_on_signal.load(); }

void NoteInterruptionsHandled() { g_interruptions_handled.store(true); }

void RemoveOnInterruption(const std::string& path) { RegisterTemporary(path); }

void KeepOnInterruption(const std::string& path) { UnregisterTemporary(path); }

bool CreateTemporaryDirectory(std::string& pattern) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  if (registry.closed) {
    errno = ECANCELED;
    return false;
  }
  if (mkdtemp(pattern.data()) == nullptr) return false;
  registry.paths.insert(pattern);
  return true;
}

bool HandleInterruptions(const char* program) {
  if (g_interruptions_handled.exchange(true)) return true;
  sigset_t signals;
  sigemptyset(&signals);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    struct sigaction current;
    if (sigaction(signal_number, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) {
      continue;  // nohup: stays ignored
    }
    sigaddset(&signals, signal_number);
  }
  if (const int error = pthread_sigmask(SIG_BLOCK, &signals, nullptr); error != 0) {
    errno = error;
    return false;
  }
  // Past `ulimit -f` a write fails (EFBIG) instead of killing the process.
  signal(SIGXFSZ, SIG_IGN);
  std::atexit(WaitIfExitingOnSignal);
  const std::string name = program != nullptr ? program : "";
  try {
    std::thread([name, signals] {
      int signal_number = 0;
      while (sigwait(&signals, &signal_number) != 0) {
      }
      g_exiting_on_signal.store(true);
      StopChildren(signal_number);
      RemoveAllTemporaries();
      const std::string line = name + ": interrupted by " + InterruptingSignalName(signal_number) +
                               "; temporary files removed\n";
      const ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
      (void)ignored;
      if (signal_number == SIGQUIT) {
        // As without a handler: the process dies of SIGQUIT (a core dump
        // where the limits allow one), only its temporaries gone first.
        signal(SIGQUIT, SIG_DFL);
        sigset_t quit;
        sigemptyset(&quit);
        sigaddset(&quit, SIGQUIT);
        pthread_sigmask(SIG_UNBLOCK, &quit, nullptr);
        raise(SIGQUIT);
      }
      _exit(128 + signal_number);  // the program's threads still run
    }).detach();
  } catch (const std::system_error& e) {
    errno = e.code().value();
    return false;
  }
  return true;
}

}  // namespace benchprof
