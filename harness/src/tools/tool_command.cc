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

StatusOr<std::string> OneOperand(const CommandLine& cl, std::string_view command,
                                 std::string_view what) {
  const size_t count = cl.operands.size() + cl.after_separator.size();
  if (count != 1) {
    return Status::Error("expected one " + std::string(what) + " (got " + std::to_string(count) +
                         "; see benchprof " + std::string(command) + " --help)");
  }
  return cl.operands.empty() ? cl.after_separator[0] : cl.operands[0];
}

Status CheckHtmlOutput(const std::string& out, std::span<const NamedPath> inputs) {
  if (out.empty()) return Status::Error("-o FILE is required (the file to write)");
  for (const NamedPath& input : inputs) {
    if (input.path.empty()) continue;
    const NamedPath pair[] = {{"-o", out}, input};
    if (Status distinct = CheckDistinctFiles(pair); !distinct.ok()) return distinct;
  }
  return Status();
}

StatusOr<AtomicFile> CreateHtmlOutput(const std::string& out, std::span<const NamedPath> inputs) {
  if (Status checked = CheckHtmlOutput(out, inputs); !checked.ok()) return checked;
  StatusOr<AtomicFile> output = AtomicFile::Create(out);
  if (!output.ok()) return output.status().WithContext("-o");
  return output;
}

}  // namespace benchprof::tools
