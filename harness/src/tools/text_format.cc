#include "tools/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace benchprof::tools {
namespace {

// Four significant digits without an exponent for 1 <= |v| < 1000.
std::string FourDigits(double v) {
  const double a = std::fabs(v);
  if (a >= 99.995) return StringPrintf("%.1f", v);
  if (a >= 9.9995) return StringPrintf("%.2f", v);
  return StringPrintf("%.3f", v);
}

}  // namespace

std::string StringPrintf(const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n < 0) return "";
  if (static_cast<size_t>(n) < sizeof buffer) return std::string(buffer, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(n) + 1, '\0');
  va_start(args, format);
  std::vsnprintf(big.data(), big.size(), format, args);
  va_end(args);
  big.resize(static_cast<size_t>(n));
  return big;
}

std::string FormatDuration(double ns) {
  if (std::isnan(ns)) return "NaN";
  if (std::isinf(ns)) return ns > 0 ? "∞" : "-∞";
  if (ns == 0) return "0ns";
  const double a = std::fabs(ns);
  static constexpr struct {
    double scale;
    const char* unit;
  } kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}};
  for (const auto& u : kUnits) {
    // Compare against the rounded display, so 999.96ns prints as 1.000µs.
    if (a >= u.scale * 0.99995) {
      if (u.scale == 1e9 && a >= 1e12) return StringPrintf("%.0f", ns / u.scale) + u.unit;
      return FourDigits(ns / u.scale) + u.unit;
    }
  }
  if (a < 0.99995) return StringPrintf("%.4g", ns) + "ns";  // sub-nanosecond
  return FourDigits(ns) + "ns";
}

std::string FormatNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "∞" : "-∞";
  const double a = std::fabs(value);
  if (value == std::floor(value) && a < 1e5) return StringPrintf("%.0f", value);
  if (a >= 9999.5) {
    static constexpr struct {
      double scale;
      const char* suffix;
    } kSi[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (const auto& s : kSi) {
      if (a >= s.scale * 0.99995) {
        if (s.scale == 1e12 && a >= 1e15) return StringPrintf("%.4g", value);
        return FourDigits(value / s.scale) + s.suffix;
      }
    }
  }
  return StringPrintf("%.4g", value);
}

std::string OneLine(std::string_view text, std::string_view replacement) {
  std::string out;
  out.reserve(text.size());
  bool raw_hash = false;  // the last thing written was a '#' of the text
  for (size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const size_t length = lead < 0x80 ? 1 : Utf8SequenceLength(text, i);
    if (length == 0) {
      out += replacement;
      raw_hash = false;
      ++i;
      continue;
    }
    switch (TextHazardOf(DecodeUtf8(text, i, length))) {
      case TextHazard::kLineBreak:
        out += ' ';
        raw_hash = false;
        break;
      case TextHazard::kHidden:
        out += replacement;
        raw_hash = false;
        break;
      case TextHazard::kNone:
        if (lead == '#' && raw_hash) {
          out += replacement;
          raw_hash = false;
        } else {
          out.append(text.substr(i, length));
          raw_hash = lead == '#';
        }
        break;
    }
    i += length;
  }
  // The GitHub runner trims .NET white space (char.IsWhiteSpace) from a
  // line before it looks for "::".
  size_t start = 0;
  while (start < out.size()) {
    const auto lead = static_cast<unsigned char>(out[start]);
    const size_t length = lead < 0x80 ? 1 : Utf8SequenceLength(out, start);
    const uint32_t c = DecodeUtf8(out, start, length);
    const bool white = c == ' ' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
                       c == 0x202F || c == 0x205F || c == 0x3000;
    if (!white) break;
    start += length;
  }
  if (out.compare(start, 2, "::") == 0) out.replace(start, 1, replacement);
  return out;
}

size_t DisplayWidth(const std::string& s) {
  size_t width = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++width;
  }
  return width;
}

}  // namespace benchprof::tools
