// What differs in Google Benchmark's API between the versions benchprof
// supports, behind one spelling: 1.7.1 has `error_occurred` and
// `error_message`; 1.8 replaced them with `skipped` (not, with a message,
// with an error) and `skip_message`, and added State::SkipWithMessage.
//
// Thread-safety: thread-safe (pure functions of their arguments).
#ifndef BENCHPROF_SESSION_BENCHMARK_COMPAT_H_
#define BENCHPROF_SESSION_BENCHMARK_COMPAT_H_

#include <benchmark/benchmark.h>

#include <string>

#include "benchprof_benchmark_version.h"

namespace benchprof::session {

#if BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10800
#define BENCHPROF_HAS_SKIP_WITH_MESSAGE 1
#else
#define BENCHPROF_HAS_SKIP_WITH_MESSAGE 0
#endif

// True if `run` failed: State::SkipWithError, or benchprof could not
// measure it. A failure decides the exit code.
inline bool RunFailed(const benchmark::BenchmarkReporter::Run& run) {
#if BENCHPROF_HAS_SKIP_WITH_MESSAGE
  return run.skipped == benchmark::internal::SkippedWithError;
#else
  return run.error_occurred;
#endif
}

// True if `run` has no measurement: it failed or (1.8+) was skipped with
// State::SkipWithMessage, which is not a failure.
inline bool RunSkipped(const benchmark::BenchmarkReporter::Run& run) {
#if BENCHPROF_HAS_SKIP_WITH_MESSAGE
  return run.skipped != benchmark::internal::NotSkipped;
#else
  return run.error_occurred;
#endif
}

// Makes `run` a failure with `message`, as State::SkipWithError would.
inline void FailRun(benchmark::BenchmarkReporter::Run& run, const std::string& message) {
#if BENCHPROF_HAS_SKIP_WITH_MESSAGE
  run.skipped = benchmark::internal::SkippedWithError;
  run.skip_message = message;
#else
  run.error_occurred = true;
  run.error_message = message;
#endif
}

// True if the benchmark skipped itself (either way) before its loop: the
// loop then runs no iteration and times nothing.
inline bool StateSkipped(const benchmark::State& state) {
#if BENCHPROF_HAS_SKIP_WITH_MESSAGE
  return state.skipped();
#else
  return state.error_occurred();
#endif
}

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_BENCHMARK_COMPAT_H_
