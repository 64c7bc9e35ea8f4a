// benchprof::FlagSet (include/benchprof/flags.h): the command-line
// convention of every benchprof program.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <utility>

#include "benchprof/flags.h"
#include "common/number_parser.h"

namespace benchprof {
namespace {

constexpr size_t kUsageWidth = 79;
constexpr size_t kMaxNameColumn = 30;

// "a, b or c".
std::string JoinChoices(std::initializer_list<std::string_view> choices) {
  std::string joined;
  size_t i = 0;
  for (std::string_view choice : choices) {
    if (i > 0) joined += i + 1 == choices.size() ? " or " : ", ";
    joined += choice;
    ++i;
  }
  return joined;
}

// `text` cut into lines of at most `width` bytes at spaces (a longer word
// gets a line of its own).
std::vector<std::string> Wrap(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  while (!text.empty()) {
    const size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (word.empty()) continue;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

template <typename Int>
std::function<std::string(std::string_view)> WholeNumberIn(int64_t min, int64_t max, Int* target,
                                                           std::string_view expected) {
  std::string message = expected.empty() ? "expected a whole number from " + std::to_string(min) +
                                               " to " + std::to_string(max)
                                         : std::string(expected);
  return [min, max, target, message = std::move(message)](std::string_view value) {
    const std::optional<int64_t> parsed = ParseInteger(value);
    if (!parsed || *parsed < min || *parsed > max) return message;
    *target = static_cast<Int>(*parsed);
    return std::string();
  };
}

std::string FormatBound(double bound) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, bound);
  return std::string(text, end.ptr);
}

}  // namespace

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

std::string FormatExitCodes(std::span<const ExitCodeInfo> codes) {
  std::string text = "Exit codes:\n";
  for (const ExitCodeInfo& code : codes) {
    text += "  " + std::to_string(code.code) + "  " + std::string(code.meaning) + "\n";
  }
  return text;
}

FlagSet::FlagSet(std::string program) : program_(std::move(program)) {}

void FlagSet::Add(std::string_view name, std::string_view value_name, std::string_view help,
                  std::function<std::string(std::string_view)> apply) {
  flags_.push_back(
      {std::string(name), std::string(value_name), std::string(help), std::move(apply)});
}

void FlagSet::Bool(std::string_view name, bool* target, std::string_view help) {
  Add(name, "", help, [target](std::string_view value) {
    const std::optional<bool> parsed = ParseBool(value);
    if (!parsed) return std::string("expected true or false");
    *target = *parsed;
    return std::string();
  });
}

void FlagSet::String(std::string_view name, std::string_view value_name, std::string* target,
                     std::string_view help) {
  Add(name, value_name, help, [target](std::string_view value) {
    *target = value;
    return std::string();
  });
}

void FlagSet::File(std::string_view name, std::string* target, std::string_view help) {
  Add(name, "FILE", help, [target](std::string_view value) {
    if (value.empty()) return std::string("expected a file name");
    *target = value;
    return std::string();
  });
}

void FlagSet::Int(std::string_view name, std::string_view value_name, int64_t min, int64_t max,
                  int64_t* target, std::string_view help, std::string_view expected) {
  Add(name, value_name, help, WholeNumberIn(min, max, target, expected));
}

void FlagSet::Int(std::string_view name, std::string_view value_name, int min, int max, int* target,
                  std::string_view help, std::string_view expected) {
  Add(name, value_name, help, WholeNumberIn(min, max, target, expected));
}

void FlagSet::Uint64(std::string_view name, std::string_view value_name, uint64_t* target,
                     std::string_view help) {
  Add(name, value_name, help, [target](std::string_view value) {
    const std::optional<uint64_t> parsed = ParseUnsigned(value);
    if (!parsed) return std::string("expected a whole number from 0 to 18446744073709551615");
    *target = *parsed;
    return std::string();
  });
}

void FlagSet::Number(std::string_view name, std::string_view value_name, double above, double below,
                     double* target, std::string_view help) {
  std::string message = "expected a number between " + FormatBound(above) + " and " +
                        FormatBound(below) + " (exclusive)";
  Add(name, value_name, help,
      [above, below, target, message = std::move(message)](std::string_view value) {
        const std::optional<double> parsed = ParseNumber(value);
        if (!parsed || !(*parsed > above && *parsed < below)) return message;
        *target = *parsed;
        return std::string();
      });
}

void FlagSet::Choice(std::string_view name, std::initializer_list<std::string_view> choices,
                     std::string* target, std::string_view help) {
  std::string value_name;
  for (std::string_view choice : choices) {
    if (!value_name.empty()) value_name += '|';
    value_name += choice;
  }
  std::vector<std::string> allowed(choices.begin(), choices.end());
  Add(name, value_name, help,
      [allowed = std::move(allowed), message = "expected " + JoinChoices(choices),
       target](std::string_view value) {
        if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) return message;
        *target = value;
        return std::string();
      });
}

void FlagSet::Custom(std::string_view name, std::string_view value_name,
                     std::function<std::string(std::string_view)> apply, std::string_view help) {
  Add(name, value_name, help, std::move(apply));
}

const FlagSet::Flag* FlagSet::Find(std::string_view name) const {
  for (const Flag& flag : flags_) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

bool FlagSet::Has(std::string_view name) const { return Find(name) != nullptr; }

bool FlagSet::TakesValue(std::string_view name) const {
  const Flag* flag = Find(name);
  return flag != nullptr && !flag->value_name.empty();
}

bool FlagSet::Parse(std::span<const char* const> args, CommandLine* result,
                    std::string* error) const {
  const std::vector<std::string> copied(args.begin(), args.end());
  return Parse(std::span<const std::string>(copied), result, error);
}

bool FlagSet::ParseFlagsOnly(std::span<const char* const> args, bool* help,
                             std::string* error) const {
  const std::vector<std::string> copied(args.begin(), args.end());
  return ParseFlagsOnly(std::span<const std::string>(copied), help, error);
}

bool FlagSet::ParseFlagsOnly(std::span<const std::string> args, bool* help,
                             std::string* error) const {
  CommandLine cl;
  if (!Parse(args, &cl, error)) return false;
  *help = cl.help;
  if (cl.help || (cl.operands.empty() && !cl.has_separator)) return true;
  const std::string stray = cl.operands.empty() ? "--" : cl.operands.front();
  *error = "unexpected argument '" + stray + "' (flags are spelled --name=value; see " + program_ +
           " --help)";
  return false;
}

bool FlagSet::Parse(std::span<const std::string> args, CommandLine* result,
                    std::string* error) const {
  *result = CommandLine();
  error->clear();
  // Help wins over any mistake around it.
  for (const std::string& arg : args) {
    if (arg == "--") break;
    if (IsHelpFlag(arg)) {
      result->help = true;
      return true;
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (result->has_separator) {
      result->after_separator.push_back(arg);
      continue;
    }
    if (arg == "--") {
      result->has_separator = true;
      continue;
    }
    // "-" (standard input) and "-5" are operands, not flags.
    if (arg.size() < 2 || arg[0] != '-' ||
        (arg[1] != '-' && !std::isalpha(static_cast<unsigned char>(arg[1])))) {
      result->operands.push_back(arg);
      continue;
    }
    std::string_view spelled = arg;
    spelled.remove_prefix(arg[1] == '-' ? 2 : 1);
    const size_t equals = spelled.find('=');
    const std::string_view name = spelled.substr(0, equals);
    const Flag* flag = Find(name);
    if (flag == nullptr) {
      *error = "unknown flag --" + std::string(spelled) + " (see " + program_ + " --help)";
      return false;
    }
    std::string value;
    if (equals != std::string_view::npos) {
      value = spelled.substr(equals + 1);
    } else if (flag->value_name.empty()) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      *error = "--" + flag->name + ": needs a value, as --" + flag->name + "=" + flag->value_name;
      return false;
    }
    if (std::string problem = flag->apply(value); !problem.empty()) {
      *error = "--" + flag->name + "=" + value + ": " + problem;
      return false;
    }
  }
  return true;
}

std::string FlagSet::Usage() const {
  std::vector<const Flag*> entries;
  for (const Flag& flag : flags_) entries.push_back(&flag);
  // Every program takes --help; it is listed last.
  const Flag help{"help", "", "print this help and exit", nullptr};
  entries.push_back(&help);
  auto spelled = [](const Flag& flag) {
    std::string text = "--" + flag.name;
    if (!flag.value_name.empty()) text += "=" + flag.value_name;
    return text;
  };
  size_t column = 0;
  for (const Flag* flag : entries) column = std::max(column, spelled(*flag).size() + 4);
  column = std::min(column, kMaxNameColumn);
  std::string text;
  for (const Flag* flag : entries) {
    std::string line = "  " + spelled(*flag);
    const std::vector<std::string> help_lines = Wrap(flag->help, kUsageWidth - column);
    if (line.size() + 2 > column && !help_lines.empty()) {
      text += line + "\n";
      line.clear();
    }
    for (const std::string& help_line : help_lines) {
      line.resize(column, ' ');
      text += line + help_line + "\n";
      line.clear();
    }
    if (help_lines.empty()) text += line + "\n";
  }
  return text;
}

}  // namespace benchprof
