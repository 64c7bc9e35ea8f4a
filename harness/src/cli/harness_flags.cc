#include "cli/harness_flags.h"

namespace benchprof::cli {

void DeclareHarnessFlags(FlagSet& flags, HarnessOptions& options) {
  flags.Bool("benchmem", &options.benchmem,
             "report allocs/op and B/op: heap allocations (any thread, paused time excluded) "
             "per iteration; B/op counts requested bytes");
}

Status ParseHarnessFlags(const FlagSet& flags, std::span<const std::string> args) {
  bool help = false;  // handled before the library saw the arguments
  std::string error;
  if (!flags.ParseFlagsOnly(args, &help, &error)) return Status::Error(error);
  return Status();
}

}  // namespace benchprof::cli
