#include "cli/workload_flags.h"

#include <algorithm>
#include <charconv>

namespace benchprof::workload {
namespace {

bool Contains(const std::vector<std::string_view>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

template <typename Int>
std::optional<Int> ParseInteger(std::string_view text) {
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    text.remove_prefix(2);
    base = 16;
  }
  Int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

WorkloadFlagReader::WorkloadFlagReader(std::span<const char* const> args,
                                       std::initializer_list<std::string_view> switches,
                                       std::initializer_list<std::string_view> valued)
    : args_(args), switches_(switches), valued_(valued) {}

bool WorkloadFlagReader::Next(WorkloadFlag* flag, std::string* error) {
  if (next_ >= args_.size()) return false;
  std::string_view arg = args_[next_++];
  if (!arg.starts_with("-") || arg == "-" || arg == "--") {
    *error = "unexpected argument '" + std::string(arg) + "' (flags start with --)";
    return false;
  }
  arg.remove_prefix(arg.starts_with("--") ? 2 : 1);
  std::optional<std::string_view> value;
  flag->name = arg;
  if (const size_t eq = arg.find('='); eq != std::string_view::npos) {
    flag->name = arg.substr(0, eq);
    value = arg.substr(eq + 1);
  }
  flag->display = "--" + std::string(flag->name);
  if (Contains(switches_, flag->name)) {
    if (value && *value != "true" && *value != "false") {
      *error = flag->display + ": want true or false, got '" + std::string(*value) + "'";
      return false;
    }
    flag->value = value.value_or("true");
    return true;
  }
  if (!Contains(valued_, flag->name)) {
    *error = "unknown flag " + flag->display + " (see --help)";
    return false;
  }
  if (!value) {
    if (next_ >= args_.size()) {
      *error = flag->display + " needs a value";
      return false;
    }
    value = args_[next_++];
  }
  flag->value = *value;
  return true;
}

std::optional<int64_t> ParseWholeNumber(const WorkloadFlag& flag, int64_t min, int64_t max,
                                        std::string* error) {
  const std::optional<int64_t> value = ParseInteger<int64_t>(flag.value);
  if (!value || *value < min || *value > max) {
    *error = flag.display + ": want a whole number from " + std::to_string(min) + " to " +
             std::to_string(max) + ", got '" + std::string(flag.value) + "'";
    return std::nullopt;
  }
  return value;
}

std::optional<uint64_t> ParseUnsigned(const WorkloadFlag& flag, std::string* error) {
  const std::optional<uint64_t> value = ParseInteger<uint64_t>(flag.value);
  if (!value) {
    *error = flag.display + ": want a whole number, got '" + std::string(flag.value) + "'";
  }
  return value;
}

std::string UnknownChoice(const WorkloadFlag& flag, std::string_view what,
                          std::string_view choices) {
  return flag.display + ": unknown " + std::string(what) + " '" + std::string(flag.value) +
         "' (one of " + std::string(choices) + ")";
}

}  // namespace benchprof::workload
