// Which metrics gate a comparison, and how large a change must be to count
// as a regression: the --threshold flags of `benchprof compare`.
//
// A spec is `METRIC:VALUE[,METRIC:VALUE...]`, optionally prefixed by a
// regular expression and '=' to apply only to benchmarks whose name it
// matches (POSIX extended syntax, searched anywhere in the name, like
// --benchmark_filter):
//
//   time:5%                 time may grow by at most 5% (relative)
//   allocs/op:0,B/op:0      any increase is a regression (absolute, in the unit)
//   BM_Noisy.*=time:20%     a looser gate for some benchmarks
//   BM_Flaky=time:off       never gate this benchmark's time
//   bytes_per_second:10%    also gate a user counter
//
// "time" names each benchmark's time metric (cpu_time, or real_time for
// benchmarks that use real or manual time; ns/op in Go text); any other name
// is a metric as it appears in the results. VALUE is a number >= 0 with '%'
// (relative to the base), a bare number >= 0 (absolute, in the metric's
// unit; ns for times), or "off". The regex is everything before the last
// '=', so it may itself contain '='. Later specs override earlier ones for
// the benchmarks and metric they name; the defaults come first.
//
//   ThresholdPolicy policy = ThresholdPolicy::Defaults();
//   if (Status s = policy.Add("BM_Noisy.*=time:20%"); !s.ok()) ...
//   std::optional<Threshold> t = policy.Find("BM_NoisyOne", "cpu_time", true);
//
// Thread-safety: thread-compatible; const methods may be called concurrently.
#ifndef BENCHPROF_TOOLS_COMPARE_THRESHOLDS_H_
#define BENCHPROF_TOOLS_COMPARE_THRESHOLDS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "tools/compare/name_pattern.h"

namespace benchprof::compare {

// How far a metric may move in its worse direction before it regresses.
struct Threshold {
  bool relative = true;  // value is a fraction of the base (0.05 = 5%); else in the unit
  double value = 0;

  // "5%" or "0" (as a user would write it).
  std::string ToString() const;
};

class ThresholdPolicy {
 public:
  // No metric is gated.
  ThresholdPolicy() = default;

  // time:5%, allocs/op:0, B/op:0, instructions/op:1% for every benchmark.
  static ThresholdPolicy Defaults();

  // Parses one spec (see above) and adds it after the existing rules. On
  // failure the policy is unchanged and the message names the problem
  // ("BM_[=time:5%: invalid regular expression", "time:5x: ... not a number").
  Status Add(std::string_view spec);

  // The threshold for `metric` of the benchmark named `benchmark`, or nullopt
  // if the metric is not gated. `is_time_metric` says whether `metric` is the
  // benchmark's time metric, which rules for "time" apply to.
  std::optional<Threshold> Find(std::string_view benchmark, std::string_view metric,
                                bool is_time_metric) const;

  // The metrics the rules added with Add() name, each once, in order ("time"
  // for the time metric). A name that no compared metric has is a mistake
  // the comparison warns of: the rule changes nothing.
  std::vector<std::string> AddedMetrics() const;

 private:
  struct Rule {
    std::optional<NamePattern> pattern;  // nullopt: every benchmark
    std::string metric;
    std::optional<Threshold> threshold;  // nullopt: "off"
    bool added = false;                  // by Add(), not Defaults()
  };
  std::vector<Rule> rules_;
};

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_THRESHOLDS_H_
