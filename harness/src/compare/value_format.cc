#include "compare/value_format.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace benchprof::compare {
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

std::string FormatValue(double value, const MetricInfo& info) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "∞" : "-∞";
  const double a = std::fabs(value);
  if (info.kind == MetricKind::kTime) {
    if (value == 0) return "0ns";
    static constexpr struct {
      double scale;
      const char* unit;
    } kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
    for (const auto& u : kUnits) {
      // Compare against the rounded display, so 999.96ns prints as 1.000µs.
      if (a >= u.scale * 0.99995 || u.scale == 1) {
        if (u.scale == 1e9 && a >= 1e12) return StringPrintf("%.0f", value / u.scale) + u.unit;
        if (a < 0.99995) return StringPrintf("%.4g", value) + u.unit;  // sub-nanosecond
        return FourDigits(value / u.scale) + u.unit;
      }
    }
  }
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

std::string FormatSummary(const Summary& summary, const MetricInfo& info, bool bare) {
  if (summary.n == 0) return "—";
  std::string center = FormatValue(summary.median, info);
  if (bare) return center;
  if (!summary.finite()) return center + " ± ∞";
  if (summary.median == 0) return center + " ± 0%";
  const bool same_sign =
      (summary.lo >= 0) == (summary.median > 0) && (summary.hi >= 0) == (summary.median > 0);
  if (!same_sign) return center + " ± ?";
  const double pct = std::max(summary.hi / summary.median - 1, 1 - summary.lo / summary.median);
  return center + " ± " + StringPrintf("%.0f", pct * 100) + "%";
}

std::string FormatDelta(double delta) {
  if (std::isinf(delta)) return delta > 0 ? "+∞%" : "-∞%";
  if (std::isnan(delta)) return "?";
  if (delta == 0) return "0.00%";
  // A tiny but real change prints as "+0.00%", keeping its sign.
  return StringPrintf("%+.2f", delta * 100) + "%";
}

std::string FormatP(double p) {
  if (p >= 0.001) return StringPrintf("%.3g", p);
  return StringPrintf("%.2e", p);
}

std::string FormatCounts(int n1, int n2) {
  if (n1 == n2) return "n=" + std::to_string(n1);
  return "n=" + std::to_string(n1) + "+" + std::to_string(n2);
}

size_t DisplayWidth(const std::string& s) {
  size_t width = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++width;
  }
  return width;
}

}  // namespace benchprof::compare
