#include "tools/tool_command.h"

#include "tools/text_format.h"

namespace benchprof::tools {

std::string CommandHelp(std::string_view intro, const FlagSet& flags,
                        std::span<const ExitCodeInfo> exit_codes) {
  return std::string(intro) + "Flags:\n" + flags.Usage() + "\n" + FormatExitCodes(exit_codes);
}

int Fail(std::string& err, std::string_view program, const std::string& message) {
  err += std::string(program) + ": " + OneLine(message) + "\n";
  return kExitBadInput;
}

}  // namespace benchprof::tools
