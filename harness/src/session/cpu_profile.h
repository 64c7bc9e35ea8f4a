// --cpuprofile for one process: starts the CPU sampler before the first
// benchmark and at the end symbolizes the samples, labels them with their
// benchmark run (run_labels.h) and writes the profile atomically.
//
// Thread-safety: thread-compatible (the main thread drives it).
#ifndef BENCHPROF_SESSION_CPU_PROFILE_H_
#define BENCHPROF_SESSION_CPU_PROFILE_H_

#include <cstdint>

#include "common/atomic_file.h"
#include "common/status.h"
#include "session/profile_window.h"
#include "session/run_labels.h"

namespace benchprof::session {

class CpuProfile {
 public:
  // `file` receives the profile when Finish() succeeds.
  CpuProfile(AtomicFile file, int hz) : file_(std::move(file)), hz_(hz) {}

  // Starts sampling the calling thread and every thread started from now on.
  Status Start();

  // Stops sampling, builds the profile with `labels` and moves it into
  // place. Prints one line to stderr saying what was written.
  Status Finish(const RunLabels& labels);

 private:
  AtomicFile file_;
  const int hz_;
  ProfileWindow window_;
};

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_CPU_PROFILE_H_
