// ASYNC-SIGNAL-SAFE and allocator context: CaptureStackInSignalHandler and
// CaptureInterruptedStack run in signal handlers (SIGPROF, a crash, a
// --timeout's thread dump), CaptureStack inside malloc. They call only
// libunwind (unw_backtrace on threads whose cache is set up; otherwise
// unw_init_local2 and unw_step, which libunwind documents as signal-safe for
// local unwinding) and touch only the calling thread's flags.
//
// A signal handler's walk may interrupt CaptureStack on the same thread
// (t_capturing set). It then walks with the cursor API from the signal
// frame, which is safe there (see the header): it never touches
// unw_backtrace's per-thread cache, the one state the interrupted capture
// may have left half-changed, and libunwind changes its shared caches only
// with signals blocked. t_signal_walk guards the handler's own walk.
#include "collect/stack_capture.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <ucontext.h>

namespace benchprof::collect {
namespace {

// Setting up unw_backtrace's per-thread cache costs about 200 us (measured
// here), a frame-by-frame walk about 0.5 us a frame, a cached trace well
// under 1 us: a thread's first captures walk, and only a thread that keeps
// capturing sets the cache up. A benchmark that starts threads per
// iteration which record a few stacks each then never pays for caches.
constexpr uint32_t kWalksBeforeCache = 32;

// __thread: a single %fs-relative access, no TLS init wrapper.
__thread bool t_capturing __attribute__((tls_model("initial-exec"))) = false;
// unw_backtrace has run on this thread: its per-thread cache exists.
__thread bool t_cache_ready __attribute__((tls_model("initial-exec"))) = false;
__thread uint32_t t_walks __attribute__((tls_model("initial-exec"))) = 0;
// A signal handler is walking this thread's stack from its signal frame.
__thread bool t_signal_walk __attribute__((tls_model("initial-exec"))) = false;

// The return addresses from `cursor` outwards, at most `max_frames`.
int WalkCursor(unw_cursor_t& cursor, uintptr_t* frames, int max_frames) {
  int count = 0;
  do {
    unw_word_t ip = 0;
    if (unw_get_reg(&cursor, UNW_REG_IP, &ip) != 0 || ip == 0) break;
    frames[count++] = static_cast<uintptr_t>(ip);
  } while (count < max_frames && unw_step(&cursor) > 0);
  return count;
}

// The walk from the calling frame, with no per-thread state.
[[gnu::noinline]] int WalkFromHere(uintptr_t* frames, int max_frames) {
  unw_context_t context;
  unw_cursor_t cursor;
  if (unw_getcontext(&context) != 0 || unw_init_local(&cursor, &context) != 0) return 0;
  return WalkCursor(cursor, frames, max_frames);
}

// The slow walk: libunwind's cursor API keeps no per-thread state. It starts
// at the interrupted frame (on x86-64 unw_context_t is ucontext_t), so the
// handler's own frames are not walked.
int WalkFromSignalFrame(void* signal_context, uintptr_t* frames, int max_frames) {
  unw_cursor_t cursor;
  if (unw_init_local2(&cursor, static_cast<unw_context_t*>(signal_context),
                      UNW_INIT_SIGNAL_FRAME) != 0) {
    return 0;
  }
  return WalkCursor(cursor, frames, max_frames);
}

}  // namespace

int CaptureStack(uintptr_t* frames, int max_frames) {
  if (t_capturing) return kAlreadyCapturing;
  t_capturing = true;
  int captured;
  if (!t_cache_ready && t_walks < kWalksBeforeCache) {
    ++t_walks;
    captured = WalkFromHere(frames, max_frames);
  } else {
    captured = unw_backtrace(reinterpret_cast<void**>(frames), max_frames);
    t_cache_ready = true;
  }
  t_capturing = false;
  return captured > 0 ? captured : 0;
}

int CaptureStackInSignalHandler(void* signal_context, uintptr_t* frames, int max_frames) {
  if (t_cache_ready && !t_capturing) return CaptureStack(frames, max_frames);
  // A thread without the cache, or one interrupted inside CaptureStack:
  // unw_backtrace must not run, the cursor walk may.
  if (t_signal_walk) return kAlreadyCapturing;
  t_signal_walk = true;
  // Allocations the unwinder might make meanwhile are not sampled.
  const bool was_capturing = t_capturing;
  t_capturing = true;
  const int captured = WalkFromSignalFrame(signal_context, frames, max_frames);
  t_capturing = was_capturing;
  t_signal_walk = false;
  return captured;
}

int CaptureInterruptedStack(void* signal_context, uintptr_t* frames, int max_frames) {
  // The handler's own frames (itself, the kernel's trampoline) and slack.
  constexpr int kHandlerFrames = 8;
  uintptr_t walked[kMaxInterruptedFrames + kHandlerFrames];
  if (max_frames > kMaxInterruptedFrames) max_frames = kMaxInterruptedFrames;
  const int captured = CaptureStackInSignalHandler(signal_context, walked, max_frames + kHandlerFrames);
  const auto pc = static_cast<uintptr_t>(
      static_cast<const ucontext_t*>(signal_context)->uc_mcontext.gregs[REG_RIP]);
  int first = 0;
  while (first < captured && walked[first] != pc) ++first;
  if (captured <= 0 || first == captured) {
    frames[0] = pc;
    return 1;
  }
  int depth = 0;
  for (int f = first; f < captured && depth < max_frames; ++f) frames[depth++] = walked[f];
  return depth;
}

void WarmUpStackCapture() {
  if (t_capturing || t_cache_ready) return;
  t_capturing = true;
  void* frames[8];
  unw_backtrace(frames, 8);
  t_cache_ready = true;
  t_capturing = false;
}

bool CapturingStack() { return t_capturing; }

}  // namespace benchprof::collect
