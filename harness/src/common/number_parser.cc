#include "common/number_parser.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace benchprof {
namespace {

// Strips a 0x/0X prefix when hexadecimal is allowed; returns the base.
int TakeBase(std::string_view& digits, IntegerSyntax syntax) {
  if (syntax == IntegerSyntax::kDecimalOrHex &&
      (digits.starts_with("0x") || digits.starts_with("0X"))) {
    digits.remove_prefix(2);
    return 16;
  }
  return 10;
}

template <typename Int>
std::optional<Int> ParseDigits(std::string_view digits, int base) {
  // from_chars would take a sign; the callers have dealt with it.
  if (digits.empty() || digits.front() == '-' || digits.front() == '+') return std::nullopt;
  Int value = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<int64_t> ParseInteger(std::string_view text, IntegerSyntax syntax) {
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  const int base = TakeBase(text, syntax);
  const std::optional<uint64_t> magnitude = ParseDigits<uint64_t>(text, base);
  if (!magnitude) return std::nullopt;
  constexpr uint64_t kMaxPositive = static_cast<uint64_t>(INT64_MAX);
  if (!negative) {
    if (*magnitude > kMaxPositive) return std::nullopt;
    return static_cast<int64_t>(*magnitude);
  }
  if (*magnitude > kMaxPositive + 1) return std::nullopt;
  return *magnitude == kMaxPositive + 1 ? INT64_MIN : -static_cast<int64_t>(*magnitude);
}

std::optional<uint64_t> ParseUnsigned(std::string_view text, IntegerSyntax syntax) {
  const int base = TakeBase(text, syntax);
  return ParseDigits<uint64_t>(text, base);
}

std::optional<double> ParseNumber(std::string_view text) {
  // from_chars takes no '+'; "+0.5" is still a number.
  if (text.starts_with('+') && text.size() > 1 && text[1] != '-' && text[1] != '+') {
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<bool> ParseBool(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view yes : {"true", "yes", "on", "1", "t", "y"}) {
    if (lower == yes) return true;
  }
  for (std::string_view no : {"false", "no", "off", "0", "f", "n"}) {
    if (lower == no) return false;
  }
  return std::nullopt;
}

}  // namespace benchprof
