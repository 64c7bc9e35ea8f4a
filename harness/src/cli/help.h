// The text of `bench --help`: Google Benchmark's flags, benchprof's flags
// (those of every profile kind included) and the exit codes.
//
// Thread-safety: thread-compatible (writes to stdout).
#ifndef BENCHPROF_CLI_HELP_H_
#define BENCHPROF_CLI_HELP_H_

#include <span>

#include "benchprof/flags.h"

namespace benchprof::cli {

// bench's exit codes, as --help and docs/bench.md list them.
std::span<const ExitCodeInfo> BenchExitCodes();

// Prints the help to stdout, with `flags` as benchprof's flags.
void PrintHelp(const FlagSet& flags);

// Prints `bench --version` to stdout: benchprof's version and the Google
// Benchmark version it was built against.
void PrintVersion();

}  // namespace benchprof::cli

#endif  // BENCHPROF_CLI_HELP_H_
