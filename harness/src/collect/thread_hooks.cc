// Threads started while the CPU profiler runs arm their own sampling timer,
// and threads started while a trace is recorded register with the tracer
// (so their CPU use is sampled) and record "thread start": pthread_create is
// replaced (symbol interposition from the executable, so std::thread and
// every library's threads pass through here) by a version that runs the new
// thread's start routine through a trampoline. The tracer's own threads are
// created without it.
//
// The trampoline's small record comes from glibc's allocator directly, so
// starting a thread under --cpuprofile or --trace does not change allocs/op.
// When neither runs the real pthread_create is called unchanged.
#include <dlfcn.h>
#include <pthread.h>

#include <cstddef>

#include "collect/cpu_sampler.h"
#include "tracer/trace_recorder.h"

extern "C" {
void* __libc_malloc(size_t size) noexcept;
void __libc_free(void* ptr) noexcept;
}

namespace {

using CreateFunction = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

CreateFunction RealPthreadCreate() {
  // dlsym may allocate; looking it up before main keeps that out of any
  // benchmark's timed loop (the static below is initialised at first use,
  // which the global further down forces during start-up).
  static const CreateFunction real =
      reinterpret_cast<CreateFunction>(dlsym(RTLD_NEXT, "pthread_create"));
  return real;
}
const CreateFunction g_resolved_at_startup = RealPthreadCreate();

struct Trampoline {
  void* (*start)(void*);
  void* arg;
};

void* RunTrampoline(void* raw) {
  const Trampoline trampoline = *static_cast<Trampoline*>(raw);
  __libc_free(raw);
  benchprof::collect::RegisterCurrentThread();
  // Its "thread exit" is recorded by the tracer's thread-specific
  // destructor, which also runs when the thread calls pthread_exit.
  benchprof::tracer::OnThreadStart();
  void* result = trampoline.start(trampoline.arg);
  benchprof::collect::UnregisterCurrentThread();
  return result;
}

}  // namespace

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                              void* (*start)(void*), void* arg) {
  const CreateFunction real = RealPthreadCreate();
  if ((!benchprof::collect::CpuSamplerRunning() && !benchprof::tracer::IsRecording()) ||
      benchprof::tracer::CreatingInternalThread()) {
    return real(thread, attr, start, arg);
  }
  auto* trampoline = static_cast<Trampoline*>(__libc_malloc(sizeof(Trampoline)));
  if (trampoline == nullptr) return real(thread, attr, start, arg);
  *trampoline = {start, arg};
  const int result = real(thread, attr, &RunTrampoline, trampoline);
  if (result != 0) __libc_free(trampoline);
  return result;
}
