#include "profiles/trace_profile.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collect/alloc_counter.h"
#include "collect/contention_sampler.h"
#include "collect/timed_scope.h"
#include "common/byte_size.h"
#include "common/go_duration.h"
#include "encode/perfetto_trace_writer.h"
#include "tracer/chrome_json_writer.h"
#include "tracer/trace_recorder.h"

namespace benchprof::profiles {
namespace {

// Threads started while recording get a track and a CPU counter.
constexpr collect::ThreadListener kThreadListener{&tracer::WantsNewThread, &tracer::OnThreadStart,
                                                  nullptr};

constexpr ProfileTraits kTraits{
    .name = "trace",
    .output_flag = "trace",
    .needs_timed_loops = true,
    .needs_allocation_hooks = false,
    // The recorder's own threads become runners that never time
    // (collect::BecomeRunner), so they count neither in allocs/op nor in a
    // CPU profile: a sampler that starts later finds them running already.
    .stage = StartStage::kFirst,
    .thread_listener = &kThreadListener,
    .disturbs = "",
    .disturbance = "",
};

constexpr char kUnreportedRun[] = "(run not reported)";

// Waits this long or longer become "blocked" slices (docs/trace-format.md).
constexpr int64_t kMinBlockedSliceNs = 10'000;

const char* BlockedSliceName(collect::WaitKind kind) {
  switch (kind) {
    case collect::WaitKind::kMutex:
      return "blocked on a mutex";
    case collect::WaitKind::kRwlockRead:
    case collect::WaitKind::kRwlockWrite:
      return "blocked on an rwlock";
    case collect::WaitKind::kCondition:
      return "blocked on a condition variable";
    case collect::WaitKind::kSemaphore:
      return "blocked on a semaphore";
    case collect::WaitKind::kJoin:
      return "blocked on a thread join";
    case collect::WaitKind::kFutex:
      return "blocked on a futex";
  }
  return "blocked";
}

// The lock hooks tell the tracer of every long wait, on the waiting thread.
constexpr collect::WaitObserver kBlockedSlices{
    [] { return tracer::ReadTicks(); },
    [](collect::WaitKind kind, uint64_t begin, uint64_t end) {
      tracer::RecordBlocked(begin, end, BlockedSliceName(kind));
    },
    kMinBlockedSliceNs};

// The flight recorder's memory bound: 64 MiB by default, at least 4 MiB
// (a pool of 16 chunks and 12 window blocks).
constexpr uint64_t kDefaultWindowBytes = uint64_t{64} << 20;
constexpr uint64_t kMinWindowBytes = uint64_t{4} << 20;
constexpr uint64_t kMaxWindowBytes = uint64_t{64} << 30;

// Whether `path` names a Perfetto trace by its extension.
bool HasPerfettoExtension(std::string_view path) {
  return path.ends_with(".pftrace") || path.ends_with(".perfetto-trace");
}

// Which worker name this thread has in the trace (-1: none yet).
thread_local int t_worker_index = -1;

class TraceProfile final : public Profile {
 public:
  // A trace still recording is stopped and discarded.
  ~TraceProfile() override {
    if (!recording_) return;
    collect::SetWaitObserver(nullptr);
    (void)tracer::StopRecording();
  }

  const ProfileTraits& traits() const override { return kTraits; }

  void DeclareFlags(FlagSet& flags) override {
    flags.File("trace", &path_,
               "write an execution trace to FILE (Chrome trace-event JSON: Perfetto UI, "
               "chrome://tracing, speedscope; Perfetto's protobuf format, 5 to 10 times smaller, "
               "if FILE ends in .pftrace or .perfetto-trace; summarize with "
               "`benchprof trace-summary`)");
    flags.Choice("trace_format", {"json", "perfetto"}, &format_,
                 "the --trace file's format whatever its name (default: perfetto for "
                 ".pftrace and .perfetto-trace, else json)");
    flags.Int("tracecpurate", "HZ", 0, 1000, &cpu_rate_,
              "how often a trace reads each thread's CPU clock and the allocation totals "
              "for its counters (default 100 per second; each reading wakes a thread, which "
              "costs the benchmark when every core is busy; 0 = no counters)",
              "expected readings per second from 0 (none) to 1000");
    flags.Custom(
        "trace_window", "DURATION",
        [this](std::string_view value) -> std::string {
          const std::optional<int64_t> ns = ParseGoDuration(value);
          if (!ns || *ns == 0) return "expected a duration such as 10s or 1m (Go's syntax)";
          window_ = std::string(value);
          window_ns_ = *ns;
          return "";
        },
        "flight recorder: keep only the last DURATION of the trace (Go's syntax: 10s, 1m) in "
        "memory, and write it at the end of the run, on SIGINT or SIGTERM, and at --timeout "
        "(default: the whole run, spooled to $TMPDIR)");
    flags.Custom(
        "trace_window_bytes", "SIZE",
        [this](std::string_view value) -> std::string {
          const std::optional<uint64_t> bytes = ParseByteSize(value);
          if (!bytes || *bytes < kMinWindowBytes || *bytes > kMaxWindowBytes) {
            return "expected a size from 4MiB to 64GiB, such as 64MiB";
          }
          window_bytes_ = std::string(value);
          window_bytes_value_ = *bytes;
          return "";
        },
        "with --trace_window, the most memory the flight recorder's buffers take (default "
        "64MiB); when the window needs more, it keeps fewer seconds");
  }

  const std::string& output_path() const override { return path_; }
  // Its settings alone are requested too, to be refused in RunElsewhere.
  bool requested() const override {
    return !path_.empty() || !format_.empty() || !window_.empty() || !window_bytes_.empty();
  }
  std::optional<int> RunElsewhere(int argc, char** argv, const SessionInfo& session) override;

  Status Start(AtomicFile output, const SessionInfo& session) override;
  void OnLoopStarting(benchmark::State& state, uint32_t segment) override;
  void OnLoopStarted(benchmark::State&) override {
    tracer::RecordMarker(tracer::RecordKind::kLoopBegin);
  }
  void OnLoopFinishing(benchmark::State&) override {
    tracer::RecordMarker(tracer::RecordKind::kLoopEnd);
  }
  void OnLoopFinished(benchmark::State& state) override;
  void OnPausing(benchmark::State&) override {
    tracer::RecordMarker(tracer::RecordKind::kPauseBegin);
  }
  void OnResumed(benchmark::State&) override {
    tracer::RecordMarker(tracer::RecordKind::kPauseEnd);
  }
  void OnLoopWithdrawn(uint32_t segment) override {
    if (!pending_.empty() && pending_.back().number == segment) pending_.pop_back();
  }
  void OnReportedRun(uint32_t segment, const aggregate::RunLabel& label) override;
  StatusOr<WrittenFile> Finish(const aggregate::RunLabels& labels, const RunEnding& ending,
                               aggregate::Symbolizer& symbolizer) override;

 private:
  // One call of a benchmark function, as thread 0 saw it.
  struct Segment {
    uint32_t number;
    uint64_t begin_ticks;
    uint64_t end_ticks;  // 0 until the call's loop finished
    uint64_t iterations;
  };

  // What the flight recorder kept, for the summary line.
  std::string WindowSummary(const tracer::RecorderStats& stats) const;
  // The formatter --trace_format (or the file's extension) asks for.
  std::unique_ptr<tracer::TraceFormatter> MakeFormatter(const std::string& temp_path);

  std::string path_;
  std::string format_;  // --trace_format; empty: by the file's extension
  std::string window_;  // --trace_window as given; empty: the whole run
  int64_t window_ns_ = 0;
  std::string window_bytes_;  // --trace_window_bytes as given
  uint64_t window_bytes_value_ = kDefaultWindowBytes;
  bool perfetto_ = false;  // the file is a Perfetto trace
  int cpu_rate_ = 100;
  std::optional<AtomicFile> file_;
  bool recording_ = false;
  // Segments not yet reported, oldest first. Thread 0 (the main thread)
  // adds them, the reporter (main thread too) takes them: no
  // synchronization.
  std::vector<Segment> pending_;
  // Run names, alive until the recorder has written them.
  std::deque<std::string> run_names_;
};

std::unique_ptr<tracer::TraceFormatter> TraceProfile::MakeFormatter(const std::string& temp_path) {
  perfetto_ = format_.empty() ? HasPerfettoExtension(path_) : format_ == "perfetto";
  if (perfetto_) return std::make_unique<encode::PerfettoTraceWriter>(temp_path);
  return std::make_unique<tracer::ChromeJsonWriter>(temp_path);
}

std::string TraceProfile::WindowSummary(const tracer::RecorderStats& stats) const {
  if (stats.discarded_events == 0) return ", the whole run: it was shorter than --trace_window";
  std::string text = " of the last ";
  // Within a block of the window (a few milliseconds of events) is what
  // was asked for.
  if (stats.window_kept_ns < window_ns_ * 9 / 10) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1fs",
                  static_cast<double>(stats.window_kept_ns) / 1e9);
    text += std::string(seconds) + ", not " + window_ + ": more did not fit in " +
            FormatByteSize(window_bytes_value_) + " (--trace_window_bytes)";
  } else {
    text += window_;
  }
  return text + "; " + std::to_string(stats.discarded_events) + " older events discarded";
}

std::optional<int> TraceProfile::RunElsewhere(int, char**, const SessionInfo& session) {
  const char* alone = nullptr;
  if (path_.empty()) {
    alone = !format_.empty()   ? "--trace_format needs --trace"
            : !window_.empty() ? "--trace_window needs --trace"
                               : "--trace_window_bytes needs --trace and --trace_window";
  } else if (window_.empty() && !window_bytes_.empty()) {
    alone = "--trace_window_bytes needs --trace_window";
  }
  if (alone == nullptr) return std::nullopt;
  std::fprintf(stderr, "%s: %s\n", session.program.c_str(), alone);
  return 2;
}

Status TraceProfile::Start(AtomicFile output, const SessionInfo& session) {
  file_.emplace(std::move(output));
  tracer::RecorderOptions options;
  options.process_name = session.program;
  options.sample_cpu = cpu_rate_ > 0;
  if (cpu_rate_ > 0) options.sample_period = std::chrono::microseconds(1'000'000 / cpu_rate_);
  if (collect::kAllocHooksEnabled) {
    options.process_counters = [] {
      const collect::AllocTotals totals = collect::TotalAllocations();
      return tracer::ProcessCounters{totals.bytes, totals.allocs};
    };
  }
  // A runner that is paused is never in the timed scope: the recorder's own
  // threads then never count in allocs/op nor appear in a CPU profile.
  options.on_internal_thread_start = [] { collect::BecomeRunner(); };
  if (window_ns_ > 0) {
    // A quarter of the memory for the chunks threads fill (as without a
    // window, 256 at most), the rest for the window.
    const uint64_t chunks =
        std::clamp<uint64_t>(window_bytes_value_ / 4 / tracer::kChunkBytes, 16, 256);
    options.chunk_count = static_cast<uint32_t>(chunks);
    options.window_ns = window_ns_;
    options.window_bytes = window_bytes_value_ - chunks * tracer::kChunkBytes;
  }
  pending_.reserve(1024);
  if (Status started = tracer::StartRecording(MakeFormatter(file_->temp_path()), options);
      !started.ok()) {
    return started.WithContext("--trace");
  }
  recording_ = true;
  tracer::NameCurrentThread("main");
  if (collect::LockHooksAreLive()) collect::SetWaitObserver(&kBlockedSlices);
  return Status();
}

void TraceProfile::OnLoopStarting(benchmark::State& state, uint32_t segment) {
  const int thread_index = state.thread_index();
  if (thread_index == 0) {
    pending_.push_back({segment, tracer::ReadTicks(), 0, 0});
  } else if (t_worker_index != thread_index) {
    t_worker_index = thread_index;
    char name[32] = "benchmark worker ";
    const std::to_chars_result end = std::to_chars(name + 17, name + sizeof name, thread_index);
    tracer::NameCurrentThread(std::string_view(name, static_cast<size_t>(end.ptr - name)));
  }
}

void TraceProfile::OnLoopFinished(benchmark::State& state) {
  if (state.thread_index() != 0 || pending_.empty()) return;
  pending_.back().end_ticks = tracer::ReadTicks();
  pending_.back().iterations = state.iterations();
}

void TraceProfile::OnReportedRun(uint32_t segment, const aggregate::RunLabel& label) {
  if (!recording_) return;
  // The run's probe calls precede its final call: everything pending up to
  // `segment` belongs to it.
  size_t last = 0;
  while (last < pending_.size() && pending_[last].number < segment) ++last;
  if (last == pending_.size() || pending_[last].number != segment) return;
  const Segment& final_call = pending_[last];
  run_names_.push_back(label.benchmark);
  tracer::RecordRun(pending_.front().begin_ticks,
                    final_call.end_ticks != 0 ? final_call.end_ticks : tracer::ReadTicks(),
                    run_names_.back().c_str(), final_call.iterations, last + 1,
                    static_cast<uint32_t>(label.threads));
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<ptrdiff_t>(last + 1));
}

StatusOr<WrittenFile> TraceProfile::Finish(const aggregate::RunLabels&, const RunEnding& ending,
                                           aggregate::Symbolizer&) {
  if (!recording_) return Status::Error("--trace: the trace was not started");
  for (const Segment& call : pending_) {
    tracer::RecordRun(call.begin_ticks, call.end_ticks != 0 ? call.end_ticks : tracer::ReadTicks(),
                      kUnreportedRun, call.iterations, 1, 0);
  }
  pending_.clear();
  recording_ = false;
  collect::SetWaitObserver(nullptr);
  StatusOr<tracer::RecorderStats> stats = tracer::StopRecording(ending.interrupted_by);
  run_names_.clear();
  if (!stats.ok()) return stats.status().WithContext("--trace=" + file_->path());
  std::string summary =
      "trace: " + file_->path() + " (" + std::to_string(stats->events_written) + " events";
  if (window_ns_ > 0) summary += WindowSummary(*stats);
  if (stats->dropped_events != 0) {
    summary += "; " + std::to_string(stats->dropped_events) +
               " events dropped because the writer could not keep up, see " +
               (perfetto_ ? "the benchprof: trace totals instant" : "otherData.dropped_events");
  }
  return WrittenFile{&*file_, "--trace", summary + ")"};
}

}  // namespace

std::unique_ptr<Profile> MakeTraceProfile() { return std::make_unique<TraceProfile>(); }

}  // namespace benchprof::profiles
