// What `benchprof trace-summary` computes from a trace: per-thread CPU
// busy/idle share, and per task type and region name the distribution of
// durations, after `go tool trace`'s user-defined tasks and regions pages.
// The rules follow docs/trace-format.md ("How trace-summary reads it").
//
//   TraceSummarizer summarizer;
//   StatusOr<TraceFileInfo> info =
//       ReadTraceFile(path, [&](const TraceEvent& e) { summarizer.Add(e); });
//   if (info.ok()) TraceSummary summary = std::move(summarizer).Finish(path, *info);
//
// Events arrive in file order, which is time order only within a thread
// (the writer streams per-thread buffers), so nothing here assumes a global
// order: thread spans are matched per thread, tasks by id in whichever order
// their begin and end come, and counter samples are sorted per series at
// the end.
//
// Memory: constant per event, except that every task and region duration
// is kept (8 bytes each) for exact percentiles, plus the samples of the
// CPU counters (16 bytes each) and the spans and tasks still open.
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_H_
#define BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_H_

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/trace_summary/trace_event.h"
#include "tools/trace_summary/trace_file_reader.h"

namespace benchprof::trace_summary {

// The distribution of a set of durations, in nanoseconds.
struct DurationStats {
  uint64_t count = 0;
  int64_t total_ns = 0;
  int64_t min_ns = 0;
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  int64_t p99_ns = 0;
  int64_t max_ns = 0;
};

// The `percent`-th percentile (1..100) of `sorted` (ascending, non-empty) by
// the nearest-rank method: the value at 1-based rank ceil(percent/100 * n).
// It is always one of the observed values — a duration that happened, never
// an interpolation between two — and pN is the smallest value with at least
// N% of the values at or below it. E.g. for {10, 20, 30, 40}: p50 = 20,
// p90 = p99 = 40.
int64_t NearestRankPercentile(const std::vector<int64_t>& sorted, int percent);

// The count, total, min, nearest-rank p50/p90/p99 and max of `durations`
// (reordered in place, not sorted: the percentiles are selected in linear
// time); all zero when empty.
DurationStats SummarizeDurations(std::vector<int64_t>& durations);

// One task type or region name and its durations.
struct NamedDurations {
  std::string name;
  DurationStats stats;
};

// One thread's CPU use over the traced interval.
struct ThreadUsage {
  int64_t pid = 0;
  int64_t tid = -1;        // -1 when a counter's name carries no "[tid]"
  std::string name;        // thread_name metadata, else the name in the counter, else ""
  bool has_cpu = false;    // false: the thread has a name but no CPU counter samples
  uint64_t samples = 0;    // CPU counter samples
  int64_t busy_ns = 0;     // the integral of the busy step function
  int64_t blocked_ns = 0;  // the summed "blocked" slices: time spent waiting
};

// Begin and end events without their partner.
struct UnmatchedCounts {
  uint64_t span_begins = 0;  // B still open at the end (per thread)
  uint64_t span_ends = 0;    // E with no open B on its thread
  uint64_t task_begins = 0;  // task b without its e
  uint64_t task_ends = 0;    // task e without its b

  uint64_t total() const { return span_begins + span_ends + task_begins + task_ends; }
};

// Everything trace-summary prints.
struct TraceSummary {
  std::string file;
  TraceLayout layout = TraceLayout::kObject;
  // The traced interval: the smallest "ts" to the largest "ts" (+ "dur") of
  // any event with a time (metadata events have none). For a flight-recorder
  // trace, no more than its window before the end: older events are the few
  // a thread recorded before its last buffer, and would dilute busy shares
  // over time the trace does not cover.
  bool has_interval = false;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint64_t events = 0;
  // otherData.dropped_events; without otherData (a cut-off file), the sum
  // of the "benchprof: dropped events" instants' args.count.
  uint64_t dropped_events = 0;
  // A flight-recorder trace (--trace_window): the window it kept, and the
  // events before it left out (otherData.window_ns, .discarded_events); 0
  // for a trace of the whole run.
  int64_t window_ns = 0;
  uint64_t discarded_events = 0;
  bool truncated = false;
  std::string truncation;  // where, e.g. "line 812: the file ends inside an event"
  std::string producer;    // otherData.producer, "" if absent
  std::string clock;       // otherData.clock, "" if absent
  uint32_t cpus = 0;       // otherData.cpus (CPUs the process could use), 0 if absent
  // Busiest first; threads without CPU samples last; ties by name, then tid.
  std::vector<ThreadUsage> threads;
  std::vector<NamedDurations> tasks;    // by task type (byte order)
  std::vector<NamedDurations> regions;  // by region name (byte order)
  UnmatchedCounts unmatched;
  uint64_t negative_durations = 0;  // end before begin: left out of the statistics
  uint64_t busy_out_of_range = 0;   // args.busy outside 0..1: clamped
  // One line each, without the file name: dropped events, truncation,
  // unmatched events, anomalies.
  std::vector<std::string> warnings;

  int64_t duration_ns() const { return end_ns - start_ns; }

  // busy_ns / duration_ns(), in 0..1; NaN when the interval is empty or the
  // thread has no CPU samples.
  double BusyShare(const ThreadUsage& thread) const;

  // 1 - BusyShare(thread), computed from the integers so that it is the
  // double nearest the exact share (0.44, not 0.43999999999999995).
  double IdleShare(const ThreadUsage& thread) const;

  // The mean number of threads on a CPU over the interval (the sum of the
  // busy shares); NaN when the interval is empty.
  double MeanBusyThreads() const;
};

// Folds events into running aggregates, one at a time.
class TraceSummarizer {
 public:
  // Accounts for one event (see the class comment of the file for the rules;
  // events of other phases and categories are counted in the interval only).
  void Add(const TraceEvent& event);

  // The summary, given what the reader learnt about the file (its name for
  // the header, otherData, truncation).
  TraceSummary Finish(const std::string& file, const TraceFileInfo& info) &&;

 private:
  // Heterogeneous lookup (C++20) so that a string_view from an event finds
  // its entry without building a std::string per event.
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using NameIndex = std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>>;

  // Durations per name, names interned so that open spans store an index.
  struct DurationTable {
    NameIndex index;
    std::vector<std::string> names;
    std::vector<std::vector<int64_t>> durations;
    // The index by TraceEvent::name_key (-1: not seen yet), so that a
    // reader's interned names cost no hashing.
    std::vector<int32_t> by_key;
    static constexpr uint32_t kMaxKeys = 1 << 20;  // past it, names are hashed

    // The index of `name`, added if new; `key` is its TraceEvent::name_key.
    int64_t Intern(std::string_view name, uint32_t key = 0);
    std::vector<NamedDurations> Summarize();
  };

  struct OpenSpan {
    int64_t ts_ns;
    int64_t region;  // index in regions_, or -1 for a span that is not a region
  };
  struct PendingTask {
    int64_t ts_ns;
    int64_t type;  // index in tasks_, or -1 when unknown (an e without a name)
    bool is_begin;
  };
  struct CounterSample {
    int64_t ts_ns;
    double busy;
  };

  // The open spans of thread `tid` of `pid`.
  std::vector<OpenSpan>& StackOf(int64_t pid, int64_t tid);
  void AddDuration(DurationTable& table, int64_t index, int64_t duration_ns);
  void AddTaskEvent(const TraceEvent& event);
  void ReadOtherData(const TraceFileInfo& info, TraceSummary& s) const;
  std::vector<ThreadUsage> Threads();
  int64_t BusyNanos(std::vector<CounterSample>& samples) const;
  void CountUnmatched(TraceSummary& s) const;

  DurationTable regions_;
  DurationTable tasks_;
  std::map<std::pair<int64_t, int64_t>, std::vector<OpenSpan>> stacks_;  // by (pid, tid)
  // The stack of the last B or E's thread: a thread's events come in runs
  // (the writer streams per-thread buffers). Map nodes stay put.
  std::pair<int64_t, int64_t> last_thread_{0, 0};
  std::vector<OpenSpan>* last_stack_ = nullptr;
  // Tasks by (pid, id): async ids are scoped by process in the Chrome
  // format. Found by a view of the event's id, without building a key.
  struct TaskKeyView {
    int64_t pid;
    std::string_view id;
  };
  struct TaskKey {
    int64_t pid;
    std::string id;
    operator TaskKeyView() const { return {pid, id}; }
  };
  struct TaskKeyHash {
    using is_transparent = void;
    size_t operator()(TaskKeyView k) const;
  };
  struct TaskKeyEqual {
    using is_transparent = void;
    bool operator()(TaskKeyView a, TaskKeyView b) const;
  };
  struct OpenTask {
    int64_t pid;
    PendingTask task;
    uint8_t id_size;
    char id[23];  // ids longer than this go to pending_tasks_
    std::string_view Id() const { return {id, id_size}; }
  };
  static constexpr size_t kFewTasks = 16;
  std::vector<OpenTask> few_tasks_;  // the first kFewTasks open tasks...
  std::unordered_map<TaskKey, PendingTask, TaskKeyHash, TaskKeyEqual>
      pending_tasks_;  // ...the rest
  // CPU counter series by pid, then counter name (std::less<> finds a
  // string_view without a copy).
  std::map<int64_t, std::map<std::string, std::vector<CounterSample>, std::less<>>> cpu_series_;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names_;  // by (pid, tid)
  // Blocked slices (begin, duration) by (pid, tid): summed at the end,
  // when a flight recorder's window is known.
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> blocked_;
  bool has_time_ = false;
  int64_t min_ts_ = 0;
  int64_t max_end_ = 0;
  // CPU samples count from here on (the start of a flight recorder's window).
  int64_t busy_from_ns_ = std::numeric_limits<int64_t>::min();
  uint64_t dropped_from_instants_ = 0;
  uint64_t task_begins_unmatched_ = 0;
  uint64_t task_ends_unmatched_ = 0;
  uint64_t span_ends_unmatched_ = 0;
  uint64_t negative_durations_ = 0;
  uint64_t busy_out_of_range_ = 0;
};

}  // namespace benchprof::trace_summary

#endif  // BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_H_
