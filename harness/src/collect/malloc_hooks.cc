// HOT PATH and allocator context: the replacements of the C allocator family
// and of every form of operator new/delete. Each one forwards to glibc's own
// allocator (__libc_*) and counts successful allocations; nothing here may
// allocate, lock or throw except operator new's documented bad_alloc.
//
// Defined in the executable, these take precedence over glibc's for every
// library in the process (glibc supports malloc replacement by symbol
// interposition), so allocations made inside C libraries count too.
// Compiled with -fno-builtin so the compiler cannot turn these bodies into
// calls to themselves, and without frame pointers: the forwarding functions
// become tail calls (unwinders use the CFI).
//
// Counting rules: see alloc_counter.h. B/op is the requested size. realloc
// counts as one allocation of its new size (the program asked for a block of
// that size, whether or not glibc moved it); realloc(p, 0) is a free.
// operator new counts what it returns; the C functions count a valid request
// as they forward it (see below).
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

#include <cstddef>
#include <new>

#include "collect/alloc_counter.h"

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

using benchprof::collect::RecordAllocation;

bool IsPowerOfTwo(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

void* Allocate(size_t size, size_t alignment) {
  return alignment == 0 ? __libc_malloc(size) : __libc_memalign(alignment, size);
}

// operator new's contract after a failed allocation: call the new-handler
// and retry until it succeeds; with no handler, throw bad_alloc (or, for the
// nothrow forms, return nullptr without creating an exception).
[[gnu::noinline]] void* RetryWithNewHandler(size_t size, size_t alignment, bool nothrow) {
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
inline void* New(size_t size, size_t alignment = 0) noexcept(kNothrow) {
  RecordAllocation(size);
  void* ptr = Allocate(size, alignment);
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

void* malloc(size_t size) noexcept {
  RecordAllocation(size);
  return __libc_malloc(size);
}

void free(void* ptr) noexcept { __libc_free(ptr); }

void* calloc(size_t count, size_t size) noexcept {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  RecordAllocation(total);
  return __libc_calloc(count, size);
}

void* realloc(void* ptr, size_t size) noexcept {
  if (ptr == nullptr || size != 0) RecordAllocation(size);  // realloc(p, 0) frees p
  return __libc_realloc(ptr, size);
}

void* reallocarray(void* ptr, size_t count, size_t size) noexcept {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(ptr, total);
}

int posix_memalign(void** out, size_t alignment, size_t size) noexcept {
  if (!IsPowerOfTwo(alignment) || alignment % sizeof(void*) != 0) return EINVAL;
  RecordAllocation(size);
  void* ptr = __libc_memalign(alignment, size);
  if (ptr == nullptr) return ENOMEM;
  *out = ptr;
  return 0;
}

void* aligned_alloc(size_t alignment, size_t size) noexcept {
  RecordAllocation(size);
  return __libc_memalign(alignment, size);
}

void* memalign(size_t alignment, size_t size) noexcept {
  RecordAllocation(size);
  return __libc_memalign(alignment, size);
}

void* valloc(size_t size) noexcept {
  RecordAllocation(size);
  return __libc_valloc(size);
}

void* pvalloc(size_t size) noexcept {
  RecordAllocation(size);
  return __libc_pvalloc(size);
}

}  // extern "C"

// ---- operator new / delete, every replaceable form -------------------------

void* operator new(size_t size) { return New<false>(size); }
void* operator new[](size_t size) { return New<false>(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept { return New<true>(size); }
void* operator new[](size_t size, const std::nothrow_t&) noexcept { return New<true>(size); }
void* operator new(size_t size, std::align_val_t alignment) {
  return New<false>(size, AlignmentOf(alignment));
}
void* operator new[](size_t size, std::align_val_t alignment) {
  return New<false>(size, AlignmentOf(alignment));
}
void* operator new(size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return New<true>(size, AlignmentOf(alignment));
}
void* operator new[](size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return New<true>(size, AlignmentOf(alignment));
}

void operator delete(void* ptr) noexcept { __libc_free(ptr); }
void operator delete[](void* ptr) noexcept { __libc_free(ptr); }
void operator delete(void* ptr, const std::nothrow_t&) noexcept { __libc_free(ptr); }
void operator delete[](void* ptr, const std::nothrow_t&) noexcept { __libc_free(ptr); }
void operator delete(void* ptr, size_t) noexcept { __libc_free(ptr); }
void operator delete[](void* ptr, size_t) noexcept { __libc_free(ptr); }
void operator delete(void* ptr, std::align_val_t) noexcept { __libc_free(ptr); }
void operator delete[](void* ptr, std::align_val_t) noexcept { __libc_free(ptr); }
void operator delete(void* ptr, std::align_val_t, const std::nothrow_t&) noexcept {
  __libc_free(ptr);
}
void operator delete[](void* ptr, std::align_val_t, const std::nothrow_t&) noexcept {
  __libc_free(ptr);
}
void operator delete(void* ptr, size_t, std::align_val_t) noexcept { __libc_free(ptr); }
void operator delete[](void* ptr, size_t, std::align_val_t) noexcept { __libc_free(ptr); }
