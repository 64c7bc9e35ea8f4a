// How one row of a comparison is judged, by the rule comparison.h assigns
// it: the exact rule (rule 2), the statistical rule once the row's p is
// known (rules 3 and 4), and the inconclusive row of a gated metric that
// one side lacks. Each sets the row's outcome and, for a gated row whose
// outcome needs explaining, the one-sentence reason the reports show
// ("exact rule (constant on both sides): 2 → 3 allocs/op, +1 > threshold 0").
//
//   Row row = ...;                    // summaries, delta and threshold filled in
//   JudgeExact(row);                  // or, after Holm:
//   JudgeStatistical(row, 0.05, 12);
//
// Thread-safety: thread-safe (each acts on its row alone).
#ifndef BENCHPROF_TOOLS_COMPARE_ROW_JUDGMENT_H_
#define BENCHPROF_TOOLS_COMPARE_ROW_JUDGMENT_H_

#include <string>
#include <vector>

#include "tools/compare/comparison.h"

namespace benchprof::compare {

// Rule 2, for an exact metric constant on both sides: the values are
// compared directly. Sets rule, significant, p, outcome and reason.
void JudgeExact(Row& row, bool constant = true);

// Rules 3 and 4, for a statistical row whose p (Holm-adjusted if gated) is
// set: `alpha` is the significance level, `tests` the size of the Holm
// family (at least 1). Sets significant, outcome and reason.
void JudgeStatistical(Row& row, double alpha, int tests);

// A gated row whose metric only `side` ("base" or "head") has, with that
// side's `values`: inconclusive, with the side's summary at `confidence`.
void JudgeMissing(Row& row, const std::string& side, const std::vector<double>& values,
                  double confidence);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_ROW_JUDGMENT_H_
