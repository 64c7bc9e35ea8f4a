#include "tools/command_line.h"

namespace benchprof::tools {

CommandLine ParseCommandLine(const std::vector<std::string>& args,
                             const std::set<std::string>& with_value) {
  CommandLine cl;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (cl.has_separator) {
      cl.after_separator.push_back(arg);
      continue;
    }
    if (arg == "--") {
      cl.has_separator = true;
      continue;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      cl.operands.push_back(arg);  // includes "-" (not a flag)
      continue;
    }
    const size_t dashes = arg[1] == '-' ? 2 : 1;
    Flag flag;
    const std::string body = arg.substr(dashes);
    const size_t eq = body.find('=');
    flag.name = body.substr(0, eq);
    if (eq != std::string::npos) {
      flag.value = body.substr(eq + 1);
      flag.has_value = true;
    } else if (with_value.count(flag.name) != 0) {
      if (i + 1 >= args.size()) {
        cl.error = "flag " + arg + " needs a value";
        return cl;
      }
      flag.value = args[++i];
      flag.has_value = true;
    }
    if (flag.name.empty()) {
      cl.error = "malformed flag " + arg;
      return cl;
    }
    cl.flags.push_back(std::move(flag));
  }
  return cl;
}

std::string OneLine(const std::string& message) {
  std::string out = message;
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) c = ' ';
  }
  return out;
}

}  // namespace benchprof::tools
