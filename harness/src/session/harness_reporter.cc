#include "session/harness_reporter.h"

#include <cstring>
#include <sstream>
#include <string_view>

#include "session/benchmark_compat.h"
#include "session/timed_loop.h"

namespace benchprof::session {

using aggregate::RunLabel;

namespace {

using Run = benchmark::BenchmarkReporter::Run;

// Debian builds libbenchmark without NDEBUG, so every run would start with
// this line although the library is optimised and the timed loop is inline
// code in the benchmark's own objects. JSON context still says "debug".
constexpr std::string_view kDebugBuildWarning =
    "***WARNING*** Library was built as DEBUG. Timings may be affected.\n";

std::string WithoutDebugBuildWarning(std::string text) {
  const size_t at = text.find(kDebugBuildWarning);
  if (at != std::string::npos) text.erase(at, kDebugBuildWarning.size());
  return text;
}

}  // namespace

bool RunAuditor::Intercepted(const std::vector<Run>& runs) {
  if (!requires_interception_) return true;
  bool any_measured = false;
  for (const Run& run : runs) {
    if (RunSkipped(run)) continue;
    any_measured = true;
    if (expect_alloc_counters_ && run.run_type == Run::RT_Iteration &&
        (run.counters.count(kAllocsPerOpCounter) == 0 ||
         run.counters.count(kBytesPerOpCounter) == 0)) {
      return false;
    }
  }
  // Every instance is reported right after its last repetition ran, so at
  // least one timed loop must have finished since the previous verdict.
  const uint64_t finishes = LoopsFinished();
  const bool loops_seen = finishes > loop_finishes_at_last_verdict_;
  loop_finishes_at_last_verdict_ = finishes;
  return !any_measured || loops_seen;
}

std::vector<Run> RunAuditor::Audit(const std::vector<Run>& runs) {
  std::vector<Run> audited = runs;
  if (audited.empty()) return audited;
  const std::string instance = audited.front().run_name.str();
  auto verdict = intercepted_by_instance_.find(instance);
  if (verdict == intercepted_by_instance_.end()) {
    verdict = intercepted_by_instance_.emplace(instance, Intercepted(audited)).first;
  }
  for (Run& run : audited) {
    if (auto segment = run.counters.find(kSegmentCounter); segment != run.counters.end()) {
      const auto number = static_cast<uint32_t>(segment->second.value);
      if (run.run_type == Run::RT_Iteration && segment_listener_ &&
          segments_seen_.insert(number).second) {
        segment_listener_(number, RunLabel{run.run_name.str(), static_cast<int>(run.threads)});
      }
      run.counters.erase(segment);
    }
    if (!verdict->second && !RunSkipped(run)) FailRun(run, kNotInterceptedError);
    if (RunFailed(run)) any_error_ = true;
  }
  return audited;
}

bool HarnessReporter::ReportContext(const Context& context) {
  // The library set this wrapper's streams (a file for --benchmark_out); the
  // inner reporter writes where this one would, through a check for files.
  std::ostream* output = &GetOutputStream();
  std::ostream* errors = &GetErrorStream();
  if (owned_inner_ != nullptr) {
    checked_ = std::make_unique<CheckedStreamBuf>(output->rdbuf());
    checked_stream_ = std::make_unique<std::ostream>(checked_.get());
    // The library sends a file reporter's errors (the CSV banner) to the
    // file too.
    if (errors->rdbuf() == output->rdbuf()) errors = checked_stream_.get();
    output = checked_stream_.get();
  }
  inner_->SetOutputStream(output);
  std::ostringstream banner;
  inner_->SetErrorStream(&banner);
  const bool proceed = inner_->ReportContext(context);
  inner_->SetErrorStream(errors);
  *errors << WithoutDebugBuildWarning(banner.str());
  return proceed;
}

void HarnessReporter::ReportRuns(const std::vector<Run>& runs) {
  inner_->ReportRuns(auditor_.Audit(runs));
}

void HarnessReporter::Finalize() {
  inner_->Finalize();
  // Everything reaches the file now, while a failure can still be told.
  if (checked_stream_ != nullptr) checked_stream_->flush();
}

Status HarnessReporter::OutputStatus(uint64_t* bytes) const {
  *bytes = checked_ != nullptr ? checked_->bytes() : 0;
  if (checked_ == nullptr || !checked_->failed()) return Status();
  return Status::Error(std::string("write failed (") +
                       (checked_->error() != 0 ? std::strerror(checked_->error()) : "unknown") +
                       ")");
}

std::unique_ptr<benchmark::BenchmarkReporter> MakeFileReporter(const std::string& format) {
  if (format == "json") return std::make_unique<benchmark::JSONReporter>();
  if (format == "csv") {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
  }
  return std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None);
}

}  // namespace benchprof::session
