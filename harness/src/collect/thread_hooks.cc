// The pthread_create replacement behind thread_hooks.h.
//
// The trampoline's small record comes from glibc's allocator directly, so
// starting a thread under a collector does not change allocs/op.
#include "collect/thread_hooks.h"

#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

extern "C" {
void* __libc_malloc(size_t size) noexcept;
void __libc_free(void* ptr) noexcept;
}

namespace benchprof::collect {
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

// Written by AddThreadListener before the count that publishes it.
const ThreadListener* g_listeners[kMaxThreadListeners];
std::atomic<int> g_listener_count{0};

struct Trampoline {
  void* (*start)(void*);
  void* arg;
  uint32_t listeners;  // bit i: g_listeners[i] hooks this thread
};

void* RunTrampoline(void* raw) {
  const Trampoline trampoline = *static_cast<Trampoline*>(raw);
  __libc_free(raw);
  for (int i = 0; i < kMaxThreadListeners; ++i) {
    if ((trampoline.listeners >> i & 1) != 0 && g_listeners[i]->on_thread_start != nullptr) {
      g_listeners[i]->on_thread_start();
    }
  }
  void* result = trampoline.start(trampoline.arg);
  for (int i = kMaxThreadListeners - 1; i >= 0; --i) {
    if ((trampoline.listeners >> i & 1) != 0 && g_listeners[i]->on_thread_exit != nullptr) {
      g_listeners[i]->on_thread_exit();
    }
  }
  return result;
}

// The listeners that want a thread created now, as a bit set.
uint32_t ListenersForNewThread() {
  const int count = g_listener_count.load(std::memory_order_acquire);
  uint32_t wanted = 0;
  for (int i = 0; i < count; ++i) {
    if (g_listeners[i]->wants_new_thread()) wanted |= uint32_t{1} << i;
  }
  return wanted;
}

}  // namespace

bool AddThreadListener(const ThreadListener* listener) {
  const int count = g_listener_count.load(std::memory_order_relaxed);
  for (int i = 0; i < count; ++i) {
    if (g_listeners[i] == listener) return true;
  }
  if (count == kMaxThreadListeners) return false;
  g_listeners[count] = listener;
  g_listener_count.store(count + 1, std::memory_order_release);
  return true;
}

}  // namespace benchprof::collect

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*),
                              void* arg) {
  const auto real = benchprof::collect::RealPthreadCreate();
  const uint32_t listeners = benchprof::collect::ListenersForNewThread();
  if (listeners == 0) return real(thread, attr, start, arg);
  auto* trampoline = static_cast<benchprof::collect::Trampoline*>(
      __libc_malloc(sizeof(benchprof::collect::Trampoline)));
  if (trampoline == nullptr) return real(thread, attr, start, arg);
  *trampoline = {start, arg, listeners};
  const int result = real(thread, attr, &benchprof::collect::RunTrampoline, trampoline);
  if (result != 0) __libc_free(trampoline);
  return result;
}
