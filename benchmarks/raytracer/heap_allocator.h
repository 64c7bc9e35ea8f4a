// HeapAllocator: a standard allocator whose allocations the optimiser cannot
// remove, for the naive and cached ray tracers' heap-backed math types.
//
// GCC 12 may delete a `new`/`delete` pair whose pointer never escapes
// (-fallocation-dce), and std::allocator is exactly what it sees through. The
// naive renderer exists to show what per-operation heap allocation costs, so
// its vectors allocate through two out-of-line functions defined in another
// translation unit: every allocation they request happens at -O2, and the
// harness counts it like any other `operator new`.
//
// Example:
//   HeapVector<double> v(4);  // one real allocation, always
//
// Thread-safety: thread-safe (stateless; forwards to operator new/delete).
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_ALLOCATOR_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_ALLOCATOR_H_

#include <cstddef>
#include <vector>

namespace benchprof::raytracer {

// Returns `bytes` bytes from ::operator new. Never inlined, so callers cannot
// prove the block unused. Throws std::bad_alloc on failure.
[[gnu::noinline]] void* AllocateHeapBlock(std::size_t bytes);

// Releases a block from AllocateHeapBlock(). Never inlined.
[[gnu::noinline]] void FreeHeapBlock(void* block) noexcept;

// std::allocator's interface over AllocateHeapBlock()/FreeHeapBlock().
template <class T>
struct HeapAllocator {
  using value_type = T;

  HeapAllocator() = default;
  template <class U>
  HeapAllocator(const HeapAllocator<U>&) {}  // NOLINT: allocators convert implicitly

  T* allocate(std::size_t n) { return static_cast<T*>(AllocateHeapBlock(n * sizeof(T))); }
  void deallocate(T* block, std::size_t) noexcept { FreeHeapBlock(block); }

  friend bool operator==(const HeapAllocator&, const HeapAllocator&) { return true; }
};

// A std::vector whose every allocation really happens.
template <class T>
using HeapVector = std::vector<T, HeapAllocator<T>>;

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_ALLOCATOR_H_
