// The flags that say how change points are found (--window, --max-p and
// the exact metrics' --threshold), declared once for `history detect`,
// `history gate` (whose baseline starts after the last change point) and
// `history report`.
//
//   DetectOptions options;
//   DeclareDetectFlags(flags, &options);
//
// Thread-safety: thread-compatible (binds the flags to `*options`).
#ifndef BENCHPROF_TOOLS_HISTORY_DETECT_FLAGS_H_
#define BENCHPROF_TOOLS_HISTORY_DETECT_FLAGS_H_

#include "benchprof/flags.h"
#include "tools/history/change_points.h"

namespace benchprof::history {

// Declares --window and --max-p, bound to `*options`; with
// `with_thresholds`, --threshold too (the gate declares its own, shared
// with its judging).
void DeclareDetectFlags(FlagSet& flags, DetectOptions* options, bool with_thresholds = true);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_DETECT_FLAGS_H_
