// RunLabels: which benchmark run a profile segment belongs to.
//
// Thread 0 of every run starts a new segment (timed_loop.cc) and publishes
// its number in the run's hidden counter; the reporter hands the reported
// (final) runs' segments here. The probe and warm-up runs of a repetition
// come right before its final run, so a segment belongs to the first
// reported segment at or after it. This holds with
// --benchmark_enable_random_interleaving too, because a repetition's runs
// are never interleaved with another's.
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_SESSION_RUN_LABELS_H_
#define BENCHPROF_SESSION_RUN_LABELS_H_

#include <cstdint>
#include <map>

#include "aggregate/run_label.h"

namespace benchprof::session {

class RunLabels {
 public:
  // Records that the reported run whose last segment is `segment` is `label`.
  void NoteReportedRun(uint32_t segment, aggregate::RunLabel label);

  // The run `segment` belongs to; "(run not reported)" for segments after
  // the last reported run (a benchmark that failed, say).
  const aggregate::RunLabel& LabelOf(uint32_t segment) const;

 private:
  std::map<uint32_t, aggregate::RunLabel> label_by_final_segment_;
  aggregate::RunLabel unreported_{"(run not reported)", 1};
};

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_RUN_LABELS_H_
