// benchprof's own flags (--benchmem, ...): the table, and the parser that
// turns what benchmark::Initialize() left in argv into Options.
//
// A flag that is not in the table is an error, never silently ignored: flags
// of later features are unknown until they are implemented.
//
// Thread-safety: thread-safe (pure functions over constant tables).
#ifndef BENCHPROF_CLI_HARNESS_FLAGS_H_
#define BENCHPROF_CLI_HARNESS_FLAGS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof::cli {

// What the harness flags asked for.
struct Options {
  // Publish allocs/op and B/op on every benchmark (Go's -benchmem).
  bool benchmem = false;
  // Write a CPU profile here; empty: no CPU profile.
  std::string cpuprofile;
  // CPU samples per CPU-second of each thread.
  int cpuprofile_rate = 100;
  // Write a heap (allocs) profile here; empty: no heap profile.
  std::string memprofile;
  // Mean bytes between heap profile samples; 1 = every allocation, 0 = off.
  int64_t memprofile_rate = 512 * 1024;
  // Write an execution trace (Chrome trace-event JSON) here; empty: no trace.
  std::string trace;
  // Readings per second of each thread's CPU clock (and of the allocation
  // totals) in a trace; 0 = none.
  int trace_cpu_rate = 100;
};

// One harness flag, for parsing and for --help.
struct HarnessFlag {
  std::string_view name;        // without dashes
  std::string_view value_name;  // empty for a boolean flag
  std::string_view help;        // one line
  Status (*apply)(std::string_view value, Options& options);
};

// Every harness flag, in --help order.
std::span<const HarnessFlag> HarnessFlags();

// True for --help, -help, -h and --help=anything (after NormalizeDashes).
bool IsHelpFlag(std::string_view arg);

// Parses the arguments left after benchmark::Initialize(), program name
// excluded, already passed through NormalizeDashes(). Accepts `--flag`,
// `--flag=value` and, for flags with a value, `--flag value`. The first
// problem is returned as an error naming the argument.
StatusOr<Options> ParseHarnessFlags(std::span<const std::string> args);

}  // namespace benchprof::cli

#endif  // BENCHPROF_CLI_HARNESS_FLAGS_H_
