// How numbers and text look in the benchprof tool's output: durations with
// a unit chosen per value ("863.6ns", "1.145µs", "12.35ms"), other values as
// integers when they are integral and below 100000, otherwise with four
// significant digits and an SI suffix from 10000 on ("1.002G"). Deterministic
// (no locale), so golden tests are stable. Names from input files are
// printed on one line.
//
//   FormatDuration(1145.2)    // "1.145µs"
//   FormatNumber(37)          // "37"
//   FormatNumber(1.002e9)     // "1.002G"
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_TEXT_FORMAT_H_
#define BENCHPROF_TOOLS_TEXT_FORMAT_H_

#include <cstddef>
#include <string>

namespace benchprof::tools {

// printf into a std::string (the C locale's formatting: this tool never
// calls setlocale).
[[gnu::format(printf, 1, 2)]] std::string StringPrintf(const char* format, ...);

// A duration of `ns` nanoseconds with four significant digits and the unit
// that keeps the number in [1, 1000): ns, µs, ms or s.
std::string FormatDuration(double ns);

// A plain value: an integer when integral and below 100000, otherwise four
// significant digits with an SI suffix (k, M, G, T) from 10000 on.
std::string FormatNumber(double value);

// `text` with control characters (e.g. a newline inside a benchmark name)
// replaced by spaces, so a table cell or an error stays on one line.
std::string OneLine(const std::string& text);

// The number of Unicode code points in a UTF-8 string (its display width
// for the text this tool prints).
size_t DisplayWidth(const std::string& s);

}  // namespace benchprof::tools

#endif  // BENCHPROF_TOOLS_TEXT_FORMAT_H_
