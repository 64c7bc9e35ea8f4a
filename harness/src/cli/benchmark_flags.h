// Validation of Google Benchmark's own flags, as the linked version spells
// them, before the library sees them.
//
// The library parses `--benchmark_*` flags leniently: a malformed integer leaves the
// token in argv after printing a message, a bad --benchmark_format prints the
// help and exits 0, `--benchmark_list_tests=banana` means true, an invalid
// filter regex reads as "no benchmark matched". benchprof checks every such
// flag first, so each mistake is one line and exit code 2, and the library
// only ever sees values it understands.
//
// Thread-safety: thread-safe (pure functions, but for CheckMachineFacts,
// which reads the library's CPUInfo once, as benchmark::CPUInfo::Get does).
#ifndef BENCHPROF_CLI_BENCHMARK_FLAGS_H_
#define BENCHPROF_CLI_BENCHMARK_FLAGS_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof::cli {

// True if `arg` is spelled like one of the library's flags: it starts with
// `--benchmark_`, or is `--v` / `--v=...`.
bool IsBenchmarkFlag(std::string_view arg);

// Checks one argument for which IsBenchmarkFlag() is true: the flag must be
// one the linked version knows (--benchmark_dry_run: 1.9.1+), with
// --benchmark_min_time as that version spells it (1.7: seconds; 1.8+:
// "0.5s", "100x" or seconds), spelled `--name=value` (booleans may omit `=value`), with a
// value of the right form. The error names the argument.
Status ValidateBenchmarkFlag(std::string_view arg);

// Checks the environment variables the library reads as defaults for its
// flags (BENCHMARK_FORMAT for --benchmark_format, ..., and V for --v: the
// library names each variable after its flag, upper-cased) as strictly as
// the flags; the error names the variable. A flag given on the command
// line overrides its variable, but a bad variable is refused all the same.
// BENCHMARK_V, which the library does not read, is refused as a misspelling
// of V rather than silently ignored.
Status ValidateBenchmarkEnvironment();

// Checks what the library read about the machine for every result file's
// context (benchmark::CPUInfo, read from /proc/cpuinfo and /sys once, at
// its first use): the number of CPUs and their frequency. Unable to read
// them (out of file descriptors, say), the library would write
// `num_cpus: -1` and `mhz_per_cpu: 0` into the results; the error names
// the fact instead (the library has printed why, above). The first call
// reads the facts, and the library may exit() there (it does when it
// cannot read a cache's type): call it where that exit is handled
// (session::LibraryExitGuard).
Status CheckMachineFacts();

// `arg`, valid, as the library should see it: on 1.8+ a bare
// --benchmark_min_time=N becomes N seconds spelled "Ns" (the library would
// warn about the bare number once per benchmark); else unchanged.
std::string ForLibrary(std::string_view arg);

}  // namespace benchprof::cli

#endif  // BENCHPROF_CLI_BENCHMARK_FLAGS_H_
