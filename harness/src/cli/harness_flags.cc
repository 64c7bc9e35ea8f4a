#include "cli/harness_flags.h"

namespace benchprof::cli {

void DeclareHarnessFlags(FlagSet& flags, HarnessOptions& options) {
  flags.Bool("benchmem", &options.benchmem,
             "report allocs/op and B/op: heap allocations (any thread, paused time excluded) "
             "per iteration; B/op counts requested bytes");
}

bool IsHelpFlag(std::string_view arg) {
  if (arg.starts_with("--")) {
    arg.remove_prefix(2);
  } else if (arg.starts_with("-")) {
    arg.remove_prefix(1);
  } else {
    return false;
  }
  return arg == "help" || arg == "h" || arg.starts_with("help=");
}

Status ParseHarnessFlags(const FlagSet& flags, std::span<const std::string> args) {
  CommandLine cl;
  std::string error;
  if (!flags.Parse(args, &cl, &error)) return Status::Error(error);
  if (!cl.operands.empty() || cl.has_separator) {
    const std::string stray = cl.operands.empty() ? "--" : cl.operands.front();
    return Status::Error("unexpected argument '" + stray +
                         "' (flags are spelled --name=value; see " + flags.program() + " --help)");
  }
  return Status();
}

}  // namespace benchprof::cli
