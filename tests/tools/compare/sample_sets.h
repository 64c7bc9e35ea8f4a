// Builds ResultSets in code for tests of the comparison, as the reader
// would from Google Benchmark JSON: cpu_time and real_time are times,
// allocs/op and B/op exact, names ending in _per_second higher-is-better.
#ifndef BENCHPROF_TESTS_TOOLS_COMPARE_SAMPLE_SETS_H_
#define BENCHPROF_TESTS_TOOLS_COMPARE_SAMPLE_SETS_H_

#include <string>
#include <utility>
#include <vector>

#include "tools/results/gbench_json.h"
#include "tools/results/result_reader.h"

namespace benchprof::compare::testing {

using results::BenchmarkSamples;
using results::InputFormat;
using results::MetricInfo;
using results::MetricKind;
using results::ResultSet;
using results::UsesRealTime;

inline MetricInfo InfoFor(const std::string& metric) {
  if (metric == "cpu_time" || metric == "real_time") return {"ns/op", MetricKind::kTime, false};
  if (metric == "allocs/op" || metric == "B/op") return {metric, MetricKind::kExact, false};
  const bool higher = metric.size() > 11 && metric.ends_with("_per_second");
  return {metric, MetricKind::kCounter, higher};
}

// Adds `values` of `metric` to benchmark `name` (created on first use, with
// real_time as its time metric if the name says so).
inline void AddSamples(ResultSet& set, const std::string& name, const std::string& metric,
                       const std::vector<double>& values) {
  auto [it, inserted] = set.index.try_emplace(name, set.benchmarks.size());
  if (inserted) {
    set.benchmarks.push_back(
        BenchmarkSamples{name, UsesRealTime(name) ? "real_time" : "cpu_time", {}});
  }
  BenchmarkSamples& b = set.benchmarks[it->second];
  for (auto& [m, v] : b.metrics) {
    if (m == metric) {
      v.insert(v.end(), values.begin(), values.end());
      return;
    }
  }
  b.metrics.emplace_back(metric, values);
  set.metrics.try_emplace(metric, InfoFor(metric));
  if (set.format == InputFormat::kUnknown) set.format = InputFormat::kGoogleBenchmarkJson;
}

// `n` values around `center` with relative spread `spread`, spread evenly
// and deterministically (no two equal unless spread is 0).
inline std::vector<double> Around(double center, int n, double spread = 0.02) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) {
    const double t = n == 1 ? 0 : static_cast<double>(i) / (n - 1) * 2 - 1;  // -1 .. 1
    v.push_back(center * (1 + spread * t));
  }
  return v;
}

}  // namespace benchprof::compare::testing

#endif  // BENCHPROF_TESTS_TOOLS_COMPARE_SAMPLE_SETS_H_
