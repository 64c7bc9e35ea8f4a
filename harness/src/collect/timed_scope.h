// Timed scope: which threads are inside a benchmark's measured time, the one
// rule every collector (allocation counter, CPU sampler) applies.
//
// HOT PATH and ASYNC-SIGNAL-SAFE: InTimedScope() runs inside malloc and in
// the SIGPROF handler. It reads one thread-local byte and, for threads that
// are not benchmark threads, one shared atomic that is written only when a
// benchmark loop starts, pauses, resumes or finishes.
//
// The rule (Go's -benchmem and -cpuprofile semantics, extended to threads):
//   * A benchmark thread ("runner": a thread running a `for (auto _ : state)`
//     loop) is in scope while its loop runs and is not paused.
//   * Any other thread (a benchmark's own worker pool, a library's background
//     thread) is in scope while at least one runner is in its unpaused loop.
//
// Thread-safety: every function is thread-safe; the Enter/Leave functions
// act on the calling thread.
#ifndef BENCHPROF_COLLECT_TIMED_SCOPE_H_
#define BENCHPROF_COLLECT_TIMED_SCOPE_H_

#include <atomic>
#include <cstdint>

namespace benchprof::collect {

// Marks the calling thread as a benchmark runner, currently not timing.
void BecomeRunner();

// The calling runner's loop starts or resumes. No-op if already timing.
void EnterTimedRegion();

// The calling runner's loop pauses or finishes. No-op if it was not timing.
void LeaveTimedRegion();

// True while the calling thread is a runner inside its unpaused loop.
bool InTimedRegion();

// For its lifetime, takes the calling thread out of the measured scope,
// whatever its role: its allocations are not counted or sampled, its CPU
// time and waits not recorded. For a collector's own set-up on a thread
// (the unwinder allocates its thread-local state at a thread's first stack
// walk: stack_capture.h), which is not the program's work. Not for signal
// handlers, and not across a loop start, pause, resume or finish.
class OutsideTimedScope {
 public:
  OutsideTimedScope();
  ~OutsideTimedScope();
  OutsideTimedScope(const OutsideTimedScope&) = delete;
  OutsideTimedScope& operator=(const OutsideTimedScope&) = delete;

 private:
  uint8_t saved_role_;
};

// Labels what the profilers record from now on, on every thread, with the
// profile segment of the run being timed (session/run_labels.h says how a
// segment becomes a benchmark name). Async-signal-safe.
void SetProfileSegment(uint32_t segment);

namespace internal {

enum class ThreadRole : uint8_t {
  kOther = 0,  // not a runner: in scope while any runner times
  kRunnerTimed,
  kRunnerPaused,
  kExcluded,  // inside an OutsideTimedScope: never in scope
};

// __thread, not thread_local: a plain TLS variable needs no init wrapper, so
// reading it inside malloc or a signal handler is a single %fs-relative load.
extern __thread ThreadRole t_role __attribute__((tls_model("initial-exec")));

// Number of runners in their unpaused loop, alone on its cache line.
struct alignas(64) RunnerGate {
  std::atomic<int> timed_runners{0};
};
extern RunnerGate g_runner_gate;

extern std::atomic<uint32_t> g_profile_segment;

}  // namespace internal

// Whether the calling thread is in the measured scope now. Async-signal-safe.
inline bool InTimedScope() {
  const internal::ThreadRole role = internal::t_role;
  return role == internal::ThreadRole::kOther
             ? internal::g_runner_gate.timed_runners.load(std::memory_order_relaxed) > 0
             : role == internal::ThreadRole::kRunnerTimed;
}

// The segment set by the last SetProfileSegment(). Async-signal-safe.
inline uint32_t CurrentProfileSegment() {
  return internal::g_profile_segment.load(std::memory_order_relaxed);
}

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_TIMED_SCOPE_H_
