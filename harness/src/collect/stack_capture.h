// Stack capture shared by the CPU sampler (in its SIGPROF handler) and the
// heap sampler (inside malloc): libunwind's unw_backtrace behind one
// per-thread re-entrancy guard.
//
// ASYNC-SIGNAL-SAFE once the thread is warmed up: the first unw_backtrace on
// a thread sets up libunwind's per-thread cache (pthread_once, mmap), which
// must not happen inside a signal handler. A SIGPROF that lands while the
// same thread is capturing for the heap sampler, or an allocation made by
// the unwinder itself, finds the guard set and gets no stack.
//
// Thread-safety: every function acts on the calling thread only.
#ifndef BENCHPROF_COLLECT_STACK_CAPTURE_H_
#define BENCHPROF_COLLECT_STACK_CAPTURE_H_

#include <cstdint>

namespace benchprof::collect {

// Fills `frames` with up to `max_frames` code addresses of the calling
// thread's stack, innermost first. The first entries belong to the capturing
// code itself (how many depends on inlining), so callers trim them: the CPU
// sampler up to the interrupted PC, the heap sampler up to the first address
// outside the allocator. Returns the number stored (0 if the unwinder found
// nothing), or kAlreadyCapturing if the thread is already capturing.
// Async-signal-safe after WarmUpStackCapture() ran on this thread.
inline constexpr int kAlreadyCapturing = -1;
int CaptureStack(uintptr_t* frames, int max_frames);

// Runs one capture outside any handler so later ones are signal-safe.
void WarmUpStackCapture();

// True while the calling thread is inside CaptureStack. Async-signal-safe.
bool CapturingStack();

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_STACK_CAPTURE_H_
