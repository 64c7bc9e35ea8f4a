// HeapProfileBuilder: turns the heap sampler's buckets into Go's allocs
// profile (what `go test -memprofile` writes), with benchmark labels and
// embedded symbols.
//
// A pure function of its inputs, tested without an allocator. Conventions
// (Go's runtime/pprof, protomem.go):
//   * sample_types [alloc_objects/count, alloc_space/bytes,
//     inuse_objects/count, inuse_space/bytes], period_type space/bytes,
//     period = the sampling rate, default_sample_type alloc_space;
//   * values stored unsampled: each (count, bytes) pair is multiplied by
//     1 / (1 - exp(-size / rate)), the inverse of the chance that an object
//     of that size is sampled, and truncated; at rate 1 values are exact;
//   * every frame is a return address (looked up one byte back);
//   * one sample per (stack, object size, run), numeric label `bytes` = the
//     object size (unit bytes), plus `benchmark` and `threads`;
//   * samples lost because the sampler's table was full appear under the
//     pseudo-function "[benchprof] lost samples: heap sample table full".
//
//   HeapProfileBuilder builder(512 * 1024, symbolizer);
//   builder.AddBucket(stack, 64, /*allocs=*/3, /*frees=*/1, label);
//   ProfileData profile = builder.Build(start_ns, duration_ns, {});
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_AGGREGATE_HEAP_PROFILE_BUILDER_H_
#define BENCHPROF_AGGREGATE_HEAP_PROFILE_BUILDER_H_

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

// Sampled allocations that could not be recorded.
struct LostHeapSamples {
  uint64_t objects = 0;
  uint64_t bytes = 0;
};

// An unsampled (count, bytes) estimate.
struct HeapEstimate {
  int64_t objects = 0;
  int64_t bytes = 0;
};

// Go's scaleHeapSample: the estimate of what `objects` sampled objects
// totalling `bytes` stand for at sampling rate `rate`.
HeapEstimate UnsampleHeap(uint64_t objects, uint64_t bytes, int64_t rate);

class HeapProfileBuilder {
 public:
  // `symbolizer`: as for StackTable.
  HeapProfileBuilder(int64_t rate, Symbolizer& symbolizer);

  // Adds `allocs` sampled objects of `size` bytes allocated at `stack`
  // (return addresses, innermost first) in the run `label`, of which
  // `frees` were freed.
  void AddBucket(std::span<const uintptr_t> stack, uint64_t size, uint64_t allocs, uint64_t frees,
                 const RunLabel& label);

  // The profile. `comments` are added after the builder's own.
  encode::ProfileData Build(int64_t start_unix_nanos, int64_t duration_nanos,
                            const LostHeapSamples& lost, std::vector<std::string> comments = {});

 private:
  struct Counts {
    uint64_t allocs = 0;
    uint64_t frees = 0;
  };

  const int64_t rate_;
  StackTable stacks_;
  std::map<std::tuple<std::vector<size_t>, uint64_t, RunLabel>, Counts> counts_by_key_;
};

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_HEAP_PROFILE_BUILDER_H_
