// The comparison report as aligned plain text, for terminals and CI logs:
// the files compared with the Google Benchmark version of each side when
// known (and a note when they differ), one table per metric with its
// columns padded to a common width (by display width, so "±" and "µ" count
// as one), the legend, the findings, the skipped benchmarks and the
// warnings (at most kMaxListedWarnings each) and the verdict with its exit
// code as the last line.
//
//   std::string out = ComparisonText(comparison);
//
// Thread-safety: thread-safe (a pure function of the Comparison).
#ifndef BENCHPROF_TOOLS_COMPARE_TEXT_OUTPUT_H_
#define BENCHPROF_TOOLS_COMPARE_TEXT_OUTPUT_H_

#include <string>

#include "tools/compare/comparison.h"

namespace benchprof::compare {

// The whole text report, ending with a newline.
std::string ComparisonText(const Comparison& c);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_TEXT_OUTPUT_H_
