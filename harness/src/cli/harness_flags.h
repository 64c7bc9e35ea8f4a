// bench's own command line after benchmark::Initialize() has taken the
// library's flags: --benchmem (the one harness flag that belongs to no
// profile kind; each kind declares its own, profiles/profile.h), --timeout
// and --shard, and the parse of what is left, with the convention of
// <benchprof/flags.h>.
//
//   FlagSet flags("bench");
//   HarnessOptions options;
//   DeclareHarnessFlags(flags, options);
//   for (auto& kind : kinds) kind->DeclareFlags(flags);
//   Status parsed = ParseHarnessFlags(flags, rest);
//
// Thread-safety: thread-safe (pure functions over the caller's objects).
#ifndef BENCHPROF_CLI_HARNESS_FLAGS_H_
#define BENCHPROF_CLI_HARNESS_FLAGS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "benchprof/flags.h"
#include "cli/shard.h"
#include "common/status.h"

namespace benchprof::cli {

// What the harness flags outside the profile kinds asked for.
struct HarnessOptions {
  // Publish allocs/op and B/op on every benchmark (Go's -benchmem).
  bool benchmem = false;
  // --timeout, in nanoseconds; 0: none (Go's -timeout, off by default here).
  int64_t timeout_ns = 0;
  std::string timeout;  // as given, for messages ("10m")
  // --shard=I/N: run only this slice of the selected benchmarks
  // (cli/shard.h); none: all of them.
  std::optional<Shard> shard;
};

// Declares --benchmem, --timeout and --shard on `flags`, bound to `options`.
void DeclareHarnessFlags(FlagSet& flags, HarnessOptions& options);

// Parses the arguments left after benchmark::Initialize(), program name
// excluded, into the variables `flags` binds. bench takes no operands: an
// argument that is not a flag is an error. The first problem is returned as
// an error naming the argument.
Status ParseHarnessFlags(const FlagSet& flags, std::span<const std::string> args);

}  // namespace benchprof::cli

#endif  // BENCHPROF_CLI_HARNESS_FLAGS_H_
