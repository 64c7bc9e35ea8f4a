// ContentionProfileBuilder: turns the contention sampler's events into Go's
// block or mutex profile (what `go test -blockprofile` / `-mutexprofile`
// write), with benchmark labels and embedded symbols.
//
// A pure function of its inputs, tested without locks. Conventions (Go's
// runtime/pprof, printCountCycleProfile):
//   * sample_types [contentions/count, delay/nanoseconds], period_type
//     contentions/count, period 1; pprof shows the last type, delay, by
//     default;
//   * values already scaled by the sampler (Go's rate and fraction
//     scaling); contentions are rounded to whole events;
//   * every frame is a return address (looked up one byte back);
//   * one sample per (stack, what was waited for, run): string label
//     `wait` ("mutex", "condition variable", ...), plus `benchmark` and
//     `threads`;
//   * events lost because the sampler's table was full, and (mutex profile)
//     waits that no unlock could be charged for, appear under
//     "[benchprof] lost ..." pseudo-functions.
//
//   ContentionProfileBuilder builder(symbolizer);
//   builder.AddEvent(stack, "mutex", 3.0, 12000, label);
//   ProfileData profile = builder.Build(start_ns, duration_ns, {});
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_AGGREGATE_CONTENTION_PROFILE_BUILDER_H_
#define BENCHPROF_AGGREGATE_CONTENTION_PROFILE_BUILDER_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "aggregate/run_labels.h"
#include "aggregate/stack_table.h"
#include "aggregate/symbolizer.h"
#include "encode/profile_data.h"

namespace benchprof::aggregate {

// Events that could not be recorded or attributed.
struct LostContentions {
  uint64_t table_full = 0;    // events
  uint64_t unattributed = 0;  // waits no unlock was charged for (mutex profile)
};

class ContentionProfileBuilder {
 public:
  // `symbolizer`: as for StackTable.
  explicit ContentionProfileBuilder(Symbolizer& symbolizer) : stacks_(symbolizer) {}

  // Adds `contentions` events, `delay_ns` in all, at `stack` (return
  // addresses, innermost first), waiting for `wait`, in the run `label`.
  void AddEvent(std::span<const uintptr_t> stack, const std::string& wait, double contentions,
                int64_t delay_ns, const RunLabel& label);

  // The profile. `comments` come first.
  encode::ProfileData Build(int64_t start_unix_nanos, int64_t duration_nanos,
                            const LostContentions& lost, std::vector<std::string> comments = {});

 private:
  struct Totals {
    double contentions = 0;
    int64_t delay_ns = 0;
  };

  StackTable stacks_;
  std::map<std::tuple<std::vector<size_t>, std::string, RunLabel>, Totals> totals_by_key_;
};

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_CONTENTION_PROFILE_BUILDER_H_
