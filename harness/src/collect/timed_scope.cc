// ASYNC-SIGNAL-SAFE data: read by the SIGPROF handler and inside malloc.
#include "collect/timed_scope.h"

namespace benchprof::collect {
namespace internal {

__thread ThreadRole t_role __attribute__((tls_model("initial-exec"))) = ThreadRole::kOther;

constinit RunnerGate g_runner_gate;

constinit std::atomic<uint32_t> g_profile_segment{0};

}  // namespace internal

using internal::ThreadRole;

void BecomeRunner() {
  LeaveTimedRegion();
  internal::t_role = ThreadRole::kRunnerPaused;
}

void EnterTimedRegion() {
  if (internal::t_role == ThreadRole::kRunnerTimed) return;
  internal::t_role = ThreadRole::kRunnerTimed;
  internal::g_runner_gate.timed_runners.fetch_add(1, std::memory_order_relaxed);
}

void LeaveTimedRegion() {
  if (internal::t_role != ThreadRole::kRunnerTimed) return;
  internal::t_role = ThreadRole::kRunnerPaused;
  internal::g_runner_gate.timed_runners.fetch_sub(1, std::memory_order_relaxed);
}

bool InTimedRegion() { return internal::t_role == ThreadRole::kRunnerTimed; }

void SetProfileSegment(uint32_t segment) {
  internal::g_profile_segment.store(segment, std::memory_order_relaxed);
}

}  // namespace benchprof::collect
