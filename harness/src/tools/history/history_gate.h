// The gate against history: a run is judged against the baseline its base
// branch's history gives, not against one other run. The baseline of a
// series is the last runs of the base branch along the head's git ancestry
// (the pull request's fork point and before), since the series' last change
// point (an older level is not the baseline any more), their repetitions
// pooled. The compare engine judges head against it with its rules,
// thresholds and exit codes; then one more rule makes the gate robust on a
// noisy runner: a statistical regression must also lie outside the spread
// of the baseline runs' own medians — more than 3 robust standard
// deviations (1.4826 x their median absolute deviation) from their median,
// when the baseline has at least 3 runs. Pooled repetitions of many runs
// under-state the noise between runs, which is what a shared runner adds;
// a head inside the range the baseline's own runs vary over is not evidence
// of a regression. The median and MAD, not the extremes, so that one slow
// baseline run does not blind the gate.
// Exact metrics (allocs/op, B/op, instructions/op) keep the exact rule.
//
//   HistoryBaseline baseline = SelectBaseline(series, head_chain, options);
//   Comparison c = JudgeAgainstHistory(baseline, head, compare_options);
//
// Thread-safety: thread-safe (pure functions of their arguments).
#ifndef BENCHPROF_TOOLS_HISTORY_HISTORY_GATE_H_
#define BENCHPROF_TOOLS_HISTORY_HISTORY_GATE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tools/compare/comparison.h"
#include "tools/history/change_points.h"
#include "tools/history/series.h"
#include "tools/results/result_reader.h"

namespace benchprof::history {

// How far, in robust standard deviations of the baseline runs' medians, a
// statistical regression's head must be from their median; and the fewest
// runs the spread is taken from.
inline constexpr double kSpreadDeviations = 3;
inline constexpr size_t kMinRunsForSpread = 3;

struct BaselineOptions {
  // The most runs a series' baseline pools (the newest ones).
  size_t max_runs = 20;
  // How the baseline's change points are found (the baseline starts after
  // the last one).
  DetectOptions detect;
  // A run never in its own baseline: the head, when it was recorded already.
  int64_t exclude_run_id = -1;
};

// The baseline of each series, pooled as one side of a comparison.
struct HistoryBaseline {
  results::ResultSet samples;  // benchmark -> metric -> every baseline run's repetitions
  // (benchmark, metric) -> the median of each baseline run, oldest first.
  std::map<std::pair<std::string, std::string>, std::vector<double>> run_medians;
  // (benchmark, metric) -> the series' last change point before the
  // baseline, where it cut the baseline short.
  std::map<std::pair<std::string, std::string>, ChangePoint> cut_at;
  std::vector<std::string> commits;  // the baseline runs' commits, in ancestry order, once each
  size_t runs = 0;                   // distinct runs in the baseline
};

// Selects the baseline from `series` (the base branch's, on the head's
// testbed) along `head_chain`: the head's commit and its first-parent
// ancestors, newest first. Only points whose commit is on the chain count.
// `head` gives each benchmark's time metric. A series with no point on the
// chain contributes nothing (the comparison lists its benchmark as only in
// the head).
HistoryBaseline SelectBaseline(const std::vector<Series>& series,
                               const std::vector<std::string>& head_chain,
                               const results::ResultSet& head, const BaselineOptions& options);

// Judges `head` against `baseline` (see the file comment). `baseline_name`
// names the base side in the outputs ("main: 20 runs, 1a2b3c4..5d6e7f8").
compare::Comparison JudgeAgainstHistory(const HistoryBaseline& baseline,
                                        const std::string& baseline_name,
                                        const results::ResultSet& head,
                                        const compare::CompareOptions& options);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_HISTORY_GATE_H_
