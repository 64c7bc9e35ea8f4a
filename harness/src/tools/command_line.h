// The small pieces the benchprof subcommands share: splitting arguments into
// flags and operands, and the exit codes.
//
//   CommandLine cl = ParseCommandLine(args, {"format", "threshold"});
//   if (!cl.error.empty()) return Fail(cl.error);
//   for (const Flag& f : cl.flags) { if (f.name == "format") ... f.value ... }
//
// Flags are `--name=value` or `--name value` (for flags that take a value),
// with one or two leading dashes, as Go tools accept. A lone `--` ends the
// flags; what follows is in `after_separator`.
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_COMMAND_LINE_H_
#define BENCHPROF_TOOLS_COMMAND_LINE_H_

#include <set>
#include <string>
#include <vector>

namespace benchprof::tools {

// Exit codes of `benchprof compare` (and, for 0 and 3, of every subcommand).
inline constexpr int kExitOk = 0;  // no regression / success
inline constexpr int kExitRegression = 1;
inline constexpr int kExitInconclusive = 2;
inline constexpr int kExitBadInput = 3;  // unreadable or malformed input, bad flags

struct Flag {
  std::string name;   // without dashes
  std::string value;  // empty for a flag without '=' that takes no value
  bool has_value = false;
};

struct CommandLine {
  std::vector<Flag> flags;
  std::vector<std::string> operands;         // before a lone "--"
  std::vector<std::string> after_separator;  // after it
  bool has_separator = false;
  std::string error;  // non-empty when the arguments cannot be split
};

// Splits `args` (without the program and subcommand names). Flags named in
// `with_value` take a value, from after '=' or from the next argument.
CommandLine ParseCommandLine(const std::vector<std::string>& args,
                             const std::set<std::string>& with_value);

// `message` with control characters (e.g. a newline inside a benchmark name)
// replaced by spaces, so an error stays on one line.
std::string OneLine(const std::string& message);

}  // namespace benchprof::tools

#endif  // BENCHPROF_TOOLS_COMMAND_LINE_H_
