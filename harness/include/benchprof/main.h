// benchprof's entry point: Google Benchmark plus Go's -benchmem.
//
// Most users never include this header: linking `benchprof::main` instead of
// `benchmark::benchmark_main` provides main(). A program that needs its own
// main() (to set up logging, say) calls benchprof::Main() from it:
//
//   int main(int argc, char** argv) {
//     InitMyLogging();
//     return benchprof::Main(argc, argv);
//   }
//
// The program must still link `benchprof::main`: the timed-loop interception
// and the allocation counters are linked into the executable, and benchmarks
// must be compiled into it (or into static libraries), not shared libraries.
//
// Thread-safety: call Main() once, from the main thread.
#ifndef BENCHPROF_MAIN_H_
#define BENCHPROF_MAIN_H_

namespace benchprof {

// Process exit codes of Main().
enum ExitCode : int {
  kExitOk = 0,
  // A benchmark reported an error (State::SkipWithError), or its figures
  // could not be measured (e.g. its timed loop was not intercepted).
  kExitBenchmarkError = 1,
  // Bad command line: unknown flag, malformed value, unwritable output path.
  kExitUsage = 2,
  // The benchmark filter matched no benchmark.
  kExitNoBenchmarkMatched = 3,
  // The harness itself failed: its start-up self-test, or writing a result.
  kExitHarnessFailure = 4,
  // The run took longer than --timeout: every thread's stack was printed
  // and what was collected written, marked as interrupted.
  kExitTimeout = 5,
};

// Parses the command line (every Google Benchmark 1.7.1 flag and benchprof's
// own, see --help), runs the selected benchmarks and writes their results.
// Returns an ExitCode. Prints one line to stderr for every failure.
int Main(int argc, char** argv);

}  // namespace benchprof

#endif  // BENCHPROF_MAIN_H_
