// The hooks' own code, as address ranges: every function that runs between
// a program's call to malloc/operator new (or to pthread_mutex_lock and the
// other interposed lock functions) and a sampler's stack capture is placed
// in one linker section per kind of hook, so the sampler can cut those
// frames off a captured stack, whatever the compiler inlined.
//
// Allocator and lock context: the predicates are two compares.
#ifndef BENCHPROF_COLLECT_HOOK_TEXT_H_
#define BENCHPROF_COLLECT_HOOK_TEXT_H_

#include <cstddef>
#include <cstdint>

// Put a function into the allocator or the lock-hook section. The names are
// C identifiers so that the linker defines __start_/__stop_ symbols around
// the sections.
#define BENCHPROF_ALLOCATOR_TEXT __attribute__((section("benchprof_allocator_text")))
#define BENCHPROF_LOCK_HOOK_TEXT __attribute__((section("benchprof_lock_hook_text")))

extern "C" {
extern const char __start_benchprof_allocator_text[];
extern const char __stop_benchprof_allocator_text[];
// Weak: a program without lock hooks (a TSan build) has no such section.
extern const char __start_benchprof_lock_hook_text[] __attribute__((weak));
extern const char __stop_benchprof_lock_hook_text[] __attribute__((weak));
}

namespace benchprof::collect {

// Whether `address` lies in code marked BENCHPROF_ALLOCATOR_TEXT.
inline bool IsAllocatorText(uintptr_t address) {
  return address >= reinterpret_cast<uintptr_t>(__start_benchprof_allocator_text) &&
         address < reinterpret_cast<uintptr_t>(__stop_benchprof_allocator_text);
}

// Whether `address` lies in code marked BENCHPROF_LOCK_HOOK_TEXT.
inline bool IsLockHookText(uintptr_t address) {
  return address >= reinterpret_cast<uintptr_t>(__start_benchprof_lock_hook_text) &&
         address < reinterpret_cast<uintptr_t>(__stop_benchprof_lock_hook_text);
}

// The index of the first frame of `frames` (innermost first) after the hook
// frames `is_hook` recognises: the caller of the hooked function. 0 when no
// frame is a hook frame (the stack was not captured from a hook: keep all).
template <typename IsHook>
size_t FirstFrameAfterHook(const uintptr_t* frames, size_t captured, IsHook is_hook) {
  size_t first = 0;
  while (first < captured && !is_hook(frames[first])) ++first;
  if (first == captured) return 0;
  while (first < captured && is_hook(frames[first])) ++first;
  return first;
}

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_HOOK_TEXT_H_
