#include "common/go_duration.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace benchprof {
namespace {

// Nanoseconds in one `unit`, or 0 if it is not a unit.
int64_t UnitNanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs") return 1'000;
  if (unit == "ms") return 1'000'000;
  if (unit == "s") return 1'000'000'000;
  if (unit == "m") return 60 * int64_t{1'000'000'000};
  if (unit == "h") return 3600 * int64_t{1'000'000'000};
  return 0;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::optional<int64_t> ParseGoDuration(std::string_view text) {
  if (text.starts_with('+')) text.remove_prefix(1);
  if (text == "0") return 0;
  if (text.empty()) return std::nullopt;
  long double total = 0;
  while (!text.empty()) {
    // The number: digits, optionally a fraction; at least one digit.
    size_t at = 0;
    while (at < text.size() && IsDigit(text[at])) ++at;
    size_t digits = at;
    if (at < text.size() && text[at] == '.') {
      ++at;
      const size_t fraction_start = at;
      while (at < text.size() && IsDigit(text[at])) ++at;
      digits += at - fraction_start;
    }
    if (digits == 0) return std::nullopt;
    const std::string number(text.substr(0, at));
    text.remove_prefix(at);
    // The unit: up to the next digit or '.'.
    size_t unit_end = 0;
    while (unit_end < text.size() && !IsDigit(text[unit_end]) && text[unit_end] != '.') ++unit_end;
    const int64_t unit = UnitNanos(text.substr(0, unit_end));
    if (unit == 0) return std::nullopt;
    text.remove_prefix(unit_end);
    total += std::strtold(number.c_str(), nullptr) * static_cast<long double>(unit);
    if (total > 9.2e18L) return std::nullopt;
  }
  return static_cast<int64_t>(std::llround(total));
}

}  // namespace benchprof
