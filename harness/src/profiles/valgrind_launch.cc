#include "profiles/valgrind_launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/child_process.h"
#include "profiles/callgrind_requests.h"

extern char** environ;

namespace benchprof::profiles {
namespace {

constexpr char kInstallHint[] = "install Valgrind (Debian: apt-get install valgrind)";

// The first executable `name` on PATH, or `name` itself if it has a '/'.
std::string FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat info;
    if (stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = end + 1;
  }
  return "";
}

// SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGCHLD blocked while it lives, to be taken
// with sigwaitinfo(waited) by WaitPassingSignals: a signal from the start
// on is passed to the child of the moment (the Valgrind check, then the run
// under Valgrind), never the default action that would leave callgrind's
// directory behind.
struct BlockedSignals {
  BlockedSignals() {
    sigemptyset(&waited);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD}) sigaddset(&waited, s);
    sigprocmask(SIG_BLOCK, &waited, &previous);
  }
  ~BlockedSignals() { sigprocmask(SIG_SETMASK, &previous, nullptr); }
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;

  sigset_t waited;
  sigset_t previous;  // the mask before, which children get
};

// Waits for `child`, passing SIGINT, SIGTERM, SIGHUP and SIGQUIT on to it. Returns
// its wait status, or -1 if it cannot be waited for; `*passed` is the first
// signal passed on (0 if none).
int WaitPassingSignals(pid_t child, const BlockedSignals& signals, int* passed) {
  *passed = 0;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return status;
    if (done < 0 && errno != EINTR) return -1;
    siginfo_t info;
    const int got = sigwaitinfo(&signals.waited, &info);
    if (got == SIGINT || got == SIGTERM || got == SIGHUP || got == SIGQUIT) {
      kill(child, got);
      if (*passed == 0) *passed = got;
    }
  }
}

// An interruption before any benchmark ran: nothing was written. Says so as
// bench does, and returns the exit code, 128 + the signal's number.
int InterruptedBeforeBenchmarks(const std::string& program, int signal_number) {
  const char* abbreviation = sigabbrev_np(signal_number);
  std::fprintf(stderr, "%s: interrupted by %s; no output file written, previous ones kept\n",
               program.c_str(),
               abbreviation != nullptr ? (std::string("SIG") + abbreviation).c_str() : "a signal");
  return 128 + signal_number;
}

// Runs `args` with stdin, stdout and stderr on /dev/null, with the signal
// mask from before `signals`, and returns its wait status, or -1 if it could
// not be started or waited for; `*passed` as WaitPassingSignals says.
int RunQuietly(std::vector<std::string> args, const BlockedSignals& signals, int* passed) {
  ChildSpec spec;
  spec.argv = std::move(args);
  spec.signal_mask = signals.previous;
  spec.stop_on_interruption = false;  // WaitPassingSignals passes them on
  *passed = 0;
  const StatusOr<pid_t> pid = StartChild(spec);
  if (!pid.ok()) return -1;
  return WaitPassingSignals(*pid, signals, passed);
}

// Removes `dir` and the files in it (callgrind's dumps; no subdirectories).
// Returns true once it is gone.
bool RemoveDirectory(const std::string& dir) {
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* entry = readdir(d)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") unlink((dir + "/" + name).c_str());
    }
    closedir(d);
  }
  return rmdir(dir.c_str()) == 0 || errno == ENOENT;
}

// How long a guardian tries to remove callgrind's directory: Valgrind,
// killed by its parent-death signal as bench ends, may still be creating a
// file in it for a moment.
constexpr int kGuardianAttempts = 500;
constexpr long kGuardianPauseNs = 10'000'000;

// Forks the guardian of callgrind's directory `dir`: a small process that
// removes it once bench has ended, however it ended. Nothing survives a
// SIGKILL inside bench; the guardian learns of bench's end from the pipe
// whose write end only bench holds (`*bench_end`: bench closes it when it
// has removed the directory itself, or the kernel does when bench dies).
// It runs in a session of its own and ignores the interrupting signals, so
// that a signal to bench's process group leaves it to do its work; it
// holds no other file descriptor, so a reader of bench's stdout sees its
// end when bench ends. Returns the guardian's pid, or -1 (then bench goes
// on without one: only a SIGKILL would leave the directory).
pid_t StartGuardian(const std::string& dir, int* bench_end) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return -1;
  const pid_t guardian = fork();
  if (guardian < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (guardian == 0) {
    // bench has one thread here (RunUnderCallgrind's contract): the child
    // may allocate.
    setsid();
    for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
      signal(signal_number, SIG_IGN);
    }
    const int keep = fds[0];
    if (keep > 0) close_range(0, static_cast<unsigned>(keep) - 1, 0);
    close_range(static_cast<unsigned>(keep) + 1, ~0U, 0);
    for (;;) {
      char byte;
      const ssize_t got = read(keep, &byte, 1);
      if (got == 0 || (got < 0 && errno != EINTR)) break;
    }
    for (int attempt = 0; attempt < kGuardianAttempts && !RemoveDirectory(dir); ++attempt) {
      const timespec pause{0, kGuardianPauseNs};
      nanosleep(&pause, nullptr);
    }
    _exit(0);
  }
  close(fds[0]);
  *bench_end = fds[1];
  return guardian;
}

// Removes `dir` (bench's own cleanup), then lets its guardian go and waits
// for it.
void RemoveGuardedDirectory(const std::string& dir, pid_t guardian, int bench_end) {
  RemoveDirectory(dir);
  if (guardian < 0) return;
  close(bench_end);
  while (waitpid(guardian, nullptr, 0) < 0 && errno == EINTR) {
  }
}

// Whether bench, having reported what it wrote, ends by `signal_number`'s
// default action (session/crash_signals.h, session/interruption.h).
bool DiesOfSignalAfterReport(int signal_number) {
  for (const int reported : {SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    if (signal_number == reported) return true;
  }
  return false;
}

int Fail(const std::string& program, const std::string& message) {
  std::fprintf(stderr, "%s: --instructions: %s\n", program.c_str(), message.c_str());
  return 4;
}

// The path of this executable, for Valgrind to run (argv[0] may be a bare
// name found on PATH).
std::string SelfPath() {
  char buffer[4096];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0) return "";
  return std::string(buffer, static_cast<size_t>(n));
}

}  // namespace

bool OnValgrind() { return RUNNING_ON_VALGRIND != 0; }

int RunUnderCallgrind(int argc, char** argv, const std::string& program) {
  if (!kHaveCallgrindHeader) {
    return Fail(program,
                "this build has no Valgrind support (<valgrind/callgrind.h> was missing); " +
                    std::string(kInstallHint) + " and rebuild");
  }
  // Interruptions are taken here and passed on: the child removes its
  // temporary outputs and exits 128 + N itself. SIGCHLD ends the wait.
  const BlockedSignals signals;
  const char* chosen = getenv(kValgrindEnv);
  const std::string name = chosen != nullptr && *chosen != '\0' ? chosen : "valgrind";
  const std::string valgrind = FindProgram(name);
  if (valgrind.empty()) {
    return Fail(program, "needs Valgrind's callgrind, but " + name +
                             (name.find('/') != std::string::npos ? " is not an executable"
                                                                  : " was not found on PATH") +
                             "; " + kInstallHint);
  }
  // Loads the tool without running anything: a broken or partial install
  // fails here, before any benchmark runs.
  int passed = 0;
  const int probe = RunQuietly({valgrind, "--tool=callgrind", "--help"}, signals, &passed);
  if (passed != 0) return InterruptedBeforeBenchmarks(program, passed);
  if (probe == -1 || !WIFEXITED(probe) || WEXITSTATUS(probe) != 0) {
    return Fail(program, valgrind + " cannot run callgrind (`" + valgrind +
                             " --tool=callgrind --help` failed); " + kInstallHint);
  }
  const std::string self = SelfPath();
  if (self.empty()) return Fail(program, "cannot find this executable (/proc/self/exe)");

  const char* tmp = getenv("TMPDIR");
  std::string dir =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/benchprof-callgrind-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    return Fail(program, "cannot create a directory for callgrind's files: " + dir + ": " +
                             std::strerror(errno));
  }
  int bench_end = -1;
  const pid_t guardian = StartGuardian(dir, &bench_end);

  std::vector<std::string> args = {
      valgrind,
      "--tool=callgrind",
      "--quiet",
      // Every thread collects from its start; the benchmark threads turn
      // theirs off outside their timed loops (instructions_profile.cc).
      "--collect-atstart=yes",
      "--callgrind-out-file=" + dir + "/callgrind.out.%p",
      // Each dump names its functions in full: a kept file stands alone.
      "--compress-strings=no",
      // Threads are serialised; fair scheduling keeps a spinning thread from
      // starving the one it waits for.
      "--fair-sched=try",
      // No gdbserver: its FIFOs in $TMPDIR (vgdb-pipe-*) would outlive a
      // Valgrind killed with bench.
      "--vgdb=no",
      self,
  };
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  // Valgrind, then bench under it, die with this bench (its parent-death
  // signal), so that a bench killed with SIGKILL takes them with it and no
  // result appears after bench is gone.
  ChildSpec spec;
  spec.argv = std::move(args);
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, kCallgrindDirEnv, std::strlen(kCallgrindDirEnv)) == 0 &&
        (*e)[std::strlen(kCallgrindDirEnv)] == '=') {
      continue;
    }
    spec.env.emplace_back(*e);
  }
  spec.env.push_back(std::string(kCallgrindDirEnv) + "=" + dir);
  spec.inherit_streams = true;
  spec.signal_mask = signals.previous;
  spec.stop_on_interruption = false;  // WaitPassingSignals passes them on
  const StatusOr<pid_t> spawned = StartChild(spec);
  if (!spawned.ok()) {
    RemoveGuardedDirectory(dir, guardian, bench_end);
    return Fail(program, spawned.status().message() + "; " + kInstallHint);
  }
  const pid_t child = *spawned;
  const int status = WaitPassingSignals(child, signals, &passed);
  const int wait_error = errno;

  struct stat marker;
  const bool started = stat((dir + "/" + kStartedMarker).c_str(), &marker) == 0;
  RemoveGuardedDirectory(dir, guardian, bench_end);
  if (status == -1) {
    return Fail(program, "cannot wait for " + valgrind + ": " + std::strerror(wait_error));
  }
  if (WIFSIGNALED(status)) {
    // A crash or SIGQUIT once the run under Valgrind had started: it said
    // what it wrote, then died of the signal as bench does.
    if (started && DiesOfSignalAfterReport(WTERMSIG(status))) return 128 + WTERMSIG(status);
    // Killed before bench's own handler ran (during Valgrind's start-up).
    return InterruptedBeforeBenchmarks(program, WTERMSIG(status));
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 4;
  if (!started) {
    return Fail(program, valgrind + " could not run " + self + " (exit code " +
                             std::to_string(code) + "; its message is above)");
  }
  return code;
}

}  // namespace benchprof::profiles
