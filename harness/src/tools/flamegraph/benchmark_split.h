// One flame graph per benchmark: bench labels every sample with the
// benchmark's run name (string label "benchmark", the name Google
// Benchmark's JSON gives as "run_name"), so one profile of a whole run
// splits into each benchmark's tree, as `-tagfocus=benchmark=^NAME$` would.
//
//   std::set<std::string> names = LabelledBenchmarks(cpu);
//   FlameTree tree = BenchmarkTree(cpu, *ChooseSampleIndex(cpu, ""), "BM_Foo");
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_FLAMEGRAPH_BENCHMARK_SPLIT_H_
#define BENCHPROF_TOOLS_FLAMEGRAPH_BENCHMARK_SPLIT_H_

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

#include "encode/profile_data.h"
#include "tools/flamegraph/flame_tree.h"

namespace benchprof::flamegraph {

// Whether `sample` carries the label benchmark=`name` exactly.
bool IsBenchmarkSample(const encode::ProfileSample& sample, std::string_view name);

// The values of the "benchmark" labels of `profile`'s samples.
std::set<std::string> LabelledBenchmarks(const encode::ProfileData& profile);

// The tree of the samples of `benchmark` (all samples when it is empty), with
// values sample_types[index]; with `base`, the differential tree against
// the same benchmark's samples there (base_index chosen by the caller).
FlameTree BenchmarkTree(const encode::ProfileData& profile, size_t index,
                        std::string_view benchmark, const encode::ProfileData* base = nullptr,
                        size_t base_index = 0);

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_BENCHMARK_SPLIT_H_
