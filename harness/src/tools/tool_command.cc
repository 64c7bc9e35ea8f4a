#include "tools/tool_command.h"

#include "tools/text_format.h"

namespace benchprof::tools {

std::string CommandHelp(std::string_view intro, const FlagSet& flags,
                        std::span<const ExitCodeInfo> exit_codes) {
  return std::string(intro) + "Flags:\n" + flags.Usage() + "\n" + FormatExitCodes(exit_codes);
}

std::optional<int> ParseSubcommand(const FlagSet& flags, std::span<const std::string> args,
                                   std::string_view intro, std::span<const ExitCodeInfo> exit_codes,
                                   CommandLine* cl, std::string& out, std::string& err) {
  std::string error;
  if (!flags.Parse(args, cl, &error)) return Fail(err, flags.program(), error);
  if (cl->help) {
    out += CommandHelp(intro, flags, exit_codes);
    return kExitOk;
  }
  return std::nullopt;
}

int Fail(std::string& err, std::string_view program, const std::string& message) {
  err += std::string(program) + ": " + OneLine(message) + "\n";
  return kExitBadInput;
}

}  // namespace benchprof::tools
