// How the cells of a comparison look: a metric's value (a duration for
// times, a plain number otherwise), benchstat's "center ± pct" summaries,
// signed percentages, p-values and sample counts. Deterministic (no locale),
// so golden tests are stable.
//
//   FormatValue(1145.2, time_info)          // "1.145µs"
//   FormatValue(37, allocs_info)            // "37"
//   FormatSummary(summary, time_info)       // "1.145µs ± 2%"
//   FormatDelta(0.1003)                     // "+10.03%"
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_COMPARE_CELL_FORMAT_H_
#define BENCHPROF_TOOLS_COMPARE_CELL_FORMAT_H_

#include <string>

#include "tools/compare/statistics.h"
#include "tools/results/result_reader.h"

namespace benchprof::compare {

// One value of a metric. Times (MetricKind::kTime, in ns) get a duration
// unit; other values are bare numbers (the metric's name heads the table).
std::string FormatValue(double value, const results::MetricInfo& info);

// A summary as benchstat prints it: "center ± pct", where pct is the larger
// distance from the center to a bound, in percent of the center; "± ∞" when
// the interval is not finite, "± ?" when a bound has the other sign than the
// center, "± 0%" when the center is 0. Just the center when `bare` (a
// constant exact metric). "—" when there are no samples.
std::string FormatSummary(const Summary& summary, const results::MetricInfo& info,
                          bool bare = false);

// A signed relative change: "+10.03%", "-0.50%", "0.00%"; "+∞%"/"-∞%" for
// an infinite change (from 0).
std::string FormatDelta(double delta);

// A p-value with three significant digits, "0.000123" or "0.0286".
std::string FormatP(double p);

// "n=10" when both sides have n samples, else "n=10+8".
std::string FormatCounts(int n1, int n2);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_CELL_FORMAT_H_
