#include "cli/harness_flags.h"

#include <optional>
#include <string>

#include "common/go_duration.h"

namespace benchprof::cli {

void DeclareHarnessFlags(FlagSet& flags, HarnessOptions& options) {
  flags.Bool("benchmem", &options.benchmem,
             "report allocs/op and B/op: heap allocations (any thread, paused time excluded) "
             "per iteration; B/op counts requested bytes");
  flags.Custom(
      "timeout", "DURATION",
      [&options](std::string_view value) -> std::string {
        const std::optional<int64_t> ns = ParseGoDuration(value);
        if (!ns) return "expected a duration such as 90s, 10m or 1h30m (Go's syntax), 0 for none";
        options.timeout_ns = *ns;
        options.timeout = std::string(value);
        return "";
      },
      "if the run takes longer than DURATION (Go's syntax: 90s, 10m, 1h30m), print every "
      "thread's stack, write what was collected (as for SIGINT) and exit 5 (default 0: none)");
  flags.Custom(
      "shard", "I/N",
      [&options](std::string_view value) -> std::string {
        StatusOr<Shard> shard = ParseShard(value);
        if (!shard.ok()) return shard.status().message();
        options.shard = *shard;
        return "";
      },
      "run only shard I of N (counted from 0) of the benchmarks the filter selects: every "
      "instance in exactly one shard, dealt out in turn; an empty shard writes a result file "
      "with no benchmarks (docs/sharding.md)");
}

Status ParseHarnessFlags(const FlagSet& flags, std::span<const std::string> args) {
  bool help = false;  // handled before the library saw the arguments
  std::string error;
  if (!flags.ParseFlagsOnly(args, &help, &error)) return Status::Error(error);
  return Status();
}

}  // namespace benchprof::cli
