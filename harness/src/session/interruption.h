// What bench does when it is interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT).
//
// Their handler hands them to a watcher thread (through a pipe: a signal
// blocked in every thread would stay blocked in a program a benchmark
// starts, which would then ignore Ctrl-C and outlive the run). What the
// first one does depends on where the run is:
//   * before the benchmarks start: every temporary is removed, the previous
//     output files stay;
//   * while they run: the outputs are written from what was collected so far
//     (the Salvage given to BeginBenchmarks(), on a thread of its own, while
//     the benchmark threads keep running: a benchmark's loop cannot be
//     stopped, so the process exits around it), each marked as interrupted.
//     A signal a handler took before the benchmarks returned counts as one
//     during the run, even if the watcher has not woken yet (EndBenchmarks);
//   * while the main thread writes the outputs: none of them is moved into
//     place (or, if the moves have begun, all of them are: CommitTogether()),
//     so the set is all new or all old.
// Then one line on stderr, every temporary removed (files and the
// directories registered through <benchprof/files.h>), exit 128 + the
// signal's number (130, 143, 129). SIGQUIT first prints every thread's
// stack (as --timeout does, and as Go does), and in the end the process
// dies of SIGQUIT instead (its default action: the exit status and a core
// dump are SIGQUIT's). A second signal while the outputs are
// written exits at once, still removing temporaries and leaving all
// outputs old (or all new if they were already moved into place). A signal
// the process inherited as ignored (SIGHUP under nohup) stays ignored.
// A forked child gets none of this (pthread_atfork): its signals and its
// crashes are its own.
//
// The same watcher ends a run that outlives --timeout (after printing every
// thread's stack: thread_stack_dump.h) and reports a crash
// (crash_signals.h: the crashing thread waits in its handler while the
// watcher writes, then dies of its signal). If the library calls exit()
// mid-run, LibraryExitGuard cleans up the same way.
//
// SIGPIPE is caught and dropped: when whatever reads stdout goes away
// (`| head -1`), the console output stops but the run completes and
// --benchmark_out and the profiles are written. SIGXFSZ too: a write past
// `ulimit -f` fails like one on a full disk (exit 4, the previous file
// kept). Caught rather than ignored, so that a program a benchmark starts
// gets both back at their default action.
//
//   WatchForInterruption("bench");   // first thing, before any thread starts
//   BeginBenchmarks([&](const std::string& reason) { ... write, CommitTogether ... });
//   RunSpecifiedBenchmarks(...);
//   EndBenchmarks();                 // returns only if no salvage began
//   ... write the outputs ...; CommitTogether([&] { ... renames ... });
//
// Thread-safety: call WatchForInterruption once, from main() before any
// other thread exists (it blocks the crash handlers' signal, and threads
// inherit that mask); BeginBenchmarks and EndBenchmarks from the main thread.
#ifndef BENCHPROF_SESSION_INTERRUPTION_H_
#define BENCHPROF_SESSION_INTERRUPTION_H_

#include <cstdint>
#include <functional>
#include <string>

#include "common/status.h"

namespace benchprof::session {

// Writes what an interrupted run collected, marked with `reason` ("SIGINT"),
// and moves it into place with CommitTogether(). Runs on its own thread
// while benchmark threads still run. Returns the end of the line printed
// ("interrupted by SIGINT; " + it), or an error for that line.
using Salvage = std::function<StatusOr<std::string>(const std::string& reason)>;

// Installs the handlers of SIGINT, SIGTERM, SIGHUP and SIGQUIT (and drops SIGPIPE
// and SIGXFSZ), the crash handlers, and starts the thread that acts on
// them; returns once that thread is in place. `program` names the process
// in the message.
//
// `timeout_ns` > 0 (--timeout=`timeout`): that long from now, the watcher
// prints which benchmark runs and every thread's symbolized stack
// (thread_stack_dump.h), then acts as on a signal, with reason
// "--timeout=`timeout`" and exit code kExitTimeout.
Status WatchForInterruption(const std::string& program, int64_t timeout_ns = 0,
                            const std::string& timeout = "");

// The benchmarks are about to run: until EndBenchmarks(), an interruption
// calls `salvage` (which must stay valid that long). `running` (optional)
// says which benchmark runs, for a timeout's report.
void BeginBenchmarks(Salvage salvage, std::function<std::string()> running = {});

// The benchmarks have returned. Returns if the outputs are the calling
// thread's to write; never returns if an interruption has begun writing
// them, or if a signal has come that the watcher is about to act on (a
// handler took it, or it is pending): the watcher ends the process.
void EndBenchmarks();

// Runs `commit`, the moves of every written output into place, so that an
// interruption leaves all of them moved or none: it waits for a commit in
// progress, and once it has begun exiting no commit starts (the call then
// never returns). `commit` must not block (no output to a terminal).
void CommitTogether(const std::function<void()>& commit);

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
