// The reporters benchprof hands to Google Benchmark.
//
// HarnessReporter wraps one of the library's reporters (the display reporter
// chosen by --benchmark_format, or the file reporter for --benchmark_out) and
// passes every run through a RunAuditor first. The auditor turns the runs of a
// benchmark whose timed loop was not intercepted into errors (its figures
// cannot be measured, so none are shown rather than zeros), and remembers
// whether any run failed, for the exit code.
//
//   RunAuditor auditor(/*requires_interception=*/true, /*expect_alloc_counters=*/true);
//   HarnessReporter display(benchmark::CreateDefaultDisplayReporter(), auditor);
//   benchmark::RunSpecifiedBenchmarks(&display);
//   if (auditor.any_error()) ...
//
// An interrupted run (session/interruption.h) writes --benchmark_out from
// the runs reported so far: the file reporter keeps a copy of them and of
// the context, and WriteCompletedRuns() replays them into a fresh reporter
// of the same format on the thread that handles the interruption.
//
// Thread-safety: the library calls reporters from the main thread only.
// What an interruption reads (the audit's listener's effects, the kept runs
// and context) changes only under the auditor's gate(), which the
// interruption takes and never gives back, so the main thread stops at its
// next report.
#ifndef BENCHPROF_SESSION_HARNESS_REPORTER_H_
#define BENCHPROF_SESSION_HARNESS_REPORTER_H_

#include <benchmark/benchmark.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "aggregate/run_labels.h"
#include "common/status.h"
#include "session/checked_stream.h"

namespace benchprof::session {

// The error a run gets when its timed loop was not intercepted.
inline constexpr char kNotInterceptedError[] =
    "benchprof: this benchmark's timed loop was not intercepted, so it cannot be measured; "
    "compile it into the executable (or a static library) linked with benchprof::main";

class RunAuditor {
 public:
  // `requires_interception`: a figure was asked for that only the timed-loop
  // hooks can measure (--benchmem); without one, timings alone need no hooks
  // and runs pass unchecked. `expect_alloc_counters`: every run must carry
  // allocs/op and B/op.
  RunAuditor(bool requires_interception, bool expect_alloc_counters)
      : requires_interception_(requires_interception),
        expect_alloc_counters_(expect_alloc_counters) {}

  // Called once per reported run that carries a profile segment (the hidden
  // counter, which Audit removes from every run).
  void SetSegmentListener(
      std::function<void(uint32_t segment, const aggregate::RunLabel& label)> listener) {
    segment_listener_ = std::move(listener);
  }

  // Returns `runs` as they must be reported. All runs in one call belong to
  // one benchmark instance; the verdict on an instance is taken the first
  // time it is seen (by the display reporter) and reused for the file.
  std::vector<benchmark::BenchmarkReporter::Run> Audit(
      const std::vector<benchmark::BenchmarkReporter::Run>& runs);

  // True once any reported run was an error.
  bool any_error() const { return any_error_; }

  // The name of the last benchmark instance reported ("" before the
  // first). Read under gate().
  const std::string& last_reported() const { return last_reported_; }

  // Held while a reported run changes the session's state (the audit, the
  // segment listener, the runs kept for an interruption); never while
  // writing output, so it is only ever held briefly.
  std::timed_mutex& gate() { return gate_; }

 private:
  bool Intercepted(const std::vector<benchmark::BenchmarkReporter::Run>& runs);

  const bool requires_interception_;
  const bool expect_alloc_counters_;
  uint64_t loop_finishes_at_last_verdict_ = 0;
  std::map<std::string, bool> intercepted_by_instance_;
  bool any_error_ = false;
  std::function<void(uint32_t, const aggregate::RunLabel&)> segment_listener_;
  std::set<uint32_t> segments_seen_;
  std::timed_mutex gate_;
  std::string last_reported_;
};

class HarnessReporter final : public benchmark::BenchmarkReporter {
 public:
  // `inner` is not owned (the library owns its default display reporter).
  HarnessReporter(benchmark::BenchmarkReporter* inner, RunAuditor& auditor)
      : inner_(inner), auditor_(auditor) {}

  // Takes ownership of `inner`, the file reporter of --benchmark_out: what
  // it writes is checked (OutputStatus()).
  HarnessReporter(std::unique_ptr<benchmark::BenchmarkReporter> inner, RunAuditor& auditor)
      : owned_inner_(std::move(inner)), inner_(owned_inner_.get()), auditor_(auditor) {}

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // For the file reporter: writes the runs reported so far, as the file
  // reporter writes them, into `path` (a new file), in `format` (the
  // --benchmark_out_format). `interrupted_by` ("SIGINT") marks the file:
  // JSON gets the context field "benchprof_interrupted", the console format
  // a last line; CSV has no place for it. Empty, the file is not marked
  // (an empty shard's file: the context and no runs). `runs` receives how many runs
  // were written (aggregates not counted). REQUIRES: the caller holds the
  // auditor's gate().
  Status WriteCompletedRuns(const std::string& format, const std::string& path,
                            const std::string& interrupted_by, size_t* runs) const;

  // For the file reporter, after the run: an error naming errno's reason if
  // the file's stream refused anything, else OK. `bytes` receives how many
  // bytes it accepted, which the file's size must match.
  Status OutputStatus(uint64_t* bytes) const;

 private:
  std::unique_ptr<benchmark::BenchmarkReporter> owned_inner_;
  benchmark::BenchmarkReporter* inner_;
  RunAuditor& auditor_;
  // Between the file reporter and the library's stream (files only).
  std::unique_ptr<CheckedStreamBuf> checked_;
  std::unique_ptr<std::ostream> checked_stream_;
  // What was reported, for WriteCompletedRuns() (file reporter only).
  std::optional<Context> context_;
  std::vector<std::vector<Run>> reported_;
  // Google Benchmark 1.7 points a run's memory result into its runner,
  // where it may move: kept runs point here instead.
  std::deque<benchmark::MemoryManager::Result> memory_results_;
};

// The reporter --benchmark_out_format asks for, as 1.7.1 builds it for files.
std::unique_ptr<benchmark::BenchmarkReporter> MakeFileReporter(const std::string& format);

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_HARNESS_REPORTER_H_
