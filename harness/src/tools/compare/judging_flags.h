// The flags that say how a comparison judges (thresholds, significance,
// confidence), declared once for every subcommand that compares: `benchprof
// compare` and `benchprof gate`.
//
//   CompareOptions options;
//   FlagSet flags("benchprof gate");
//   DeclareJudgingFlags(flags, &options);
//
// Thread-safety: thread-compatible (binds the flags to `*options`).
#ifndef BENCHPROF_TOOLS_COMPARE_JUDGING_FLAGS_H_
#define BENCHPROF_TOOLS_COMPARE_JUDGING_FLAGS_H_

#include "benchprof/flags.h"
#include "tools/compare/comparison.h"

namespace benchprof::compare {

// Declares --threshold, --alpha and --confidence in `flags`, bound to
// `*options`, which must outlive the parse.
void DeclareJudgingFlags(FlagSet& flags, CompareOptions* options);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_JUDGING_FLAGS_H_
