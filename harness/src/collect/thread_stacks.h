// Every thread's stack, for `bench --timeout`'s report of a hung run (as Go
// prints every goroutine when a test times out).
//
// A thread cannot be unwound from outside, so each one is sent a signal
// (kThreadStackSignal, a real-time signal) whose handler records its own
// stack, async-signal-safely, into a fixed slot; the caller waits a bounded
// time for the answers and symbolizes them afterwards, outside any handler.
// A thread that does not answer in time (it blocks the signal, or is stopped)
// or that was already unwinding (a profiler's sample) is listed without a
// stack.
//
//   std::vector<ThreadStack> stacks = CaptureThreadStacks(std::chrono::milliseconds(500));
//
// Thread-safety: one CaptureThreadStacks call at a time; the handler runs on
// any thread.
#ifndef BENCHPROF_COLLECT_THREAD_STACKS_H_
#define BENCHPROF_COLLECT_THREAD_STACKS_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace benchprof::collect {

// Deepest stack recorded per thread; deeper stacks keep their innermost
// frames.
inline constexpr int kMaxThreadStackFrames = 64;

struct ThreadStack {
  pid_t tid = 0;
  bool captured = false;
  // frames[0] is the interrupted instruction, the rest return addresses,
  // innermost first.
  std::vector<uintptr_t> frames;
};

// The stacks of every thread of the process but the calling one, in the
// order /proc lists them (the main thread first), waiting at most `wait`
// for them to answer.
std::vector<ThreadStack> CaptureThreadStacks(std::chrono::milliseconds wait);

// The signal CaptureThreadStacks sends (SIGRTMIN + 5).
int ThreadStackSignal();

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_THREAD_STACKS_H_
