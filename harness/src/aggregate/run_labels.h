// RunLabel: the benchmark run a profile sample belongs to, and how the
// profile builders attach it to samples. RunLabels: which run a profile
// segment belongs to.
//
// Thread 0 of every run starts a new segment (session/timed_loop.cc) and
// publishes its number in the run's hidden counter; the reporter hands the
// reported (final) runs' segments here. The probe and warm-up runs of a repetition
// come right before its final run, so a segment belongs to the first
// reported segment at or after it. This holds with
// --benchmark_enable_random_interleaving too, because a repetition's runs
// are never interleaved with another's.
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_AGGREGATE_RUN_LABELS_H_
#define BENCHPROF_AGGREGATE_RUN_LABELS_H_

#include <cstdint>
#include <map>
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

class RunLabels {
 public:
  // Records that the reported run whose last segment is `segment` is `label`.
  void NoteReportedRun(uint32_t segment, RunLabel label);

  // The run `segment` belongs to; "(run not reported)" for segments after
  // the last reported run (a benchmark that failed, say).
  const RunLabel& LabelOf(uint32_t segment) const;

 private:
  std::map<uint32_t, RunLabel> label_by_final_segment_;
  RunLabel unreported_{"(run not reported)", 1};
};

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_RUN_LABELS_H_
