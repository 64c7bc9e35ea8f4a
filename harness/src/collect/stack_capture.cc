// ASYNC-SIGNAL-SAFE and allocator context: CaptureStackInSignalHandler and
// CaptureInterruptedStack run in signal handlers (SIGPROF, a crash, a
// --timeout's thread dump), CaptureStack inside malloc. They call only
// libunwind (unw_backtrace on threads whose cache is set up; otherwise
// unw_init_local2 and unw_step, which libunwind documents as signal-safe for
// local unwinding) through the function table LoadStackUnwinder filled
// before any capture, and touch only the calling thread's flags.
// LoadStackUnwinder and WarmUpStackCapture are ordinary code.
//
// A signal handler's walk may interrupt CaptureStack on the same thread
// (t_capturing set). It then walks with the cursor API from the signal
// frame, which is safe there (see the header): it never touches
// unw_backtrace's per-thread cache, the one state the interrupted capture
// may have left half-changed, and libunwind changes its shared caches only
// with signals blocked. t_signal_walk guards the handler's own walk.
//
// libunwind is loaded with dlopen(RTLD_LOCAL), not linked: libunwind.so
// also defines the C++ ABI's _Unwind_* functions and glibc's backtrace().
// Linked, it comes before libgcc_s in the program's search order and takes
// them over for the whole program: glibc's forced unwinding (pthread_exit,
// pthread_cancel) runs libgcc_s's unwinder, whose personality routine then
// calls libunwind's accessors on a context that is not theirs, and the
// thread crashes or skips its cleanup handlers. Loaded locally, none of its
// symbols is visible to the program; only this file calls it.
#include "collect/stack_capture.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <string>
#include <type_traits>

#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <ucontext.h>

#include "collect/timed_scope.h"

namespace benchprof::collect {
namespace {

// The libunwind functions this file calls, looked up once by
// LoadStackUnwinder and never changed after: a capture reads the table's
// pointer once (acquire) and calls through it.
struct UnwinderFunctions {
  decltype(&unw_backtrace) backtrace;
  decltype(&unw_tdep_getcontext) getcontext;  // unw_getcontext's function
  decltype(&unw_init_local) init_local;
  decltype(&unw_init_local2) init_local2;
  decltype(&unw_step) step;
  decltype(&unw_get_reg) get_reg;
};
UnwinderFunctions g_unwinder_functions;
std::atomic<const UnwinderFunctions*> g_unwinder{nullptr};

// libunwind's names for its local-only functions (UNW_OBJ(step) is
// _ULx86_64_step on x86-64), as strings for dlsym.
#define BENCHPROF_NAME_OF(name) BENCHPROF_NAME_OF_EXPANDED(name)
#define BENCHPROF_NAME_OF_EXPANDED(name) #name

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
int WalkCursor(const UnwinderFunctions& unwinder, unw_cursor_t& cursor, uintptr_t* frames,
               int max_frames) {
  int count = 0;
  do {
    unw_word_t ip = 0;
    if (unwinder.get_reg(&cursor, UNW_REG_IP, &ip) != 0 || ip == 0) break;
    frames[count++] = static_cast<uintptr_t>(ip);
  } while (count < max_frames && unwinder.step(&cursor) > 0);
  return count;
}

// The walk from the calling frame, with no per-thread state.
[[gnu::noinline]] int WalkFromHere(const UnwinderFunctions& unwinder, uintptr_t* frames,
                                   int max_frames) {
  unw_context_t context;
  unw_cursor_t cursor;
  if (unwinder.getcontext(&context) != 0 || unwinder.init_local(&cursor, &context) != 0) return 0;
  return WalkCursor(unwinder, cursor, frames, max_frames);
}

// The slow walk: libunwind's cursor API keeps no per-thread state. It starts
// at the interrupted frame (on x86-64 unw_context_t is ucontext_t), so the
// handler's own frames are not walked.
int WalkFromSignalFrame(const UnwinderFunctions& unwinder, void* signal_context, uintptr_t* frames,
                        int max_frames) {
  unw_cursor_t cursor;
  if (unwinder.init_local2(&cursor, static_cast<unw_context_t*>(signal_context),
                           UNW_INIT_SIGNAL_FRAME) != 0) {
    return 0;
  }
  return WalkCursor(unwinder, cursor, frames, max_frames);
}

// unw_backtrace on a thread where it has not run: libunwind's thread-local
// variables are allocated then (with malloc, as the library was loaded with
// dlopen) and its trace cache is mapped. That is the profiler's work, not
// the program's, so it happens outside the timed scope.
int FirstBacktrace(const UnwinderFunctions& unwinder, void** frames, int max_frames) {
  const OutsideTimedScope set_up;
  return unwinder.backtrace(frames, max_frames);
}

}  // namespace

Status LoadStackUnwinder() {
  static std::mutex mutex;
  static std::string error;
  const std::lock_guard<std::mutex> lock(mutex);
  if (g_unwinder.load(std::memory_order_acquire) != nullptr) return Status();
  if (!error.empty()) return Status::Error(error);
  void* library = dlopen(BENCHPROF_LIBUNWIND_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    error = std::string("cannot load the stack unwinder: ") +
            (why != nullptr ? why : BENCHPROF_LIBUNWIND_SONAME) +
            " (Debian: apt-get install libunwind8)";
    return Status::Error(error);
  }
  // Never dlclose()d: captures may run until the process ends.
  UnwinderFunctions& f = g_unwinder_functions;
  const auto look_up = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
    if (function == nullptr && error.empty()) {
      error = std::string("cannot load the stack unwinder: ") + BENCHPROF_LIBUNWIND_SONAME +
              " has no " + name;
    }
  };
  look_up(f.backtrace, BENCHPROF_NAME_OF(unw_backtrace));
  look_up(f.getcontext, BENCHPROF_NAME_OF(unw_tdep_getcontext));
  look_up(f.init_local, BENCHPROF_NAME_OF(unw_init_local));
  look_up(f.init_local2, BENCHPROF_NAME_OF(unw_init_local2));
  look_up(f.step, BENCHPROF_NAME_OF(unw_step));
  look_up(f.get_reg, BENCHPROF_NAME_OF(unw_get_reg));
  if (!error.empty()) return Status::Error(error);
  g_unwinder.store(&f, std::memory_order_release);
  return Status();
}

bool StackUnwinderLoaded() { return g_unwinder.load(std::memory_order_acquire) != nullptr; }

int CaptureStack(uintptr_t* frames, int max_frames) {
  const UnwinderFunctions* unwinder = g_unwinder.load(std::memory_order_acquire);
  if (unwinder == nullptr) return 0;
  if (t_capturing) return kAlreadyCapturing;
  t_capturing = true;
  int captured;
  if (!t_cache_ready && t_walks < kWalksBeforeCache) {
    ++t_walks;
    captured = WalkFromHere(*unwinder, frames, max_frames);
  } else if (!t_cache_ready) {
    captured = FirstBacktrace(*unwinder, reinterpret_cast<void**>(frames), max_frames);
    t_cache_ready = true;
  } else {
    captured = unwinder->backtrace(reinterpret_cast<void**>(frames), max_frames);
  }
  t_capturing = false;
  return captured > 0 ? captured : 0;
}

int CaptureStackInSignalHandler(void* signal_context, uintptr_t* frames, int max_frames) {
  const UnwinderFunctions* unwinder = g_unwinder.load(std::memory_order_acquire);
  if (unwinder == nullptr) return 0;
  if (t_cache_ready && !t_capturing) return CaptureStack(frames, max_frames);
  // A thread without the cache, or one interrupted inside CaptureStack:
  // unw_backtrace must not run, the cursor walk may.
  if (t_signal_walk) return kAlreadyCapturing;
  t_signal_walk = true;
  // Allocations the unwinder might make meanwhile are not sampled.
  const bool was_capturing = t_capturing;
  t_capturing = true;
  const int captured = WalkFromSignalFrame(*unwinder, signal_context, frames, max_frames);
  t_capturing = was_capturing;
  t_signal_walk = false;
  return captured;
}

int CaptureInterruptedStack(void* signal_context, uintptr_t* frames, int max_frames) {
  // The handler's own frames (itself, the kernel's trampoline) and slack.
  constexpr int kHandlerFrames = 8;
  uintptr_t walked[kMaxInterruptedFrames + kHandlerFrames];
  if (max_frames > kMaxInterruptedFrames) max_frames = kMaxInterruptedFrames;
  const int captured =
      CaptureStackInSignalHandler(signal_context, walked, max_frames + kHandlerFrames);
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
  const UnwinderFunctions* unwinder = g_unwinder.load(std::memory_order_acquire);
  if (unwinder == nullptr || t_capturing || t_cache_ready) return;
  t_capturing = true;
  void* frames[8];
  FirstBacktrace(*unwinder, frames, 8);
  t_cache_ready = true;
  t_capturing = false;
}

bool CapturingStack() { return t_capturing; }

}  // namespace benchprof::collect
