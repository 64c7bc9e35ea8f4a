// Running this very program again under Valgrind's callgrind, for
// `bench --instructions`: the parent process checks that Valgrind can run,
// makes a private directory for callgrind's dump files, starts
// `valgrind --tool=callgrind ... /proc/self/exe ARGS...`, forwards SIGINT,
// SIGTERM, SIGHUP and SIGQUIT to it, waits, removes the directory and
// returns the child's exit code. The child learns the directory from the
// environment (kCallgrindDirEnv) and reads its dumps there
// (instructions_profile.cc).
//
// Nothing outlives a bench killed with SIGKILL: Valgrind (and the `valgrind
// --help` check) get SIGKILL as their parent-death signal, so no result file
// appears after bench is gone; and a guardian process, which learns of
// bench's end from a pipe, removes callgrind's directory. (The next run
// could remove a dead run's directory instead, as it does a dead run's
// output temporaries, but then the directory would stay until a next run,
// which may never come on that machine.)
//
//   if (!OnValgrind()) return RunUnderCallgrind(argc, argv, "bench");
//
// Thread-safety: call from main() before any other thread exists (it
// changes the signal mask while it waits, forks, and the parent-death
// signal is tied to the calling thread, which must outlive the run).
#ifndef BENCHPROF_PROFILES_VALGRIND_LAUNCH_H_
#define BENCHPROF_PROFILES_VALGRIND_LAUNCH_H_

#include <string>
#include <string_view>

namespace benchprof::profiles {

// The environment variable that gives the child the directory callgrind
// writes its dumps to (`--callgrind-out-file=DIR/callgrind.out.%p`).
inline constexpr char kCallgrindDirEnv[] = "BENCHPROF_CALLGRIND_DIR";

// The file the child creates in that directory once it runs: without it,
// Valgrind could not start the program at all.
inline constexpr char kStartedMarker[] = "started";

// The program the launcher runs; `valgrind` (found on PATH) unless the
// environment variable BENCHPROF_VALGRIND names another one.
inline constexpr char kValgrindEnv[] = "BENCHPROF_VALGRIND";

// True if this process runs under Valgrind (any tool).
bool OnValgrind();

// Runs argv (this program's own command line) under callgrind and returns
// the exit code bench should end with: the child's, 128 + N if it died of
// signal N, or 4 (with one line on stderr naming the problem and how to
// install Valgrind) if Valgrind is missing or cannot run. `program` starts
// the messages.
int RunUnderCallgrind(int argc, char** argv, const std::string& program);

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_VALGRIND_LAUNCH_H_
