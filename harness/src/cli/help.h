// The text of `bench --help`: Google Benchmark's flags, benchprof's flags
// (one line each) and the exit codes.
//
// Thread-safety: thread-compatible (writes to stdout).
#ifndef BENCHPROF_CLI_HELP_H_
#define BENCHPROF_CLI_HELP_H_

namespace benchprof::cli {

// Prints the help to stdout. Its signature fits benchmark::Initialize().
void PrintHelp();

}  // namespace benchprof::cli

#endif  // BENCHPROF_CLI_HELP_H_
