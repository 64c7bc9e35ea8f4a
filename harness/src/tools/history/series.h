// The model the history's parts share: a series is the values of one metric
// of one benchmark, on one testbed and branch, run after run in the order of
// git ancestry (oldest first); a change point is where its level moved.
//
// The store (history_store.h) fills series from the database; the detector
// (change_points.h) finds their change points; the gate, the trend page and
// the text outputs read both. Nothing here touches a database or a file.
//
//   Series s = ...;  // s.points[i].values: run i's repetitions
//   std::vector<ChangePoint> found = FindChangePoints(s, DetectOptions{});
//
// Thread-safety: plain values.
#ifndef BENCHPROF_TOOLS_HISTORY_SERIES_H_
#define BENCHPROF_TOOLS_HISTORY_SERIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/results/result_reader.h"

namespace benchprof::history {

// A commit as the history knows it (read from git, or given when recording).
struct CommitInfo {
  std::string hash;                  // full hexadecimal object name
  std::vector<std::string> parents;  // first parent first; empty for a root
  int64_t committer_time_ns = 0;     // since the epoch; 0 when unknown
  std::string subject;               // first line of the message; "" when unknown
};

// What identifies a series.
struct SeriesKey {
  std::string benchmark;  // Google Benchmark run name
  std::string metric;     // "cpu_time", "real_time", "allocs/op", "B/op", "instructions/op", ...
  std::string testbed;    // the testbed's name (given, or derived from its identity)
  std::string branch;

  friend bool operator==(const SeriesKey&, const SeriesKey&) = default;
  friend auto operator<=>(const SeriesKey&, const SeriesKey&) = default;
};

// One run's values of a series' metric.
struct SeriesPoint {
  int64_t run_id = 0;
  std::string commit;          // hash
  int64_t recorded_at_ns = 0;  // when the run was recorded; orders runs of one commit
  std::vector<double> values;  // the run's repetitions, in the order they ran
  double median = 0;           // of `values`
};

struct Series {
  SeriesKey key;
  results::MetricInfo info;
  std::vector<SeriesPoint> points;  // git ancestry order, oldest first
};

// Where a series' level changed: points [0, index) are before, [index, n) after
// (up to the next change point).
struct ChangePoint {
  size_t index = 0;             // the first point after the change (the first bad one)
  std::string last_good_commit;  // points[index - 1].commit
  std::string first_bad_commit;  // points[index].commit
  double before_median = 0;      // median of the point medians of the segment before
  double after_median = 0;       // ... and after
  double change = 0;             // after_median / before_median - 1 (+-inf if before is 0)
  // The t-test's p-value, multiplied by the number of positions the split
  // was chosen among (Bonferroni); none for an exact metric's change.
  std::optional<double> p;
  bool exact = false;            // found by the exact rule, at the exact commit
  bool regression = false;       // the change is in the worse direction of the metric
};

// A series with what was found in it.
struct AnalysedSeries {
  Series series;
  std::vector<ChangePoint> change_points;  // in index order
};

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_SERIES_H_
