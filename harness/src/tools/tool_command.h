// What every subcommand of the `benchprof` tool shares: its exit codes, its
// entry in the tool's command table, and the shape of its --help and of its
// errors. The flags themselves follow <benchprof/flags.h>.
//
//   FlagSet flags("benchprof convert");
//   flags.File("out", &out_path, "write to FILE (atomically) instead of standard output");
//   CommandLine cl;
//   if (auto done = ParseSubcommand(flags, args, kIntro, kExitCodes, &cl, out, err)) return *done;
//
// Thread-safety: thread-safe (constants and pure functions).
#ifndef BENCHPROF_TOOLS_TOOL_COMMAND_H_
#define BENCHPROF_TOOLS_TOOL_COMMAND_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "common/status.h"

namespace benchprof::tools {

// Exit codes of `benchprof compare`; 0 and 3 mean the same for every
// subcommand (each lists its own in its --help).
inline constexpr int kExitOk = 0;  // no regression / success
inline constexpr int kExitRegression = 1;
inline constexpr int kExitInconclusive = 2;
inline constexpr int kExitBadInput = 3;  // unreadable or malformed input, bad flags

// One subcommand. benchprof_main.cc dispatches over a table of these, and
// `benchprof --help` lists them from it.
struct ToolCommand {
  std::string_view name;  // as typed: "trace-summary"
  // What it does, for `benchprof --help`: a line of at most 66 columns, or
  // several separated by '\n'.
  std::string_view summary;
  // Runs the subcommand with `args` (after its name): appends its report (or
  // help) to `out` and warnings and errors to `err`, returns the exit code.
  int (*run)(const std::vector<std::string>& args, std::string& out, std::string& err);
  // The text of `benchprof <name> --help`.
  std::string (*help)();
};

// A subcommand's --help: `intro` (usage lines and description, ending with a
// blank line), then "Flags:" and the flags of `flags` with their help, then
// `exit_codes`. Generated from the declarations, so it cannot drift from
// what the command accepts.
std::string CommandHelp(std::string_view intro, const FlagSet& flags,
                        std::span<const ExitCodeInfo> exit_codes);

// Parses a subcommand's `args` with `flags`. Returns the exit code when the
// subcommand is done already: its help was asked for (appended to `out`,
// kExitOk) or the arguments are bad (one line in `err` naming `program`,
// kExitBadInput). Returns nothing, with `*cl` filled, when it should run.
std::optional<int> ParseSubcommand(const FlagSet& flags, std::span<const std::string> args,
                                   std::string_view intro, std::span<const ExitCodeInfo> exit_codes,
                                   CommandLine* cl, std::string& out, std::string& err);

// A subcommand's --help, from the function that declares its flags bound
// to a Settings struct (as every subcommand's DeclareFlags does):
//   std::string FlamegraphHelp() {
//     return SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
//   }
template <typename Settings>
std::string SubcommandHelp(std::string_view program, void (*declare)(FlagSet&, Settings*),
                           std::string_view intro, std::span<const ExitCodeInfo> exit_codes) {
  Settings unused{};
  FlagSet flags{std::string(program)};
  declare(flags, &unused);
  return CommandHelp(intro, flags, exit_codes);
}

// ParseSubcommand with the flags `declare` binds to `*settings`.
template <typename Settings>
std::optional<int> ParseSubcommandInto(std::string_view program,
                                       void (*declare)(FlagSet&, Settings*),
                                       std::span<const std::string> args, std::string_view intro,
                                       std::span<const ExitCodeInfo> exit_codes,
                                       Settings* settings, CommandLine* cl, std::string& out,
                                       std::string& err) {
  FlagSet flags{std::string(program)};
  declare(flags, settings);
  return ParseSubcommand(flags, args, intro, exit_codes, cl, out, err);
}

// The one file operand of a subcommand that takes exactly one (before or
// after "--"), or the error "expected one `what` (got N; see benchprof
// `command` --help)".
StatusOr<std::string> OneOperand(const CommandLine& cl, std::string_view command,
                                 std::string_view what);

// Checks an HTML-writing subcommand's -o before any input is read: given,
// and a file other than each of `inputs` (an input with an empty path is
// not given). The inputs may name one file twice; the output may be none.
Status CheckHtmlOutput(const std::string& out, std::span<const NamedPath> inputs);

// CheckHtmlOutput, then the output's temporary file (AtomicFile), before
// any input is read; an error says which ("-o: ...").
StatusOr<AtomicFile> CreateHtmlOutput(const std::string& out, std::span<const NamedPath> inputs);

// Appends "`program`: `message`" to `err` as one line (control characters
// in `message` become spaces, see OneLine) and returns kExitBadInput: the one
// way a subcommand reports bad input.
int Fail(std::string& err, std::string_view program, const std::string& message);

}  // namespace benchprof::tools

#endif  // BENCHPROF_TOOLS_TOOL_COMMAND_H_
