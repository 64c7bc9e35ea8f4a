#include "tools/flamegraph/benchmark_split.h"

#include <utility>

namespace benchprof::flamegraph {

namespace {
constexpr std::string_view kBenchmarkLabel = "benchmark";
}  // namespace

bool IsBenchmarkSample(const encode::ProfileSample& sample, std::string_view name) {
  for (const encode::ProfileLabel& label : sample.labels) {
    if (label.key == kBenchmarkLabel && label.str == name) return true;
  }
  return false;
}

std::set<std::string> LabelledBenchmarks(const encode::ProfileData& profile) {
  std::set<std::string> names;
  for (const encode::ProfileSample& sample : profile.samples) {
    for (const encode::ProfileLabel& label : sample.labels) {
      if (label.key == kBenchmarkLabel && !label.str.empty()) names.insert(label.str);
    }
  }
  return names;
}

FlameTree BenchmarkTree(const encode::ProfileData& profile, size_t index,
                        std::string_view benchmark, const encode::ProfileData* base,
                        size_t base_index) {
  const auto keep = [benchmark](const encode::ProfileSample& sample) {
    return benchmark.empty() || IsBenchmarkSample(sample, benchmark);
  };
  FlameTreeBuilder builder(profile.sample_types[index]);
  builder.Add(profile, index, keep, false);
  if (base != nullptr) builder.Add(*base, base_index, keep, true);
  return std::move(builder).Finish();
}

}  // namespace benchprof::flamegraph
