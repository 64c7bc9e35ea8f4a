#include "session/run_outputs.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <utility>

#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"
#include "common/lock_within.h"
#include "session/interruption.h"
#include "session/timed_loop.h"

namespace benchprof::session {
namespace {

// How long an interruption waits for the main thread to finish the report
// it is in (reports hold the gate for microseconds, never during output).
constexpr auto kGateWait = std::chrono::seconds(2);

void PrintError(const std::string& program, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
}

}  // namespace

WrittenOutputs FinishKinds(const std::string& program, std::span<profiles::Profile* const> kinds,
                           const aggregate::RunLabels& labels, const profiles::RunEnding& ending) {
  WrittenOutputs outputs;
  // Loads nothing yet: each object's symbols and DWARF are read on its
  // first address, once for all kinds.
  aggregate::Symbolizer symbolizer(aggregate::LoadedModules());
  for (profiles::Profile* kind : kinds) {
    StatusOr<profiles::WrittenFile> written = kind->Finish(labels, ending, symbolizer);
    if (!written.ok()) {
      PrintError(program, written.status().message());
      outputs.all_written = false;
      continue;
    }
    // A kind that writes no file of its own (instructions) has nothing to commit.
    if (written.value().file != nullptr) outputs.files.push_back(std::move(written).value());
  }
  return outputs;
}

bool CommitOutputs(const std::string& program, const std::vector<profiles::WrittenFile>& files) {
  std::vector<Status> committed(files.size());
  CommitTogether([&] {
    for (size_t i = 0; i < files.size(); ++i) committed[i] = files[i].file->Commit();
  });
  bool all = true;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!committed[i].ok()) {
      PrintError(program, files[i].flag + ": " + committed[i].message());
      all = false;
    } else if (!files[i].summary.empty()) {
      std::fprintf(stderr, "%s\n", files[i].summary.c_str());
    }
  }
  return all;
}

std::string DescribeRunning(RunAuditor& auditor) {
  if (!LockWithin(auditor.gate(), kGateWait)) {
    return "an unknown benchmark (the reports did not stop)";
  }
  std::unique_lock lock(auditor.gate(), std::adopt_lock);
  if (auditor.last_reported().empty()) return "the first benchmark";
  return "the benchmark after " + auditor.last_reported();
}

StatusOr<std::string> WriteInterruptedRun(const InterruptedRun& run, const std::string& reason) {
  // No kind is called from a benchmark thread after this, and no report
  // changes the labels or the kept runs: the gate is never given back, so
  // the main thread stops at its next report.
  if (!StopLoopEvents(kGateWait)) {
    return Status::Error(
        "a benchmark thread did not leave benchprof's loop hooks; no output file "
        "written, previous ones kept");
  }
  if (!LockWithin(run.auditor->gate(), kGateWait)) {
    return Status::Error(
        "the benchmarks' reports did not stop; no output file written, previous ones kept");
  }
  const profiles::RunEnding ending{reason};
  std::vector<profiles::WrittenFile> files;
  bool all_written = true;
  size_t runs = 0;
  std::optional<AtomicFile> results;
  // A device or FIFO got the library's output directly: nothing to replace.
  if (run.results != nullptr && run.results_reporter != nullptr && !run.results->writes_through()) {
    StatusOr<AtomicFile> created = AtomicFile::Create(run.results->path());
    Status written = created.status();
    if (created.ok()) {
      results.emplace(std::move(created).value());
      written = run.results_reporter->WriteCompletedRuns(run.results_format, results->temp_path(),
                                                         reason, &runs);
    }
    if (written.ok()) {
      files.push_back({&*results, "--benchmark_out", ""});
    } else {
      PrintError(run.program, "--benchmark_out: " + written.message());
      all_written = false;
    }
  }
  WrittenOutputs kinds = FinishKinds(run.program, run.kinds, *run.labels, ending);
  all_written = all_written && kinds.all_written;
  for (profiles::WrittenFile& file : kinds.files) files.push_back(std::move(file));
  if (files.empty()) {
    if (!all_written) return Status::Error("no output file written, previous ones kept");
    return std::string("no output file requested");
  }
  all_written = CommitOutputs(run.program, files) && all_written;
  std::string line = "wrote";
  if (results)
    line += " the " + std::to_string(runs) + (runs == 1 ? " completed run" : " completed runs");
  if (results && !kinds.files.empty()) line += " and";
  if (!kinds.files.empty()) line += " what was collected until then";
  line += ", marked as interrupted";
  if (!all_written) line += " (some outputs failed; see above)";
  return line;
}

}  // namespace benchprof::session
