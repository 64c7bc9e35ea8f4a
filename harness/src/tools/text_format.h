// How numbers and text look in the benchprof tool's output: durations with
// a unit chosen per value ("863.6ns", "1.145µs", "12.35ms"), other values as
// integers when they are integral and below 100000, otherwise with four
// significant digits and an SI suffix from 10000 on ("1.002G"). Deterministic
// (no locale), so golden tests are stable. Text from input files (names,
// messages, paths) goes through OneLine before any output but JSON: one
// line, nothing hidden, no CI command.
//
//   FormatDuration(1145.2)    // "1.145µs"
//   FormatNumber(37)          // "37"
//   FormatNumber(1.002e9)     // "1.002G"
//   OneLine("BM_a\n::warning::x\u202E")   // "BM_a ::warning::x\uFFFD"
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_TEXT_FORMAT_H_
#define BENCHPROF_TOOLS_TEXT_FORMAT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "common/utf8.h"

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

// `text` made safe to print where people and CI runners read it, on one
// line: well-formed UTF-8 in which
//   - each line break, TAB and other white-space control (TextHazard::
//     kLineBreak in common/utf8.h: CR, LF, NEL, U+2028, ...) is a space;
//   - each other control character, C1 control and bidirectional
//     formatting character (TextHazard::kHidden), and each byte that starts
//     no well-formed UTF-8 sequence, is `replacement`;
//   - a "::" that begins the text after white space (a GitHub Actions
//     workflow command when it starts a line) has its first ':' replaced,
//     and so has the second '#' of each "##" ("##[" anywhere in a line is a
//     command of the older syntax, "##vso[" one of Azure Pipelines).
// Idempotent. `replacement` defaults to U+FFFD; `convert` passes "_".
std::string OneLine(std::string_view text, std::string_view replacement = kReplacementCharacter);

// The number of Unicode code points in a UTF-8 string (its display width
// for the text this tool prints).
size_t DisplayWidth(const std::string& s);

}  // namespace benchprof::tools

#endif  // BENCHPROF_TOOLS_TEXT_FORMAT_H_
