// Why a benchmark regressed: the places where the regressed metric grew,
// each with its share of the growth, from profiles of the base and the head
// that benchprof itself reads.
//
//   allocs/op, B/op   heap profiles at rate 1 (every allocation): the
//                     allocation sites, each the first frame outside the
//                     allocator and the standard library (the line of the
//                     program's code that allocates), per iteration;
//   instructions/op   callgrind files: each function's own instructions per
//                     iteration;
//   time              CPU profiles: each function's own samples per
//                     iteration, kept only where the change stands out of
//                     sampling noise (Poisson counts, z >= 3), so a function
//                     that did not change is never presented as a cause.
//
// Each explanation is a pure function of the data, so it can be tested
// without running anything.
//
//   Explanation e = ExplainAllocations(base_heap, head_heap, "BM_Foo", 1, 1,
//                                      AllocationMetric::kObjects);
//   out += RenderExplanationText(e);
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_GATE_EXPLANATION_H_
#define BENCHPROF_TOOLS_GATE_EXPLANATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "encode/profile_data.h"
#include "tools/gate/callgrind_functions.h"

namespace benchprof::gate {

// One place where the metric changed.
struct Cause {
  std::string function;  // e.g. "benchprof::stream::MakeLabel"
  std::string file;      // its source file, "" if unknown
  int64_t line = 0;      // the line that allocates, or the costliest line; 0 if unknown
  double base = 0;       // the metric's amount here per iteration, base
  double head = 0;       // and head
  double share = 0;      // (head - base) / the benchmark's total change per iteration
};

struct Explanation {
  std::string benchmark;
  std::string metric;  // "allocs/op", "B/op", "instructions/op", "time"
  std::string unit;    // what the amounts count: "allocations", "bytes", "instructions", "ns"
  std::string source;  // how it was measured, for the reader
  double base_total = 0, head_total = 0;  // per iteration, over the whole profile of the benchmark
  std::vector<Cause> causes;              // largest growth first
  // Set when no cause can be named honestly: why (e.g. "not enough samples
  // to explain: ..."). `causes` is then empty.
  std::string unexplained;
};

// The most causes an explanation lists, and the smallest share it lists:
// what is left is summed in one line.
inline constexpr size_t kMaxCauses = 10;
inline constexpr double kMinShare = 0.01;

enum class AllocationMetric { kObjects, kBytes };  // allocs/op, B/op

// allocs/op or B/op of `benchmark` (the profiles' `benchmark` label), from
// heap profiles recorded with --memprofilerate=1, over `base_iterations`
// and `head_iterations` iterations of the timed loop.
Explanation ExplainAllocations(const encode::ProfileData& base, const encode::ProfileData& head,
                               const std::string& benchmark, uint64_t base_iterations,
                               uint64_t head_iterations, AllocationMetric metric);

// instructions/op of `benchmark`, from one callgrind file per side (their
// iteration counts are in the files).
Explanation ExplainInstructions(const CallgrindProfile& base, const CallgrindProfile& head,
                                const std::string& benchmark);

// The time of `benchmark`, from CPU profiles over the given iterations.
Explanation ExplainTime(const encode::ProfileData& base, const encode::ProfileData& head,
                        const std::string& benchmark, uint64_t base_iterations,
                        uint64_t head_iterations);

// Whether a frame belongs to the allocator or the standard library rather
// than to the program: operator new and delete, the C allocation functions,
// std:: and __gnu_cxx:: code, and anything in the C or C++ runtime library.
bool IsAllocationMachinery(const std::string& function, const std::string& mapping_file);

// The explanation as text lines (no trailing newline on the last), or as
// Markdown for a pull-request comment. Names are made safe for both.
std::string RenderExplanationText(const Explanation& explanation);
std::string RenderExplanationMarkdown(const Explanation& explanation);

}  // namespace benchprof::gate

#endif  // BENCHPROF_TOOLS_GATE_EXPLANATION_H_
