// --cpuprofile for one process: starts the CPU sampler before the first
// benchmark, learns which benchmark run each sample segment belongs to, and
// at the end symbolizes and writes the profile atomically.
//
// Segments: thread 0 of every run starts a new segment (timed_loop.cc) and
// publishes its number in the run's hidden counter; the reporter hands the
// reported (final) runs' segments here. The probe and warm-up runs of a
// repetition come right before its final run, so a segment belongs to the
// first reported segment at or after it. This holds with
// --benchmark_enable_random_interleaving too, because a repetition's runs are
// never interleaved with another's.
//
// Thread-safety: thread-compatible (the main thread drives it).
#ifndef BENCHPROF_SESSION_CPU_PROFILE_H_
#define BENCHPROF_SESSION_CPU_PROFILE_H_

#include <cstdint>
#include <map>
#include <string>

#include "aggregate/cpu_profile_builder.h"
#include "common/atomic_file.h"
#include "common/status.h"

namespace benchprof::session {

class CpuProfile {
 public:
  // `file` receives the profile when Finish() succeeds.
  CpuProfile(AtomicFile file, int hz) : file_(std::move(file)), hz_(hz) {}

  // Starts sampling the calling thread and every thread started from now on.
  Status Start();

  // Records that the reported run whose last segment is `segment` is `label`.
  void NoteReportedRun(uint32_t segment, RunLabel label);

  // Stops sampling, builds the profile and moves it into place. Prints one
  // line to stderr saying what was written.
  Status Finish();

 private:
  AtomicFile file_;
  const int hz_;
  int64_t start_unix_nanos_ = 0;
  int64_t start_monotonic_nanos_ = 0;
  std::map<uint32_t, RunLabel> label_by_final_segment_;
};

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_CPU_PROFILE_H_
