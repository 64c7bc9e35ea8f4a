#include "common/byte_size.h"

#include <charconv>

namespace benchprof {
namespace {

struct Unit {
  std::string_view name;
  int shift;
};
constexpr Unit kUnits[] = {{"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}, {"", 0}};

}  // namespace

std::optional<uint64_t> ParseByteSize(std::string_view text) {
  uint64_t number = 0;
  const char* const end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, number);
  if (error != std::errc() || rest == text.data()) return std::nullopt;
  const std::string_view suffix(rest, static_cast<size_t>(end - rest));
  for (const Unit& unit : kUnits) {
    if (suffix != unit.name) continue;
    if (number > (UINT64_MAX >> unit.shift)) return std::nullopt;
    return number << unit.shift;
  }
  return std::nullopt;
}

std::string FormatByteSize(uint64_t bytes) {
  for (const Unit& unit : kUnits) {
    const uint64_t mask = (uint64_t{1} << unit.shift) - 1;
    if (unit.shift > 0 && bytes != 0 && (bytes & mask) == 0) {
      return std::to_string(bytes >> unit.shift) + " " + std::string(unit.name);
    }
  }
  return std::to_string(bytes) + " B";
}

}  // namespace benchprof
