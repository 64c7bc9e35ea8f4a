#include "tools/compare/cell_format.h"

#include <algorithm>
#include <cmath>

#include "tools/text_format.h"

namespace benchprof::compare {

using tools::StringPrintf;

std::string FormatValue(double value, const results::MetricInfo& info) {
  return info.kind == results::MetricKind::kTime ? tools::FormatDuration(value)
                                                 : tools::FormatNumber(value);
}

std::string FormatSummary(const Summary& summary, const results::MetricInfo& info, bool bare) {
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

}  // namespace benchprof::compare
