// The allocator's own code, as an address range: every function that runs
// between a program's call to malloc/operator new and the heap sampler's
// stack capture is placed in one linker section, so the sampler can cut
// those frames off a captured stack, whatever the compiler inlined.
//
// Allocator context: IsAllocatorText() is two compares.
#ifndef BENCHPROF_COLLECT_ALLOCATOR_TEXT_H_
#define BENCHPROF_COLLECT_ALLOCATOR_TEXT_H_

#include <cstdint>

// Puts a function into the allocator section. The name is a C identifier so
// that the linker defines __start_/__stop_ symbols around the section.
#define BENCHPROF_ALLOCATOR_TEXT __attribute__((section("benchprof_allocator_text")))

extern "C" {
extern const char __start_benchprof_allocator_text[];
extern const char __stop_benchprof_allocator_text[];
}

namespace benchprof::collect {

// Whether `address` lies in code marked BENCHPROF_ALLOCATOR_TEXT.
inline bool IsAllocatorText(uintptr_t address) {
  return address >= reinterpret_cast<uintptr_t>(__start_benchprof_allocator_text) &&
         address < reinterpret_cast<uintptr_t>(__stop_benchprof_allocator_text);
}

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_ALLOCATOR_TEXT_H_
