// CpuProfileBuilder: turns the CPU sampler's raw samples into a pprof profile
// with Go's CPU header, benchmark labels and embedded symbols.
//
// A pure function of its inputs (samples, what each segment was, a
// symbolizer), so it is tested without signals. Conventions (pprof and Go):
//   * sample_types [samples/count, cpu/nanoseconds], period 1e9/hz, values
//     [n, n * period] where n sums the samples' weights;
//   * stacks as in stack_table.h, the leaf being the interrupted
//     instruction;
//   * identical (stack, labels) are merged;
//   * string label `benchmark` (the run's full name) and numeric label
//     `threads` on every sample of a benchmark run;
//   * lost samples stay visible as samples of pseudo-functions named
//     "[benchprof] ...".
//
//   Symbolizer symbolizer(LoadedModules());
//   CpuProfileBuilder builder(100, symbolizer);
//   builder.AddSample(sample, label);
//   ProfileData profile = builder.Build(start_ns, duration_ns, stats);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_AGGREGATE_CPU_PROFILE_BUILDER_H_
#define BENCHPROF_AGGREGATE_CPU_PROFILE_BUILDER_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "aggregate/run_labels.h"
#include "aggregate/stack_table.h"
#include "aggregate/symbolizer.h"
#include "encode/profile_data.h"

namespace benchprof::aggregate {

// Samples that could not be recorded, by reason, in sample counts.
struct LostSamples {
  uint64_t buffer_full = 0;
  uint64_t reentrant = 0;
};

class CpuProfileBuilder {
 public:
  // Mappings are the symbolizer's modules. `symbolizer` must outlive the
  // builder and be used by nothing else meanwhile (its per-module quality
  // decides the mappings' has_* flags).
  CpuProfileBuilder(int hz, Symbolizer& symbolizer);

  // Adds `weight` samples of `stack` (stack[0] the interrupted instruction,
  // then return addresses). `truncated`: the unwinder failed and the stack
  // is the leaf alone.
  void AddSample(std::span<const uintptr_t> stack, uint64_t weight, const RunLabel& label,
                 bool truncated = false);

  // The profile. `comments` are added after the builder's own.
  encode::ProfileData Build(int64_t start_unix_nanos, int64_t duration_nanos,
                            const LostSamples& lost, std::vector<std::string> comments = {});

 private:
  const int64_t period_;
  StackTable stacks_;
  std::map<std::pair<std::vector<size_t>, RunLabel>, uint64_t> weight_by_stack_;
};

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_CPU_PROFILE_BUILDER_H_
