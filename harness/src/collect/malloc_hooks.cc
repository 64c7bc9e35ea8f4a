// HOT PATH and allocator context: the replacements of the C allocator family
// and of every form of operator new/delete. Each one forwards to glibc's own
// allocator (__libc_*), counts successful allocations and, while the heap
// profiler runs, hands the sampled ones to heap_sampler.h; nothing here may
// allocate, lock or throw except operator new's documented bad_alloc.
//
// Defined in the executable, these take precedence over glibc's for every
// library in the process (glibc supports malloc replacement by symbol
// interposition), so allocations made inside C libraries count too.
// Compiled with -fno-builtin so the compiler cannot turn these bodies into
// calls to themselves, and without frame pointers: the forwarding functions
// become tail calls (unwinders use the CFI). Every function is placed in the
// allocator section (hook_text.h), so heap profile stacks start at the
// caller.
//
// Counting rules: see alloc_counter.h. B/op is the requested size. realloc
// counts as one allocation of its new size (the program asked for a block of
// that size, whether or not glibc moved it); realloc(p, 0) is a free.
// operator new counts what it returns; the C functions count a valid request
// as they forward it (see below).
//
// Sampled blocks (heap_sampler.h) carry a header of their own, so every
// function that takes a block checks IsSampledBlock() first: free and delete
// hand sampled blocks back to the sampler, realloc moves them, and
// malloc_usable_size answers for them.
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <new>

#include "collect/alloc_counter.h"
#include "collect/heap_sampler.h"
#include "collect/hook_text.h"

// glibc's own allocator. noexcept, as C functions are: without it a call
// from a noexcept function needs an exception region and cannot be a tail
// call.
extern "C" {
void* __libc_malloc(size_t size) noexcept;
void* __libc_calloc(size_t count, size_t size) noexcept;
void* __libc_realloc(void* ptr, size_t size) noexcept;
void* __libc_memalign(size_t alignment, size_t size) noexcept;
void* __libc_valloc(size_t size) noexcept;
void* __libc_pvalloc(size_t size) noexcept;
void __libc_free(void* ptr) noexcept;
}

namespace {

using benchprof::collect::AllocateSampled;
using benchprof::collect::FreeSampled;
using benchprof::collect::HeapSampleDue;
using benchprof::collect::IsSampledBlock;
using benchprof::collect::RecordAllocation;

bool IsPowerOfTwo(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Counts an allocation and says whether the heap sampler takes it.
inline bool CountAndSample(size_t size) { return RecordAllocation(size) && HeapSampleDue(size); }

// `alignment` 0: malloc's own.
BENCHPROF_ALLOCATOR_TEXT void* Allocate(size_t size, size_t alignment) {
  return alignment == 0 ? __libc_malloc(size) : __libc_memalign(alignment, size);
}

// Counts, then allocates a sampled or an ordinary block. Only power-of-two
// alignments are sampled (glibc rounds others up; the header placement
// assumes the exact alignment).
BENCHPROF_ALLOCATOR_TEXT inline void* CountAndAllocate(size_t size, size_t alignment) {
  if (CountAndSample(size) && (alignment == 0 || IsPowerOfTwo(alignment))) {
    return AllocateSampled(size, alignment, /*zero=*/false);
  }
  return Allocate(size, alignment);
}

BENCHPROF_ALLOCATOR_TEXT inline void Free(void* ptr) {
  if (__builtin_expect(IsSampledBlock(ptr), 0)) return FreeSampled(ptr);
  __libc_free(ptr);
}

// glibc's malloc_usable_size, which ours shadows. Looked up on first use,
// outside any allocator lock of ours (we hold none).
size_t GlibcUsableSize(void* ptr) {
  using UsableSizeFn = size_t (*)(void*);
  static std::atomic<UsableSizeFn> glibc{nullptr};
  UsableSizeFn fn = glibc.load(std::memory_order_acquire);
  if (fn == nullptr) {
    fn = reinterpret_cast<UsableSizeFn>(dlsym(RTLD_NEXT, "malloc_usable_size"));
    if (fn == nullptr) return 0;
    glibc.store(fn, std::memory_order_release);
  }
  return fn(ptr);
}

// operator new's contract after a failed allocation: call the new-handler
// and retry until it succeeds; with no handler, throw bad_alloc (or, for the
// nothrow forms, return nullptr without creating an exception).
[[gnu::noinline]] BENCHPROF_ALLOCATOR_TEXT void* RetryWithNewHandler(size_t size, size_t alignment,
                                                                     bool nothrow) {
  for (;;) {
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) {
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    if (nothrow) {
      try {
        handler();
      } catch (const std::bad_alloc&) {
        return nullptr;
      }
    } else {
      handler();
    }
    if (void* ptr = Allocate(size, alignment)) {
      RecordAllocation(size);
      return ptr;
    }
  }
}

// Counts before allocating, so that nothing but the pointer lives across the
// call; the rare failure takes the count back.
template <bool kNothrow>
[[gnu::always_inline]] inline void* New(size_t size, size_t alignment = 0) noexcept(kNothrow) {
  void* ptr = CountAndAllocate(size, alignment);
  if (__builtin_expect(ptr != nullptr, 1)) return ptr;
  benchprof::collect::UnrecordAllocation(size);
  return RetryWithNewHandler(size, alignment, kNothrow);
}

size_t AlignmentOf(std::align_val_t alignment) { return static_cast<size_t>(alignment); }

}  // namespace

// ---- C allocator family ----------------------------------------------------
//
// Each function checks its arguments, counts the request and tail-calls
// glibc, so no frame of ours stays on the stack and the count costs a few
// instructions. The price: a request that fails for lack of memory has
// already been counted.

extern "C" {

BENCHPROF_ALLOCATOR_TEXT void* malloc(size_t size) noexcept {
  if (CountAndSample(size)) return AllocateSampled(size, 0, /*zero=*/false);
  return __libc_malloc(size);
}

BENCHPROF_ALLOCATOR_TEXT void free(void* ptr) noexcept { Free(ptr); }

BENCHPROF_ALLOCATOR_TEXT void* calloc(size_t count, size_t size) noexcept {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  if (CountAndSample(total)) return AllocateSampled(total, 0, /*zero=*/true);
  return __libc_calloc(count, size);
}

BENCHPROF_ALLOCATOR_TEXT void* realloc(void* ptr, size_t size) noexcept {
  if (ptr == nullptr) return malloc(size);
  if (!IsSampledBlock(ptr)) {
    if (size == 0) return __libc_realloc(ptr, 0);  // frees ptr
    if (!CountAndSample(size)) return __libc_realloc(ptr, size);
    // An ordinary block becomes a sampled one. glibc moves the contents into
    // a block of the new size first: the only way to learn how much of the
    // old block is the caller's without asking glibc for its usable size.
    void* moved = __libc_realloc(ptr, size);
    if (moved == nullptr) return nullptr;
    void* block = AllocateSampled(size, 0, /*zero=*/false);
    if (block == nullptr) return moved;
    memcpy(block, moved, size);
    __libc_free(moved);
    return block;
  }
  if (size == 0) {
    FreeSampled(ptr);
    return nullptr;
  }
  // A sampled block always moves: its header cannot grow in place.
  void* block =
      CountAndSample(size) ? AllocateSampled(size, 0, /*zero=*/false) : __libc_malloc(size);
  if (block == nullptr) return nullptr;  // ptr stays valid, as realloc promises
  const size_t old_size = benchprof::collect::SampledBlockSize(ptr);
  memcpy(block, ptr, old_size < size ? old_size : size);
  FreeSampled(ptr);
  return block;
}

BENCHPROF_ALLOCATOR_TEXT void* reallocarray(void* ptr, size_t count, size_t size) noexcept {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(ptr, total);
}

BENCHPROF_ALLOCATOR_TEXT int posix_memalign(void** out, size_t alignment, size_t size) noexcept {
  if (!IsPowerOfTwo(alignment) || alignment % sizeof(void*) != 0) return EINVAL;
  void* ptr = CountAndAllocate(size, alignment);
  if (ptr == nullptr) return ENOMEM;
  *out = ptr;
  return 0;
}

BENCHPROF_ALLOCATOR_TEXT void* aligned_alloc(size_t alignment, size_t size) noexcept {
  return CountAndAllocate(size, alignment);
}

BENCHPROF_ALLOCATOR_TEXT void* memalign(size_t alignment, size_t size) noexcept {
  return CountAndAllocate(size, alignment);
}

BENCHPROF_ALLOCATOR_TEXT void* valloc(size_t size) noexcept {
  if (CountAndSample(size)) {
    return AllocateSampled(size, static_cast<size_t>(getpagesize()), /*zero=*/false);
  }
  return __libc_valloc(size);
}

BENCHPROF_ALLOCATOR_TEXT void* pvalloc(size_t size) noexcept {
  if (CountAndSample(size)) {
    const size_t page = static_cast<size_t>(getpagesize());
    const size_t rounded = size == 0 ? page : (size + page - 1) / page * page;
    if (rounded < size) {
      errno = ENOMEM;
      return nullptr;
    }
    return AllocateSampled(rounded, page, /*zero=*/false);
  }
  return __libc_pvalloc(size);
}

// Sampled blocks answer with the size asked for, which is all the caller
// may use of them.
BENCHPROF_ALLOCATOR_TEXT size_t malloc_usable_size(void* ptr) noexcept {
  if (IsSampledBlock(ptr)) return benchprof::collect::SampledBlockSize(ptr);
  return GlibcUsableSize(ptr);
}

}  // extern "C"

// ---- operator new / delete, every replaceable form -------------------------

BENCHPROF_ALLOCATOR_TEXT void* operator new(size_t size) { return New<false>(size); }
BENCHPROF_ALLOCATOR_TEXT void* operator new[](size_t size) { return New<false>(size); }
BENCHPROF_ALLOCATOR_TEXT void* operator new(size_t size, const std::nothrow_t&) noexcept {
  return New<true>(size);
}
BENCHPROF_ALLOCATOR_TEXT void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  return New<true>(size);
}
BENCHPROF_ALLOCATOR_TEXT void* operator new(size_t size, std::align_val_t alignment) {
  return New<false>(size, AlignmentOf(alignment));
}
BENCHPROF_ALLOCATOR_TEXT void* operator new[](size_t size, std::align_val_t alignment) {
  return New<false>(size, AlignmentOf(alignment));
}
BENCHPROF_ALLOCATOR_TEXT void* operator new(size_t size, std::align_val_t alignment,
                                            const std::nothrow_t&) noexcept {
  return New<true>(size, AlignmentOf(alignment));
}
BENCHPROF_ALLOCATOR_TEXT void* operator new[](size_t size, std::align_val_t alignment,
                                              const std::nothrow_t&) noexcept {
  return New<true>(size, AlignmentOf(alignment));
}

BENCHPROF_ALLOCATOR_TEXT void operator delete(void* ptr) noexcept { Free(ptr); }
BENCHPROF_ALLOCATOR_TEXT void operator delete[](void* ptr) noexcept { Free(ptr); }
BENCHPROF_ALLOCATOR_TEXT void operator delete(void* ptr, const std::nothrow_t&) noexcept {
  Free(ptr);
}
BENCHPROF_ALLOCATOR_TEXT void operator delete[](void* ptr, const std::nothrow_t&) noexcept {
  Free(ptr);
}
BENCHPROF_ALLOCATOR_TEXT void operator delete(void* ptr, size_t) noexcept { Free(ptr); }
BENCHPROF_ALLOCATOR_TEXT void operator delete[](void* ptr, size_t) noexcept { Free(ptr); }
BENCHPROF_ALLOCATOR_TEXT void operator delete(void* ptr, std::align_val_t) noexcept { Free(ptr); }
BENCHPROF_ALLOCATOR_TEXT void operator delete[](void* ptr, std::align_val_t) noexcept { Free(ptr); }
BENCHPROF_ALLOCATOR_TEXT void operator delete(void* ptr, std::align_val_t,
                                              const std::nothrow_t&) noexcept {
  Free(ptr);
}
BENCHPROF_ALLOCATOR_TEXT void operator delete[](void* ptr, std::align_val_t,
                                                const std::nothrow_t&) noexcept {
  Free(ptr);
}
BENCHPROF_ALLOCATOR_TEXT void operator delete(void* ptr, size_t, std::align_val_t) noexcept {
  Free(ptr);
}
BENCHPROF_ALLOCATOR_TEXT void operator delete[](void* ptr, size_t, std::align_val_t) noexcept {
  Free(ptr);
}
