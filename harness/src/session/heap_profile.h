// --memprofile for one process: starts the heap sampler before the first
// benchmark and at the end symbolizes its buckets, labels them with their
// benchmark run (run_labels.h) and writes Go's allocs profile atomically.
//
// What is sampled: allocations made in benchmarks' timed scope, the same
// ones --benchmem counts (Go's -memprofile sees every allocation since the
// process started; benchprof leaves out setup, teardown and paused time so
// the profile explains allocs/op). In-use figures are taken when Finish()
// runs, after the last benchmark: what the benchmarks allocated and never
// freed.
//
// Thread-safety: thread-compatible (the main thread drives it).
#ifndef BENCHPROF_SESSION_HEAP_PROFILE_H_
#define BENCHPROF_SESSION_HEAP_PROFILE_H_

#include <cstdint>

#include "common/atomic_file.h"
#include "common/status.h"
#include "session/profile_window.h"
#include "session/run_labels.h"

namespace benchprof::session {

class HeapProfile {
 public:
  // `file` receives the profile when Finish() succeeds. `rate`: mean bytes
  // between samples; 1 samples every allocation, 0 none.
  HeapProfile(AtomicFile file, int64_t rate) : file_(std::move(file)), rate_(rate) {}

  // Starts sampling on every thread.
  Status Start();

  // Stops sampling, builds the profile with `labels` and moves it into
  // place. Prints one line to stderr saying what was written.
  Status Finish(const RunLabels& labels);

 private:
  AtomicFile file_;
  const int64_t rate_;
  ProfileWindow window_;
};

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_HEAP_PROFILE_H_
