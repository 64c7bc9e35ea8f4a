// --trace: the execution-trace kind. It starts the trace recorder
// (tracer/trace_recorder.h) before the first benchmark, records what the
// benchmark runner does (each run, its timed loops, paused intervals, worker
// threads' names), and at the end completes the file and moves it into
// place.
//
// Runs are named late. Google Benchmark 1.7.1's State does not know the
// benchmark's name; it is known only when the run is reported. So thread 0
// notes, per segment (one call of the benchmark function), when it started
// and finished; when the reporter hands over a reported run's last segment,
// the run is recorded as one complete event from the start of its first
// segment (probe runs included) to the end of its last. Segments never
// reported appear as "(run not reported)".
//
// Thread-safety: as Profile (profile.h); the loop hooks of threads other
// than thread 0 (always the main thread) only name their thread.
#ifndef BENCHPROF_PROFILES_TRACE_PROFILE_H_
#define BENCHPROF_PROFILES_TRACE_PROFILE_H_

#include <memory>

#include "profiles/profile.h"

namespace benchprof::profiles {

// A new, not yet requested trace kind (flags --trace, --tracecpurate).
std::unique_ptr<Profile> MakeTraceProfile();

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_TRACE_PROFILE_H_
