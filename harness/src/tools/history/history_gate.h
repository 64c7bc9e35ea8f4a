// The gate against history: a run is judged against the baseline its base
// branch's history gives, not against one other run. The baseline of a
// series is the last runs of the base branch along the head's git ancestry
// (the pull request's fork point and before), since the series' last change
// point with 3 runs or more after it (an older level is not the baseline any
// more; a change at the newest run or two is not yet a level), their repetitions
// pooled. The compare engine judges head against it with its rules,
// thresholds and exit codes; then one more rule makes the gate robust on a
// noisy runner: a statistical regression's whole confidence interval must
// also be worse than the baseline's noise ceiling — its second-worst run's
// median (given 3 runs or more) — by more than the threshold. Pooled repetitions of many runs
// under-state the noise between runs, which is what a shared runner adds
// (a neighbour that slows every repetition of a run by 6% is no regression
// if the baseline has such runs too); a head that at least two baseline
// runs were about as bad as is not evidence of a regression. The second
// worst, not the worst, so that one slow baseline run does not blind the
// gate; beyond it by the threshold, as a run-level test of 20 runs alone
// would still flag one A/A run in 21; the whole interval, so that a head run
// whose own repetitions scatter (a neighbour busy for part of it) is not
// taken for a clear regression.
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

// The fewest baseline runs the noise ceiling is taken from, and the fewest
// runs after a change point for the baseline to start there.
inline constexpr size_t kMinRunsForCeiling = 3;
inline constexpr size_t kMinRunsAfterCut = 3;

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
