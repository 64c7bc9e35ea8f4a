#include "common/child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "common/temporary_files.h"

extern char** environ;

namespace benchprof {
namespace {

// Opens `path` ("" for /dev/null) onto `fd` in the child. Async-signal-safe.
bool Redirect(const char* path, int fd, int flags) {
  const int opened = open(path[0] == '\0' ? "/dev/null" : path, flags | O_CLOEXEC, 0644);
  if (opened < 0) return false;
  if (dup2(opened, fd) < 0) return false;  // dup2 clears O_CLOEXEC on fd
  close(opened);
  return true;
}

// The pointers execve takes, into `strings`.
std::vector<char*> PointersTo(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

const char* SignalName(int signal_number) {
  const char* name = sigabbrev_np(signal_number);
  return name != nullptr ? name : "an unknown signal";
}

}  // namespace

StatusOr<pid_t> StartChild(const ChildSpec& spec) {
  if (spec.argv.empty()) return Status::Error("no program to run");
  const std::string& program = spec.argv[0];
  // Everything the child needs is prepared here: after fork() it may only
  // make async-signal-safe calls.
  std::vector<std::string> args = spec.argv, env = spec.env;
  std::vector<char*> argv = PointersTo(args);
  std::vector<char*> envp = PointersTo(env);
  char* const* environment = spec.env.empty() ? environ : envp.data();
  sigset_t mask;
  if (spec.signal_mask) {
    mask = *spec.signal_mask;
  } else {
    sigemptyset(&mask);
  }
  // exec's failure (stage and errno) comes back through the pipe, which a
  // successful exec closes.
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    return Status::Error(program + ": cannot run: " + std::strerror(errno));
  }
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    const int error = errno;
    close(report[0]);
    close(report[1]);
    return Status::Error(program + ": cannot run: " + std::strerror(error));
  }
  if (child == 0) {
    int failure[2] = {0, 0};  // {stage, errno}: 1 death signal, 2 output, 3 exec
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
      failure[0] = 1;
    } else if (getppid() != parent) {
      _exit(127);  // the parent died before the death signal was set
    } else if (spec.own_process_group && setpgid(0, 0) != 0) {
      failure[0] = 1;
    } else if (!spec.inherit_streams &&
               (!Redirect("", STDIN_FILENO, O_RDONLY) ||
                !Redirect(spec.stdout_path.c_str(), STDOUT_FILENO, O_WRONLY | O_CREAT | O_TRUNC) ||
                !Redirect(spec.stderr_path.c_str(), STDERR_FILENO, O_WRONLY | O_CREAT | O_TRUNC))) {
      failure[0] = 2;
    } else {
      // Dispositions a parent's handlers set do not survive exec; ignored
      // signals would, but the parent ignores only SIGXFSZ (for itself).
      signal(SIGXFSZ, SIG_DFL);
      sigprocmask(SIG_SETMASK, &mask, nullptr);
      execve(argv[0], argv.data(), environment);
      failure[0] = 3;
    }
    failure[1] = errno;
    const ssize_t ignored = write(report[1], failure, sizeof failure);
    (void)ignored;
    _exit(127);
  }
  close(report[1]);
  int failure[2] = {0, 0};
  ssize_t got;
  do {
    got = read(report[0], failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  close(report[0]);
  if (got == static_cast<ssize_t>(sizeof failure)) {
    while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
    const char* stage = failure[0] == 2 ? ": cannot open its output: " : ": cannot run: ";
    return Status::Error(program + stage + std::strerror(failure[1]));
  }
  if (spec.stop_on_interruption && !RegisterChild(child)) {
    // Exiting on a signal already: the watcher will not stop this one.
    kill(child, SIGKILL);
    while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
    return Status::Error(program + ": not started: interrupted");
  }
  return child;
}

ChildExit WaitForChild(pid_t child, int64_t timeout_ns) {
  ChildExit result;
  const auto start = std::chrono::steady_clock::now();
  // A poll, not a blocking wait: the timeout needs no signal or thread,
  // and a few wake-ups a second cost nothing beside a benchmark run.
  auto pause = std::chrono::microseconds(500);
  for (;;) {
    const pid_t done = waitpid(child, &result.status, WNOHANG);
    if (done == child || (done < 0 && errno != EINTR)) break;
    if (timeout_ns > 0 && !result.timed_out &&
        std::chrono::steady_clock::now() - start > std::chrono::nanoseconds(timeout_ns)) {
      result.timed_out = true;
      kill(child, SIGKILL);
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(20)) pause *= 2;
  }
  UnregisterChild(child);
  // The watcher stopped this child on its way out: let it finish.
  if (ExitingOnSignal()) {
    for (;;) ::pause();
  }
  return result;
}

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return std::string("killed by SIG") + SignalName(WTERMSIG(status)) +
           (WCOREDUMP(status) ? ", core dumped" : "");
  }
  return "stopped";
}

}  // namespace benchprof
