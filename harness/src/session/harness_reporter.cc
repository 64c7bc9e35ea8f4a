#include "session/harness_reporter.h"

#include <errno.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string_view>
#include <type_traits>

#include "common/temporary_files.h"
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

// Writes `text` into the file at `path`, checking every step.
Status WriteWholeFile(const std::string& path, std::string_view text) {
  std::FILE* file = OpenForWriting(path, "we");
  if (file == nullptr) return Status::Error(path + ": " + std::strerror(errno));
  const int fd = fileno(file);
  while (!text.empty()) {
    const ssize_t wrote = write(fd, text.data(), text.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      const int error = wrote < 0 ? errno : ENOSPC;
      std::fclose(file);
      return Status::Error(path + ": write failed (" + std::strerror(error) + ")");
    }
    text.remove_prefix(static_cast<size_t>(wrote));
  }
  if (std::fclose(file) != 0) {
    return Status::Error(path + ": write failed (" + std::strerror(errno) + ")");
  }
  return Status();
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
  last_reported_ = instance;
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
  if (owned_inner_ != nullptr) {
    std::lock_guard lock(auditor_.gate());
    context_.emplace(context);
  }
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
  std::vector<Run> audited;
  {
    std::lock_guard lock(auditor_.gate());
    audited = auditor_.Audit(runs);
    if (owned_inner_ != nullptr) {
      reported_.push_back(audited);
      for (Run& kept : reported_.back()) {
        if constexpr (std::is_pointer_v<decltype(kept.memory_result)>) {
          if (kept.memory_result != nullptr) {
            memory_results_.push_back(*kept.memory_result);
            kept.memory_result = &memory_results_.back();
          }
        }
      }
    }
  }
  inner_->ReportRuns(audited);
}

Status HarnessReporter::WriteCompletedRuns(const std::string& format, const std::string& path,
                                           const std::string& interrupted_by, size_t* runs) const {
  *runs = 0;
  std::ostringstream text;
  const std::unique_ptr<benchmark::BenchmarkReporter> reporter = MakeFileReporter(format);
  reporter->SetOutputStream(&text);
  std::ostringstream banner;  // the CSV banner, as ReportContext() sends it
  reporter->SetErrorStream(&banner);
  // Interrupted before the library reported its context: one made now
  // describes the same machine.
  const Context context = context_ ? *context_ : Context();
  reporter->ReportContext(context);
  reporter->SetErrorStream(&text);
  text << WithoutDebugBuildWarning(banner.str());
  for (const std::vector<Run>& report : reported_) {
    reporter->ReportRuns(report);
    for (const Run& run : report) *runs += run.run_type == Run::RT_Iteration ? 1 : 0;
  }
  reporter->Finalize();
  std::string written = text.str();
  if (interrupted_by.empty()) {
    // Not interrupted: nothing to mark.
  } else if (format == "json") {
    constexpr std::string_view kContext = "\"context\": {\n";
    if (const size_t at = written.find(kContext); at != std::string::npos) {
      written.insert(at + kContext.size(),
                     "    \"benchprof_interrupted\": \"" + interrupted_by + "\",\n");
    }
  } else if (format == "console") {
    written += "benchprof: interrupted (" + interrupted_by +
               "): only the runs completed before are listed\n";
  }
  return WriteWholeFile(path, written);
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
