// Heap sampler: the collector behind --memprofile, Go's sampled heap
// profile for C++.
//
// HOT PATH and allocator context: HeapSampleDue() runs inside every counted
// allocation and IsSampledBlock() inside every free. Neither locks,
// allocates nor calls out on the fast path.
//
// Which allocations are sampled: as in Go, each thread counts down the bytes
// it allocates from an exponentially distributed gap with mean `rate`
// (MemProfileRate); the allocation that crosses zero is sampled and a new gap
// is drawn. An object of size S is thus sampled with probability
// 1 - exp(-S/rate), which the profile writer undoes (Go's formula). Rate 1
// samples every allocation. Only allocations the allocation counter counts
// are considered: those made in a benchmark's timed scope (timed_scope.h).
//
// A sampled block carries a header in front of the caller's pointer (32
// bytes, or a multiple of a stricter alignment): its size, its bucket, its
// offset from glibc's block and a magic word whose bit 3 is set. glibc keeps the
// chunk size, a multiple of 16, in the word before every block it returns,
// so bit 3 of that word is always clear for a block that is not sampled:
// free() tells the two apart with one load, on a cache line glibc's free is
// about to read anyway. Each sampled allocation is counted in a bucket keyed
// by (stack, size, profile segment); freeing it counts a free in the same
// bucket, so what is still in use at the end is allocs - frees.
//
// Buckets and their stacks live in one fixed, lazily mapped table that is
// never unmapped (a block sampled during the profile may be freed any time
// later). When it is full, samples are counted as dropped, never hidden.
//
// Thread-safety: Start/Stop/ForEach from one thread (the session's); the
// allocation-side functions from any thread.
#ifndef BENCHPROF_COLLECT_HEAP_SAMPLER_H_
#define BENCHPROF_COLLECT_HEAP_SAMPLER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "common/status.h"

namespace benchprof::collect {

// Deepest allocation stack recorded; deeper stacks keep their innermost frames.
inline constexpr int kMaxHeapFrames = 64;

// Starts sampling with a mean of `rate` bytes between samples (1: every
// allocation). Fails if `rate` < 1, the sampler runs, or this build has no
// allocator hooks.
Status StartHeapSampler(int64_t rate);

// Stops taking samples. Frees of sampled blocks are still matched, so the
// in-use figures read later stay right.
void StopHeapSampler();

// One bucket: sampled allocations of one size from one stack in one segment.
struct HeapBucket {
  uint32_t segment;
  uint64_t size;    // requested bytes of each object
  uint64_t allocs;  // sampled objects allocated
  uint64_t frees;   // of those, freed
  // Return addresses, innermost first: stack[0] is the return address into
  // the code that called the allocator.
  std::span<const uintptr_t> stack;
};

// Calls `visit` for every bucket. Counts are read while other threads may
// still free, so a bucket's frees can grow during the walk; call after the
// benchmarks ran.
void ForEachHeapBucket(const std::function<void(const HeapBucket&)>& visit);

// Samples that found no bucket. (Those recorded are the buckets' allocs.)
struct HeapSamplerStats {
  uint64_t dropped_table_full = 0;
  uint64_t dropped_bytes = 0;  // requested bytes of the dropped samples
};
HeapSamplerStats GetHeapSamplerStats();

namespace internal {

struct HeapThreadState {
  int64_t countdown;    // bytes until the next sample; <= 0: take the slow path
  uint32_t generation;  // the sampler start this thread's gap was drawn for
  bool sampling;        // re-entrancy guard: set while taking a sample
  uint64_t random;      // xorshift state, 0 until first used
};

// __thread: see timed_scope.h.
extern __thread HeapThreadState t_heap __attribute__((tls_model("initial-exec")));

// The countdown crossed zero: decides whether this allocation is sampled and
// draws the next gap. Cold path.
bool HeapSampleDueSlow(size_t size);

inline constexpr uint64_t kSampledMagic = 0x5a3b'd00d'be9c'0f1bULL;  // bit 3 set
static_assert((kSampledMagic & 8) != 0);

}  // namespace internal

// Whether the allocation of `size` bytes the calling thread is making now
// (already counted by RecordAllocation) must be sampled. Allocator context.
inline bool HeapSampleDue(size_t size) {
  internal::HeapThreadState& state = internal::t_heap;
  state.countdown -= static_cast<int64_t>(size);
  return __builtin_expect(state.countdown <= 0, 0) && internal::HeapSampleDueSlow(size);
}

// Allocates a sampled block of `size` bytes aligned to `alignment` (0: as
// malloc) and records its stack. Zero-fills it if `zero`. Returns nullptr,
// with errno set, when glibc cannot allocate. Allocator context.
void* AllocateSampled(size_t size, size_t alignment, bool zero) noexcept;

// Whether `block`, returned by the allocator, is a sampled block.
// Allocator context.
inline bool IsSampledBlock(const void* block) {
  if (block == nullptr) return false;
  // The word before a block is outside the object the compiler knows of:
  // hide the pointer's origin so it does not warn about (or fold) the read.
  auto address = reinterpret_cast<uintptr_t>(block);
  asm("" : "+r"(address));
  return (reinterpret_cast<const uint64_t*>(address)[-1] & 8) != 0;
}

// Frees a sampled block and counts the free in its bucket. Allocator context.
void FreeSampled(void* block) noexcept;

// The requested size of a sampled block. Allocator context.
size_t SampledBlockSize(const void* block) noexcept;

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_HEAP_SAMPLER_H_
