// The comparison report as JSON, for scripts: the verdict and exit code,
// the options, the Google Benchmark version of each file (null where
// unknown) and the note when they differ, every row with every number at
// full precision (infinite interval bounds and deltas as null), the
// geometric means, the benchmarks on one side only, the skipped ones, and
// all warnings and notes (none cut).
//
//   std::string json = ComparisonJson(comparison);   // one line, then "\n"
//
// Thread-safety: thread-safe (a pure function of the Comparison).
#ifndef BENCHPROF_TOOLS_COMPARE_JSON_OUTPUT_H_
#define BENCHPROF_TOOLS_COMPARE_JSON_OUTPUT_H_

#include <string>

#include "tools/compare/comparison.h"

namespace benchprof::compare {

// The whole JSON document, ending with a newline.
std::string ComparisonJson(const Comparison& c);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_JSON_OUTPUT_H_
