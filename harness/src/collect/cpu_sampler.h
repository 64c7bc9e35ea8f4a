// CPU sampler: the collector behind --cpuprofile.
//
// Every sampled thread owns a timer on its own CPU clock (timer_create with
// SIGEV_THREAD_ID, first expiry uniform in (0, period], as Go does), so busy
// threads are sampled in proportion to the CPU they use, however many there
// are. The SIGPROF handler keeps only samples taken in the timed scope
// (timed_scope.h), unwinds the interrupted stack with libunwind, and appends
// it with the current segment (the benchmark run it belongs to) and a weight
// of 1 + the timer's overrun (the kernel delivers at most one signal per
// tick, so missed expirations are carried as weight and CPU totals stay
// exact) to one preallocated buffer. Nothing is aggregated or symbolized
// until sampling stops.
//
// Threads: the thread that starts the sampler is armed at once, and so is
// every other thread already running (listed from /proc/self/task, each
// timer on that thread's CPU clock, signalling it); threads started later
// arm themselves when they begin, through kCpuSamplerThreadListener
// (thread_hooks.h wraps pthread_create).
//
// A signal that arrives while the thread is itself capturing a stack (the
// heap sampler inside malloc) records the interrupted stack like any other:
// the capturing code and the unwinder on top of the allocation's stack.
//
// Samples are never silently lost: a full buffer, a signal that finds the
// handler's own walk under way on its thread, or an unwind that cannot find
// the interrupted frame is counted in CpuSamplerStats, for the profile to
// show.
//
//   collect::StartCpuSampler(100);
//   collect::SetProfileSegment(1);  // timed_scope.h
//   ... benchmark runs ...
//   collect::StopCpuSampler();
//   collect::ForEachCpuSample([](const collect::CpuSample& s) { ... });
//
// Thread-safety: Start/Stop/ForEach from one thread (the session's);
// the thread registration functions are thread-safe.
#ifndef BENCHPROF_COLLECT_CPU_SAMPLER_H_
#define BENCHPROF_COLLECT_CPU_SAMPLER_H_

#include <cstdint>
#include <functional>
#include <span>

#include "collect/thread_hooks.h"
#include "common/status.h"

namespace benchprof::collect {

// ThreadSanitizer delays signals until the thread reaches one of its own
// interception points, so a sample would not show the interrupted code: TSan
// builds have no CPU profiler.
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kCpuSamplerSupported = false;
#else
inline constexpr bool kCpuSamplerSupported = true;
#endif

// Deepest stack recorded; deeper stacks keep their innermost frames.
inline constexpr int kMaxSampledFrames = 128;

// Installs the SIGPROF handler, maps the sample buffer and arms the timers of
// the calling thread and of every other running thread at `hz` samples per
// CPU-second. Fails if the sampler runs
// already, `hz` is not in [1, 10000], the build cannot sample
// (!kCpuSamplerSupported), or the system refuses a resource.
Status StartCpuSampler(int hz);

// Stops sampling: no sample is taken after it returns, every timer is
// deleted, and the buffer stays readable until the next start. No-op if the
// sampler is not running.
void StopCpuSampler();

// True between StartCpuSampler() and StopCpuSampler().
bool CpuSamplerRunning();

// Arms a timer for the calling thread if the sampler runs (after warming up
// the unwinder on this thread, which is not safe to do inside the handler),
// replacing one StartCpuSampler armed for its tid: the same thread, caught
// as it started, or an ended one whose tid it now has. Called for every new
// thread through kCpuSamplerThreadListener. Takes a mutex.
void RegisterCurrentThread();

// Deletes the calling thread's own timer, if it has one. Called when a
// thread started through pthread_create returns.
void UnregisterCurrentThread();

// The thread hooks (thread_hooks.h) that arm and disarm threads started
// while the sampler runs. Register them before StartCpuSampler().
extern const ThreadListener kCpuSamplerThreadListener;

// One recorded sample.
struct CpuSample {
  uint32_t segment;
  uint32_t weight;  // 1 + timer overrun
  // stack[0] is the interrupted instruction; the rest are return addresses,
  // innermost first.
  std::span<const uintptr_t> stack;
};

// Calls `visit` for every sample recorded by the last run of the sampler.
// REQUIRES: the sampler is stopped.
void ForEachCpuSample(const std::function<void(const CpuSample&)>& visit);

// What the last run of the sampler saw, in samples (weights included).
struct CpuSamplerStats {
  uint64_t recorded = 0;
  uint64_t dropped_buffer_full = 0;
  uint64_t dropped_reentrant = 0;  // the handler's own walk was under way on the thread
  uint64_t truncated = 0;          // recorded as the leaf alone: unwinding failed
  // Signals that took a sample, and the time spent from handler entry until
  // each record was stored (not counting the kernel's delivery).
  uint64_t signals_handled = 0;
  uint64_t handler_nanos = 0;
};
CpuSamplerStats GetCpuSamplerStats();

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_CPU_SAMPLER_H_
