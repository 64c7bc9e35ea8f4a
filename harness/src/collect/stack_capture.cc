// ASYNC-SIGNAL-SAFE and allocator context: CaptureStack runs in the SIGPROF
// handler and inside malloc. It calls only unw_backtrace and touches only the
// calling thread's guard.
#include "collect/stack_capture.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

namespace benchprof::collect {
namespace {

// __thread: a single %fs-relative access, no TLS init wrapper.
__thread bool t_capturing __attribute__((tls_model("initial-exec"))) = false;

}  // namespace

int CaptureStack(uintptr_t* frames, int max_frames) {
  if (t_capturing) return kAlreadyCapturing;
  t_capturing = true;
  const int captured = unw_backtrace(reinterpret_cast<void**>(frames), max_frames);
  t_capturing = false;
  return captured > 0 ? captured : 0;
}

void WarmUpStackCapture() {
  uintptr_t frames[8];
  CaptureStack(frames, 8);
}

bool CapturingStack() { return t_capturing; }

}  // namespace benchprof::collect
