// Stack capture shared by the CPU sampler (in its SIGPROF handler) and the
// heap sampler (inside malloc): libunwind's unw_backtrace behind one
// per-thread re-entrancy guard.
//
// The first unw_backtrace on a thread sets up libunwind's per-thread cache
// (pthread_once, pthread_setspecific, mmap), which must not happen inside a
// signal handler. So the signal handler's variant walks a thread that was
// never set up (one that was running before the profiler started) frame by
// frame with unw_step from the interrupted frame, which is async-signal-safe
// and needs no per-thread state, only slower.
//
// A SIGPROF that lands while the same thread is capturing (the heap
// sampler inside malloc, the contention sampler) walks the same way, from
// the interrupted frame: its stack is the one being walked, plus the
// capturing code and the unwinder's frames, which is where that CPU time
// goes. That walk shares nothing with the interrupted one that it could
// find half-changed: unw_backtrace's per-thread cache is not touched by
// the cursor API; libunwind's global caches and memory pool are changed
// only under a lock held with all signals blocked (so the signal cannot
// land inside); dl_iterate_phdr's lock is recursive and the walk only
// reads. (At --memprofilerate=1 about a third of all CPU samples land
// there, and were lost before this.) An allocation made by the unwinder
// itself finds the guard set and is not sampled.
//
// Outside signal handlers a thread's first 32 captures also walk frame by
// frame: setting up the cache costs about 200 us, which a thread that
// records only a few stacks (a worker started per benchmark iteration)
// should not pay; a thread that keeps capturing sets it up then.
//
// Thread-safety: every function acts on the calling thread only.
#ifndef BENCHPROF_COLLECT_STACK_CAPTURE_H_
#define BENCHPROF_COLLECT_STACK_CAPTURE_H_

#include <cstdint>

#include "common/status.h"

namespace benchprof::collect {

// Loads libunwind privately (dlopen with RTLD_LOCAL, so that its _Unwind_*
// functions never replace the program's unwinder: stack_capture.cc says
// why). Every capture before it, or after it failed, finds no stack (0).
// Call it before starting anything that captures; later calls return the
// first call's result. Fails with one line if the library or one of its
// functions is missing. Thread-safe; not for signal handlers or malloc.
Status LoadStackUnwinder();

// Whether LoadStackUnwinder succeeded. Async-signal-safe.
bool StackUnwinderLoaded();

// Fills `frames` with up to `max_frames` code addresses of the calling
// thread's stack, innermost first. The first entries belong to the capturing
// code itself (how many depends on inlining), so callers trim them: the CPU
// sampler up to the interrupted PC, the heap sampler up to the first address
// outside the allocator. Returns the number stored (0 if the unwinder found
// nothing), or kAlreadyCapturing if the thread is already capturing.
// Not for signal handlers (the thread's first call sets up libunwind's
// per-thread cache); fine inside the allocator, whose own allocations the
// guard lets through unsampled.
inline constexpr int kAlreadyCapturing = -1;
int CaptureStack(uintptr_t* frames, int max_frames);

// As CaptureStack, for a signal handler (`signal_context`: the handler's
// ucontext_t): async-signal-safe on any thread. Fast on threads where
// CaptureStack or WarmUpStackCapture ran before and that are not capturing
// now; otherwise it walks frame by frame from the interrupted frame (so
// frames[0] is the interrupted instruction; about 0.3 us a frame here).
// Returns kAlreadyCapturing only if a signal handler's own walk on this
// thread was interrupted (a handler re-entered).
int CaptureStackInSignalHandler(void* signal_context, uintptr_t* frames, int max_frames);

// The stack the signal interrupted, for a handler that reports it (a crash,
// a --timeout's thread dump): as CaptureStackInSignalHandler, but starting
// at the interrupted instruction, the handler's own frames dropped; at most
// `max_frames` (at most kMaxInterruptedFrames). When the walk fails or does
// not reach the interrupted frame (the thread was unwinding already), the
// one frame is the interrupted instruction. Returns the number stored (at
// least 1). Async-signal-safe.
inline constexpr int kMaxInterruptedFrames = 128;
int CaptureInterruptedStack(void* signal_context, uintptr_t* frames, int max_frames);

// Sets up the unwinder on the calling thread (outside any handler), so that
// captures in signal handlers take the fast path. What that allocates is not
// counted as the program's (timed_scope.h's OutsideTimedScope).
void WarmUpStackCapture();

// True while the calling thread is inside CaptureStack. Async-signal-safe.
bool CapturingStack();

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_STACK_CAPTURE_H_
