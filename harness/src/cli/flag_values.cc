#include "cli/flag_values.h"

#include <cctype>
#include <charconv>

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

StatusOr<bool> ParseBool(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view yes : {"true", "yes", "on", "1", "t", "y"}) {
    if (lower == yes) return true;
  }
  for (std::string_view no : {"false", "no", "off", "0", "f", "n"}) {
    if (lower == no) return false;
  }
  return Status::Error("expected true or false");
}

StatusOr<int64_t> ParseInt(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return Status::Error("expected an integer");
  }
  return value;
}

StatusOr<double> ParseDouble(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return Status::Error("expected a number");
  }
  return value;
}

Status CheckOneOf(std::string_view text, std::initializer_list<std::string_view> choices) {
  std::string listed;
  for (std::string_view choice : choices) {
    if (text == choice) return Status();
    if (!listed.empty()) listed += ", ";
    listed += choice;
  }
  return Status::Error("expected one of " + listed);
}

}  // namespace benchprof::cli
