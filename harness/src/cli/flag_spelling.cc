#include "cli/flag_spelling.h"

#include <cctype>

namespace benchprof::cli {

FlagSpelling SplitFlag(std::string_view arg) {
  arg.remove_prefix(2);
  const size_t equals = arg.find('=');
  if (equals == std::string_view::npos) return {arg, std::nullopt};
  return {arg.substr(0, equals), arg.substr(equals + 1)};
}

std::string NormalizeDashes(std::string_view arg) {
  if (arg.size() >= 2 && arg[0] == '-' && arg[1] != '-' &&
      std::isalpha(static_cast<unsigned char>(arg[1]))) {
    return "-" + std::string(arg);
  }
  return std::string(arg);
}

}  // namespace benchprof::cli
