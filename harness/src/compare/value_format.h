// How numbers look in comparison tables and messages: times as durations
// with a unit chosen per value ("863.6ns", "1.145µs", "12.35ms"), other
// values as integers when they are integral and below 100000, otherwise
// with four significant digits and an SI suffix from 10000 on ("1.002G"),
// benchstat's "center ± pct" cells, signed percentages and p-values.
// Deterministic (no locale), so golden tests are stable.
//
//   FormatValue(1145.2, time_info)          // "1.145µs"
//   FormatValue(37, allocs_info)            // "37"
//   FormatSummary(summary, time_info)       // "1.145µs ± 2%"
//   FormatDelta(0.1003)                     // "+10.03%"
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_COMPARE_VALUE_FORMAT_H_
#define BENCHPROF_COMPARE_VALUE_FORMAT_H_

#include <string>

#include "compare/result_reader.h"
#include "compare/statistics.h"

namespace benchprof::compare {

// printf into a std::string (the C locale's formatting: this tool never
// calls setlocale).
[[gnu::format(printf, 1, 2)]] std::string StringPrintf(const char* format, ...);

// One value of a metric. Times (MetricKind::kTime, in ns) get a duration
// unit; other values are bare numbers (the metric's name heads the table).
std::string FormatValue(double value, const MetricInfo& info);

// A summary as benchstat prints it: "center ± pct", where pct is the larger
// distance from the center to a bound, in percent of the center; "± ∞" when
// the interval is not finite, "± ?" when a bound has the other sign than the
// center, "± 0%" when the center is 0. Just the center when `bare` (a
// constant exact metric). "—" when there are no samples.
std::string FormatSummary(const Summary& summary, const MetricInfo& info, bool bare = false);

// A signed relative change: "+10.03%", "-0.50%", "0.00%"; "+∞%"/"-∞%" for
// an infinite change (from 0).
std::string FormatDelta(double delta);

// A p-value with three significant digits, "0.000123" or "0.0286".
std::string FormatP(double p);

// "n=10" when both sides have n samples, else "n=10+8".
std::string FormatCounts(int n1, int n2);

// The number of Unicode code points in a UTF-8 string (its display width
// for the text this tool prints).
size_t DisplayWidth(const std::string& s);

}  // namespace benchprof::compare

#endif  // BENCHPROF_COMPARE_VALUE_FORMAT_H_
