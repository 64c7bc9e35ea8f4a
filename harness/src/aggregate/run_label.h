// RunLabel: the benchmark run a profile sample belongs to, and how the
// profile builders attach it to samples.
//
// Thread-safety: plain values; thread-compatible.
#ifndef BENCHPROF_AGGREGATE_RUN_LABEL_H_
#define BENCHPROF_AGGREGATE_RUN_LABEL_H_

#include <string>
#include <vector>

#include "encode/profile_data.h"

namespace benchprof::aggregate {

struct RunLabel {
  std::string benchmark;  // full run name, e.g. "BM_Foo/8/threads:2"; empty: none
  int threads = 1;

  auto operator<=>(const RunLabel&) const = default;
};

// Appends string label `benchmark` and numeric label `threads` (what
// `-tagfocus benchmark=...` selects on) unless the label is empty.
inline void AppendRunLabels(const RunLabel& label, std::vector<encode::ProfileLabel>& labels) {
  if (label.benchmark.empty()) return;
  labels.push_back(encode::ProfileLabel{"benchmark", label.benchmark, 0, ""});
  labels.push_back(encode::ProfileLabel{"threads", "", label.threads, "threads"});
}

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_RUN_LABEL_H_
