#include "profiles/valgrind_launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

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

// SIGINT, SIGTERM, SIGHUP and SIGCHLD blocked while it lives, to be taken
// with sigwaitinfo(waited) by WaitPassingSignals: a signal from the start
// on is passed to the child of the moment (the Valgrind check, then the run
// under Valgrind), never the default action that would leave callgrind's
// directory behind.
struct BlockedSignals {
  BlockedSignals() {
    sigemptyset(&waited);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&waited, s);
    sigprocmask(SIG_BLOCK, &waited, &previous);
  }
  ~BlockedSignals() { sigprocmask(SIG_SETMASK, &previous, nullptr); }
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;

  sigset_t waited;
  sigset_t previous;  // the mask before, which children get
};

// Waits for `child`, passing SIGINT, SIGTERM and SIGHUP on to it. Returns
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
    if (got == SIGINT || got == SIGTERM || got == SIGHUP) {
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

// Runs `argv` with stdin, stdout and stderr on /dev/null, with the signal
// mask from before `signals`, and returns its wait status, or -1 if it could
// not be started or waited for; `*passed` as WaitPassingSignals says.
int RunQuietly(const std::vector<std::string>& args, const BlockedSignals& signals, int* passed) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  for (int fd = 0; fd <= 2; ++fd) {
    posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  }
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setsigmask(&attributes, &signals.previous);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  *passed = 0;
  if (spawned != 0) return -1;
  return WaitPassingSignals(pid, signals, passed);
}

// Removes `dir` and the files in it (callgrind's dumps; no subdirectories).
void RemoveDirectory(const std::string& dir) {
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* entry = readdir(d)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") unlink((dir + "/" + name).c_str());
    }
    closedir(d);
  }
  rmdir(dir.c_str());
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
      self,
  };
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> child_argv;
  for (std::string& arg : args) child_argv.push_back(arg.data());
  child_argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, kCallgrindDirEnv, std::strlen(kCallgrindDirEnv)) == 0 &&
        (*e)[std::strlen(kCallgrindDirEnv)] == '=') {
      continue;
    }
    env_strings.emplace_back(*e);
  }
  env_strings.push_back(std::string(kCallgrindDirEnv) + "=" + dir);
  std::vector<char*> child_env;
  for (std::string& s : env_strings) child_env.push_back(s.data());
  child_env.push_back(nullptr);

  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setsigmask(&attributes, &signals.previous);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t child = -1;
  const int spawned = posix_spawn(&child, valgrind.c_str(), nullptr, &attributes, child_argv.data(),
                                  child_env.data());
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    RemoveDirectory(dir);
    return Fail(program, valgrind + ": " + std::strerror(spawned) + "; " + kInstallHint);
  }
  const int status = WaitPassingSignals(child, signals, &passed);
  const int wait_error = errno;

  struct stat marker;
  const bool started = stat((dir + "/" + kStartedMarker).c_str(), &marker) == 0;
  RemoveDirectory(dir);
  if (status == -1) {
    return Fail(program, "cannot wait for " + valgrind + ": " + std::strerror(wait_error));
  }
  // Killed before bench's own handler ran (during Valgrind's start-up).
  if (WIFSIGNALED(status)) return InterruptedBeforeBenchmarks(program, WTERMSIG(status));
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 4;
  if (!started) {
    return Fail(program, valgrind + " could not run " + self + " (exit code " +
                             std::to_string(code) + "; its message is above)");
  }
  return code;
}

}  // namespace benchprof::profiles
