// CpuProfileBuilder: turns the CPU sampler's raw samples into a pprof profile
// with Go's CPU header, benchmark labels and embedded symbols.
//
// A pure function of its inputs (samples, what each segment was, a
// symbolizer), so it is tested without signals. Conventions (pprof and Go):
//   * sample_types [samples/count, cpu/nanoseconds], period 1e9/hz, values
//     [n, n * period] where n sums the samples' weights;
//   * one Location per distinct address: the leaf is the interrupted
//     instruction, callers are return address - 1 (so lines and inline
//     frames belong to the call, not the next statement);
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
#include <tuple>
#include <unordered_map>
#include <vector>

#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"
#include "encode/profile_data.h"

namespace benchprof {

// The benchmark run a sample belongs to.
struct RunLabel {
  std::string benchmark;  // full run name, e.g. "BM_Foo/8/threads:2"
  int threads = 1;

  auto operator<=>(const RunLabel&) const = default;
};

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
  ProfileData Build(int64_t start_unix_nanos, int64_t duration_nanos,
                            const LostSamples& lost, std::vector<std::string> comments = {});

 private:
  size_t LocationFor(uint64_t address);
  size_t PseudoLocation(const std::string& function_name);
  size_t FunctionFor(const SymbolizedFrame& frame);

  const int64_t period_;
  Symbolizer& symbolizer_;

  ProfileData profile_;
  std::unordered_map<uint64_t, size_t> location_by_address_;
  std::map<std::string, size_t> pseudo_locations_;
  std::map<std::tuple<std::string, std::string, std::string, int64_t>, size_t> function_by_key_;
  std::map<std::pair<std::vector<size_t>, RunLabel>, uint64_t> weight_by_stack_;
};

}  // namespace benchprof

#endif  // BENCHPROF_AGGREGATE_CPU_PROFILE_BUILDER_H_
