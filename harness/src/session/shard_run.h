// What one shard of a sharded run (`bench --shard=I/N`, cli/shard.h) runs:
// the instances the filter selects are listed through the library itself
// (its --benchmark_list_tests, into a string), so the split follows the
// instances exactly as the linked Google Benchmark version expands families
// and arguments; the shard's names then become the filter of the one real
// run, a regular expression that matches exactly them. The filter is the
// only way to choose instances before a run that 1.7.1 through 1.9.x share.
//
//   StatusOr<ShardPlan> plan = PlanShard(shard);
//   if (plan->empty()) ...  // say so, write a result file with no benchmarks
//   benchmark::SetBenchmarkFilter(plan->filter);
//
// Thread-safety: call on the main thread, after benchmark::Initialize() and
// before the run (it calls RunSpecifiedBenchmarks in list mode).
#ifndef BENCHPROF_SESSION_SHARD_RUN_H_
#define BENCHPROF_SESSION_SHARD_RUN_H_

#include <cstddef>
#include <string>
#include <vector>

#include "cli/shard.h"
#include "common/status.h"

namespace benchprof::session {

struct ShardPlan {
  size_t selected = 0;             // distinct instances the filter selects, in all shards
  std::vector<std::string> names;  // those of this shard, in registration order
  std::string filter;              // matches exactly `names`; "" when there are none

  // True when the filter selects benchmarks but none falls in this shard.
  bool empty() const { return selected > 0 && names.empty(); }
};

// Lists the instances --benchmark_filter selects and picks the shard's.
// Leaves the library's flags as they were. Fails when a benchmark's name
// cannot be selected by a filter (it holds a line break) or when the
// shard's filter is more than the library's regular expressions can hold
// (the message says to use more shards).
StatusOr<ShardPlan> PlanShard(const cli::Shard& shard);

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_SHARD_RUN_H_
