// Child processes that never outlive their parent: a program benchprof
// starts (a benchmark binary under `benchprof gate`) dies with it, however
// it ends, and an interrupted parent stops its children before it removes
// its temporary files.
//
//   StatusOr<pid_t> child = StartChild({.argv = {"./bench", "--benchmark_out=r.json"},
//                                       .stdout_path = "out.log", .stderr_path = "err.log"});
//   if (!child.ok()) return child.status();       // "./bench: cannot run: ..."
//   ChildExit end = WaitForChild(*child, 60'000'000'000);  // at most a minute
//
// How:
//   - the child's parent-death signal is SIGKILL (PR_SET_PDEATHSIG), set
//     between fork and exec with the check that the parent has not died
//     already: a parent killed with SIGKILL takes the child with it, and
//     nothing the child would have written appears afterwards. The signal
//     comes when the *thread* that started the child ends, so start
//     children from a thread that outlives them (the main thread);
//   - while a child runs it is registered with the interruption watcher
//     (HandleInterruptions, <benchprof/files.h>; unless the spec says not
//     to): a SIGINT, SIGTERM or
//     SIGHUP to the parent is passed on to each child, which gets up to 10
//     seconds to end (a benchmark binary writes what it collected) before
//     it is killed; only then are the temporaries removed and the parent
//     exits with 128 + the signal.
//
// Thread-safety: thread-safe; WaitForChild waits for one child from one
// thread.
#ifndef BENCHPROF_COMMON_CHILD_PROCESS_H_
#define BENCHPROF_COMMON_CHILD_PROCESS_H_

#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace benchprof {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the program's path (no PATH search)
  // "NAME=value" entries; empty: this process's environment.
  std::vector<std::string> env;
  // Where the child's standard output and error go: a file (created or
  // truncated), "" for /dev/null. Standard input is /dev/null.
  std::string stdout_path;
  std::string stderr_path;
  // Instead: the child inherits this process's standard input, output and
  // error (the paths above are then not used).
  bool inherit_streams = false;
  // Registered with the interruption watcher of <benchprof/files.h>
  // (above). A process with watchers of its own (a benchmark binary) passes
  // signals on itself and says false.
  bool stop_on_interruption = true;
  // In a process group of its own: a terminal's Ctrl-C reaches only the
  // parent, which passes it on once.
  bool own_process_group = false;
  // The child's signal mask; none: no signal blocked.
  std::optional<sigset_t> signal_mask;
};

// Starts `spec`. Fails with one line naming argv[0] when the program
// cannot be started (not found, not executable, an output file that
// cannot be created) or when the process is exiting on a signal already.
StatusOr<pid_t> StartChild(const ChildSpec& spec);

struct ChildExit {
  int status = 0;          // waitpid's status
  bool timed_out = false;  // it ran past the timeout and was killed (SIGKILL)
};

// Waits for `child` (started by StartChild) to end, and forgets it. With
// `timeout_ns` > 0 a child still running after that long is killed with
// SIGKILL. If the process is exiting on a signal meanwhile, this never
// returns (the watcher ends the process).
ChildExit WaitForChild(pid_t child, int64_t timeout_ns);

// "exit code 3", "killed by SIGSEGV" (and ", core dumped"): a wait status
// as one phrase.
std::string DescribeWaitStatus(int status);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_CHILD_PROCESS_H_
