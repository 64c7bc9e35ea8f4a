// Writing a run's outputs: every requested kind's file and --benchmark_out
// are written at their temporary paths, then moved into place together
// (session/interruption.h: CommitTogether), so an interruption leaves them
// all new or all old. The same for a run that was interrupted while its
// benchmarks ran (WriteInterruptedRun), on the watcher's thread, while the
// benchmark threads keep running.
//
// Thread-safety: FinishKinds and CommitOutputs on the thread that owns the
// kinds (the main thread, or the interruption's once it has stopped the
// loop events and taken the reporters' gate).
#ifndef BENCHPROF_SESSION_RUN_OUTPUTS_H_
#define BENCHPROF_SESSION_RUN_OUTPUTS_H_

#include <span>
#include <string>
#include <vector>

#include "aggregate/run_labels.h"
#include "common/atomic_file.h"
#include "common/status.h"
#include "profiles/profile.h"
#include "session/harness_reporter.h"

namespace benchprof::session {

// Each kind's written file (at its temporary path), in the kinds' order.
// A kind that failed is one line on stderr and is left out; the others are
// still written. `all_written` is false if any failed.
struct WrittenOutputs {
  std::vector<profiles::WrittenFile> files;
  bool all_written = true;
};
WrittenOutputs FinishKinds(const std::string& program, std::span<profiles::Profile* const> kinds,
                           const aggregate::RunLabels& labels, const profiles::RunEnding& ending);

// Moves every file into place together, then prints each one's summary
// line. A move that fails is one line on stderr (the others still move);
// returns false then.
bool CommitOutputs(const std::string& program, const std::vector<profiles::WrittenFile>& files);

// What an interrupted run writes, and where it finds it: the requested
// kinds, the segments' labels, the reporters' auditor (whose gate it
// takes), and --benchmark_out's file reporter and file (null if none).
struct InterruptedRun {
  std::string program;
  std::span<profiles::Profile* const> kinds;
  const aggregate::RunLabels* labels = nullptr;
  RunAuditor* auditor = nullptr;
  const HarnessReporter* results_reporter = nullptr;
  const AtomicFile* results = nullptr;
  std::string results_format;  // --benchmark_out_format
};

// Stops the loop events and the reports, writes every output from what was
// collected so far, marked as interrupted by `reason`, and moves them into
// place together. Returns the end of the line to print, or an error if
// nothing could be written.
StatusOr<std::string> WriteInterruptedRun(const InterruptedRun& run, const std::string& reason);

// Which benchmark runs now, as far as the reports tell (Google Benchmark
// 1.7 does not give a running benchmark's name): "the benchmark after
// BM_Quick/iterations:1000", "the first benchmark".
std::string DescribeRunning(RunAuditor& auditor);

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_RUN_OUTPUTS_H_
