// HOT PATH and allocator context: everything here except Start/Stop/ForEach
// may run inside malloc or free on any thread. It never allocates through
// malloc (the tables come from mmap), takes no lock, and calls only glibc's
// own allocator (__libc_*), CaptureStack, memcpy/memset and log.
//
// A CPU profiler's SIGPROF may land while RecordSample walks the stack; it
// then records the stack being walked, this sampler and the unwinder on
// top (stack_capture.h says why its walk is safe there), so the sampling's
// CPU cost shows under the allocation that caused it instead of being lost.
//
// Shared state and who changes it:
//   g_rate        set by Start (the mean gap) and Stop (0); read by every
//                 thread's slow path.
//   g_generation  bumped by Start, so each thread draws a fresh gap.
//   g_table       the buckets (stack_bucket_table.h), mapped once by the
//                 first Start, never unmapped: sampled blocks refer to
//                 their bucket by index for as long as they live.
#include "collect/heap_sampler.h"

#include <errno.h>
#include <pthread.h>
#include <x86intrin.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <string>

#include "collect/alloc_counter.h"
#include "collect/hook_text.h"
#include "collect/stack_bucket_table.h"
#include "collect/stack_capture.h"
#include "collect/timed_scope.h"

extern "C" {
void* __libc_malloc(size_t size) noexcept;
void* __libc_calloc(size_t count, size_t size) noexcept;
void* __libc_memalign(size_t alignment, size_t size) noexcept;
void __libc_free(void* ptr) noexcept;
}

namespace benchprof::collect {
namespace internal {

__thread HeapThreadState t_heap __attribute__((tls_model("initial-exec"))) = {0, 0, false, 0};

}  // namespace internal

namespace {

using internal::t_heap;

// While the sampler is off, a thread's slow path runs once per this many
// counted bytes to notice that it was started.
constexpr int64_t kRecheckBytes = 64 * 1024;

constexpr size_t kBucketCount = size_t{1} << 20;  // 64 MiB of address space
constexpr size_t kStackWords = size_t{1} << 26;   // 512 MiB of address space

// A sampled block's header, the 32 bytes before the caller's pointer.
constexpr size_t kHeaderBytes = 32;
struct BlockHeader {
  uint64_t size;
  uint64_t bucket;
  uint64_t offset;  // from the start of glibc's block to the caller's pointer
  uint64_t magic;   // internal::kSampledMagic; the word glibc keeps its size in
};
static_assert(sizeof(BlockHeader) == kHeaderBytes);

// A bucket's counts; its tag is the requested size.
struct HeapCounts {
  std::atomic<uint64_t> allocs{0};
  std::atomic<uint64_t> frees{0};
};

std::atomic<int64_t> g_rate{0};
std::atomic<uint32_t> g_generation{0};
bool g_running = false;

constinit StackBucketTable<HeapCounts> g_table;
std::atomic<uint64_t> g_dropped{0};
std::atomic<uint64_t> g_dropped_bytes{0};

BlockHeader* HeaderOf(const void* block) {
  return reinterpret_cast<BlockHeader*>(const_cast<char*>(static_cast<const char*>(block)) -
                                        kHeaderBytes);
}

uint64_t NextRandom(internal::HeapThreadState& state) {
  if (state.random == 0) {
    state.random = __rdtsc() ^ reinterpret_cast<uintptr_t>(&state) ^ 0x9e3779b97f4a7c15ULL;
    if (state.random == 0) state.random = 1;
  }
  // xorshift64*
  uint64_t x = state.random;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  state.random = x;
  return x * 0x2545f4914f6cdd1dULL;
}

// An exponential variate with mean `rate`: the gap, in bytes, to the next
// sample of a Poisson process over allocated bytes (Go's fastexprand).
int64_t NextGap(internal::HeapThreadState& state, int64_t rate) {
  if (rate <= 1) return 0;
  // Uniform in (0, 1]: never log(0).
  const double uniform = (static_cast<double>(NextRandom(state) >> 11) + 1.0) * 0x1.0p-53;
  // Bounded so that the conversion and the countdown cannot overflow at
  // absurd rates (Go caps the mean instead; the result is the same: such a
  // thread is practically never sampled).
  constexpr double kMaxGap = 0x1.0p62;
  const double gap = -std::log(uniform) * static_cast<double>(rate);
  return static_cast<int64_t>(gap < kMaxGap ? gap : kMaxGap);
}

// Records one sampled allocation of `size` bytes; returns its bucket.
BENCHPROF_ALLOCATOR_TEXT uint64_t RecordSample(uint64_t size) {
  constexpr int kOwnFrames = 8;  // unwinder, CaptureStack, this, the hook
  uintptr_t frames[kMaxHeapFrames + kOwnFrames];
  const int result = CaptureStack(frames, kMaxHeapFrames + kOwnFrames);
  const size_t captured = result > 0 ? static_cast<size_t>(result) : 0;
  const size_t first = FirstFrameAfterHook(frames, captured, &IsAllocatorText);
  size_t depth = captured - first;
  if (depth > static_cast<size_t>(kMaxHeapFrames)) depth = kMaxHeapFrames;
  const uint64_t bucket =
      g_table.FindOrInsert(frames + first, depth, size, CurrentProfileSegment());
  if (bucket == kNoBucket) {
    g_dropped.fetch_add(1, std::memory_order_relaxed);
    g_dropped_bytes.fetch_add(size, std::memory_order_relaxed);
  } else {
    g_table.counters(bucket).allocs.fetch_add(1, std::memory_order_relaxed);
  }
  return bucket;
}

// The free path's test relies on glibc keeping a size with bit 3 clear in the
// word before each block. Checked on this system before sampling starts.
Status CheckAllocatorLayout() {
  const size_t sizes[] = {1, 24, 100, 1000, 200'000, 4'000'000};
  for (const size_t size : sizes) {
    for (const size_t alignment : {size_t{0}, size_t{64}, size_t{4096}}) {
      void* block = alignment == 0 ? __libc_malloc(size) : __libc_memalign(alignment, size);
      if (block == nullptr) continue;
      const bool clear = !IsSampledBlock(block);
      __libc_free(block);
      if (!clear) {
        return Status::Error(
            "this C library's allocator does not keep the block layout the heap sampler "
            "relies on (bit 3 of the size word is set)");
      }
    }
  }
  return Status();
}

}  // namespace

namespace internal {

BENCHPROF_ALLOCATOR_TEXT bool HeapSampleDueSlow(size_t size) {
  HeapThreadState& state = t_heap;
  if (state.sampling) {
    // An allocation made while taking a sample (by the unwinder): never
    // sampled, and it does not use up the thread's gap.
    state.countdown += static_cast<int64_t>(size);
    return false;
  }
  const int64_t rate = g_rate.load(std::memory_order_relaxed);
  if (rate == 0) {
    state.countdown = kRecheckBytes;
    return false;
  }
  const uint32_t generation = g_generation.load(std::memory_order_relaxed);
  if (state.generation != generation) {
    // The first allocation since the sampler started: its gap starts here.
    state.generation = generation;
    state.countdown = NextGap(state, rate) - static_cast<int64_t>(size);
    if (state.countdown > 0) return false;
  }
  state.countdown = NextGap(state, rate);
  return true;
}

}  // namespace internal

BENCHPROF_ALLOCATOR_TEXT void* AllocateSampled(size_t size, size_t alignment, bool zero) noexcept {
  // malloc's blocks are 16-byte aligned, and so is base + 32. A stricter
  // alignment takes a header that is a multiple of it (alignments are
  // powers of two), from an aligned block.
  const bool aligned = alignment > 16;
  const size_t header =
      aligned ? (kHeaderBytes + alignment - 1) / alignment * alignment : kHeaderBytes;
  size_t total;
  if (__builtin_add_overflow(size, header, &total) || header > (size_t{1} << 31)) {
    errno = ENOMEM;
    return nullptr;
  }
  char* base;
  if (!aligned) {
    base = static_cast<char*>(zero ? __libc_calloc(1, total) : __libc_malloc(total));
  } else {
    base = static_cast<char*>(__libc_memalign(alignment, total));
    if (base != nullptr && zero) std::memset(base + header, 0, size);
  }
  if (base == nullptr) return nullptr;

  internal::HeapThreadState& state = t_heap;
  state.sampling = true;
  const uint64_t bucket = RecordSample(size);
  state.sampling = false;

  char* block = base + header;
  *HeaderOf(block) = BlockHeader{size, bucket, header, internal::kSampledMagic};
  return block;
}

BENCHPROF_ALLOCATOR_TEXT void FreeSampled(void* block) noexcept {
  const BlockHeader* header = HeaderOf(block);
  if (header->magic != internal::kSampledMagic) {
    // Not ours after all (only a corrupted heap gets here): leave it to glibc.
    __libc_free(block);
    return;
  }
  if (header->bucket != kNoBucket) {
    g_table.counters(header->bucket).frees.fetch_add(1, std::memory_order_relaxed);
  }
  __libc_free(static_cast<char*>(block) - header->offset);
}

size_t SampledBlockSize(const void* block) noexcept { return HeaderOf(block)->size; }

Status StartHeapSampler(int64_t rate) {
  if (!kAllocHooksEnabled) {
    return Status::Error(
        "this build has no allocator hooks (BENCHPROF_ALLOC_HOOKS=OFF, as sanitizer builds "
        "are), so it cannot sample the heap");
  }
  if (rate < 1) return Status::Error("the sampling rate must be at least 1 byte");
  if (g_running) return Status::Error("the heap sampler is already running");
  if (Status unwinder = LoadStackUnwinder(); !unwinder.ok()) return unwinder;
  if (Status layout = CheckAllocatorLayout(); !layout.ok()) return layout;
  if (Status mapped = g_table.Map(kBucketCount, kStackWords, "heap sample table"); !mapped.ok()) {
    return mapped;
  }
  WarmUpStackCapture();
  // A forked child is not profiled, and another thread may have held the
  // unwinder's locks at fork(): a sample taken there would wait forever.
  static const bool stopped_in_children =
      pthread_atfork(nullptr, nullptr, [] { StopHeapSampler(); }) == 0;
  (void)stopped_in_children;
  g_running = true;
  g_generation.fetch_add(1, std::memory_order_relaxed);
  g_rate.store(rate, std::memory_order_relaxed);
  t_heap.countdown = 0;  // notice the start at this thread's next allocation
  return Status();
}

void StopHeapSampler() {
  g_rate.store(0, std::memory_order_relaxed);
  g_running = false;
}

void ForEachHeapBucket(const std::function<void(const HeapBucket&)>& visit) {
  g_table.ForEach([&](const StackBucket<HeapCounts>& bucket) {
    visit(HeapBucket{bucket.segment, bucket.tag,
                     bucket.counters.allocs.load(std::memory_order_relaxed),
                     bucket.counters.frees.load(std::memory_order_relaxed), bucket.stack});
  });
}

HeapSamplerStats GetHeapSamplerStats() {
  HeapSamplerStats stats;
  stats.dropped_table_full = g_dropped.load(std::memory_order_relaxed);
  stats.dropped_bytes = g_dropped_bytes.load(std::memory_order_relaxed);
  return stats;
}

}  // namespace benchprof::collect
