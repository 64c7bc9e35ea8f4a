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

// A timed runner stays counted in the gate: the other threads' scope does
// not change while one runner sets up a collector.
OutsideTimedScope::OutsideTimedScope() : saved_role_(static_cast<uint8_t>(internal::t_role)) {
  internal::t_role = ThreadRole::kExcluded;
}

OutsideTimedScope::~OutsideTimedScope() { internal::t_role = static_cast<ThreadRole>(saved_role_); }

void SetProfileSegment(uint32_t segment) {
  internal::g_profile_segment.store(segment, std::memory_order_relaxed);
}

}  // namespace benchprof::collect
