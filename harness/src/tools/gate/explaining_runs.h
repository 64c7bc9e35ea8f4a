// The extra runs that explain a regression: for one regressed benchmark,
// each side profiled the way the metric that regressed calls for, then
// explained with explanation.h.
//
//   allocs/op, B/op   one run per side with --memprofile at rate 1, the
//                     smallest iteration count the benchmark allows
//                     (every allocation recorded);
//   time              CPU profiles at 250 Hz, the head run longer by its
//                     slowdown so both sides do about the same work, and
//                     longer again (up to a limit) until the change stands
//                     out of sampling noise or the limit is reached;
//   instructions/op   the callgrind files of the gate's own run (no extra
//                     run).
//
//   ExplainingRuns runs(runner, base, head, max_profile_ns, progress);
//   std::vector<Explanation> e = runs.Allocations("BM_Foo", {"allocs/op"});
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_GATE_EXPLAINING_RUNS_H_
#define BENCHPROF_TOOLS_GATE_EXPLAINING_RUNS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "encode/profile_data.h"
#include "tools/gate/explanation.h"
#include "tools/gate/side_runner.h"

namespace benchprof::gate {

// The profiles behind the explanations, for the HTML page's flame graphs.
struct ExplainingProfile {
  std::string benchmark;
  std::string base_path, head_path;
  encode::ProfileData base, head;
};

class ExplainingRuns {
 public:
  // `progress` receives one line per run started ("profiling BM_Foo's
  // heap: base").
  ExplainingRuns(const SideRunner& runner, Side base, Side head, int64_t max_profile_ns,
                 std::function<void(const std::string&)> progress);

  // allocs/op and/or B/op of `benchmark` (`metrics` holds the ones that
  // regressed), from heap profiles of both sides.
  std::vector<Explanation> Allocations(const std::string& benchmark,
                                       const std::vector<std::string>& metrics);

  // The time of `benchmark`, whose head median is `slowdown` times the
  // base's.
  Explanation Time(const std::string& benchmark, double slowdown);

  // instructions/op of `benchmark` from the callgrind directories of the
  // gate's run under --instructions.
  Explanation Instructions(const std::string& benchmark, const std::string& base_callgrind_dir,
                           const std::string& head_callgrind_dir);

  const std::vector<ExplainingProfile>& heap_profiles() const { return heap_profiles_; }
  const std::vector<ExplainingProfile>& cpu_profiles() const { return cpu_profiles_; }

 private:
  // Profiles `benchmark` on both sides with `flags` (the profile flag's
  // value is each side's path), reading back the profiles and each run's
  // iterations; on failure, an Explanation that says why.
  struct ProfiledPair {
    ExplainingProfile profiles;
    uint64_t base_iterations = 0, head_iterations = 0;
  };
  StatusOr<ProfiledPair> ProfileBoth(const std::string& benchmark, const std::string& kind,
                                     const std::string& profile_flag,
                                     const std::vector<std::string>& base_flags,
                                     const std::vector<std::string>& head_flags);

  const SideRunner& runner_;
  Side base_, head_;
  int64_t max_profile_ns_;
  std::function<void(const std::string&)> progress_;
  int runs_ = 0;  // for unique file names
  std::vector<ExplainingProfile> heap_profiles_, cpu_profiles_;
};

// The callgrind file bench --callgrind_out writes for the reported run
// named `benchmark` in `dir` (its '/' become '.').
std::string CallgrindFileOf(const std::string& dir, const std::string& benchmark);

}  // namespace benchprof::gate

#endif  // BENCHPROF_TOOLS_GATE_EXPLAINING_RUNS_H_
