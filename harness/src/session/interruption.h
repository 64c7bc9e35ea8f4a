// What bench does when it is interrupted (SIGINT, SIGTERM, SIGHUP): one
// line on stderr, every temporary output file removed, the previous output
// files kept, exit 128 + the signal's number (130, 143, 129). It happens
// at once, also while a benchmark's loop runs: a watcher thread takes the
// signals, and the process exits around the benchmark. A signal the process
// inherited as ignored (SIGHUP under nohup) stays ignored.
//
// If the library calls exit() mid-run, LibraryExitGuard cleans up the same
// way.
//
// SIGPIPE is ignored: when whatever reads stdout goes away (`| head -1`),
// the console output stops but the run completes and --benchmark_out and
// the profiles are written.
//
//   WatchForInterruption("bench");   // first thing, before any thread starts
//
// Thread-safety: call once, from main() before any other thread exists
// (the signal mask it sets is inherited by every thread created after).
#ifndef BENCHPROF_SESSION_INTERRUPTION_H_
#define BENCHPROF_SESSION_INTERRUPTION_H_

#include <string>

#include "common/status.h"

namespace benchprof::session {

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and so in every
// thread it starts later), starts the thread that waits for them, and
// ignores SIGPIPE. `program` names the process in the message.
Status WatchForInterruption(const std::string& program);

// While one of these lives, a call of exit() is Google Benchmark (or a
// benchmark) giving up in the middle of the run (it exits with 1 when it cannot open
// --benchmark_out or read /sys, e.g. out of file descriptors): the
// temporary files are removed, one line follows the library's, and the
// exit code becomes `exit_code` (benchprof failed, not a benchmark).
class LibraryExitGuard {
 public:
  LibraryExitGuard(const std::string& program, int exit_code);
  ~LibraryExitGuard();
  LibraryExitGuard(const LibraryExitGuard&) = delete;
  LibraryExitGuard& operator=(const LibraryExitGuard&) = delete;
};

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_INTERRUPTION_H_
