// StackBucketTable: the fixed, lock-free table in which the samplers that
// record stacks from inside the allocator or a lock (the heap sampler, the
// contention sampler) count what they see, keyed by (stack, tag, profile
// segment). The tag is the sampler's own part of the key: an object size,
// a kind of event.
//
// HOT PATH, allocator and lock context: FindOrInsert() and counters() never
// allocate and take no lock. The table and its stack arena are mapped
// (MAP_NORESERVE, so untouched pages cost nothing) by the first Map() and
// never unmapped: a bucket index stays valid for the life of the process,
// which the heap sampler needs (a sampled block frees into its bucket at any
// later time). Slots are claimed with one compare-and-swap and published
// with a release store of their key; two threads inserting the same new key
// at once may create two buckets, which the profile builders merge. When the
// table or the arena is full, FindOrInsert returns kNoBucket and the caller
// counts the sample as dropped.
//
//   StackBucketTable<MyCounters> table;           // a global: constinit
//   Status mapped = table.Map(1 << 16, 1 << 22, "contention table");
//   uint64_t bucket = table.FindOrInsert(frames, depth, tag, segment);
//   if (bucket != kNoBucket) table.counters(bucket).events.fetch_add(1);
//   table.ForEach([](const StackBucket<MyCounters>& b) { ... });
//
// Thread-safety: FindOrInsert, counters and ForEach are thread-safe; Map
// must not race with them (call it before the sampler starts).
#ifndef BENCHPROF_COLLECT_STACK_BUCKET_TABLE_H_
#define BENCHPROF_COLLECT_STACK_BUCKET_TABLE_H_

#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof::collect {

inline constexpr uint64_t kNoBucket = ~uint64_t{0};

// One bucket as ForEach() shows it.
template <typename Counters>
struct StackBucket {
  uint64_t index;
  uint64_t tag;
  uint32_t segment;
  std::span<const uintptr_t> stack;  // innermost first
  const Counters& counters;
};

template <typename Counters>
class StackBucketTable {
 public:
  constexpr StackBucketTable() = default;
  StackBucketTable(const StackBucketTable&) = delete;
  StackBucketTable& operator=(const StackBucketTable&) = delete;

  // Maps a table of `bucket_count` slots (a power of two) and an arena of
  // `stack_words` stack words, once; later calls do nothing. The error
  // names `what`.
  Status Map(size_t bucket_count, size_t stack_words, std::string_view what) {
    if (slots_ != nullptr) return Status();
    void* slots = MapNoReserve(bucket_count * sizeof(Slot));
    void* stacks = MapNoReserve(stack_words * sizeof(uintptr_t));
    if (slots == nullptr || stacks == nullptr) {
      const int error = errno;
      if (slots != nullptr) munmap(slots, bucket_count * sizeof(Slot));
      if (stacks != nullptr) munmap(stacks, stack_words * sizeof(uintptr_t));
      return Status::Error("cannot map the " + std::string(what) + ": " + std::strerror(error));
    }
    // Zero-filled anonymous memory is a table of empty slots.
    bucket_mask_ = bucket_count - 1;
    stack_words_ = stack_words;
    stacks_ = static_cast<uintptr_t*>(stacks);
    slots_ = static_cast<Slot*>(slots);
    return Status();
  }

  bool mapped() const { return slots_ != nullptr; }

  // The bucket of (frames, tag, segment), created if new; kNoBucket when
  // the table or the arena is full. REQUIRES: mapped().
  uint64_t FindOrInsert(const uintptr_t* frames, size_t depth, uint64_t tag, uint32_t segment) {
    const uint64_t hash = Hash(frames, depth, tag, segment);
    for (size_t probe = 0; probe < kMaxProbes; ++probe) {
      const size_t index = (hash + probe) & bucket_mask_;
      Slot& slot = slots_[index];
      uint64_t key = slot.key.load(std::memory_order_acquire);
      if (key == 0) {
        const size_t stack_at = stacks_used_.fetch_add(depth, std::memory_order_relaxed);
        if (stack_at + depth > stack_words_) return kNoBucket;
        uint64_t expected = 0;
        if (slot.key.compare_exchange_strong(expected, kFilling, std::memory_order_acquire)) {
          slot.tag = tag;
          slot.segment = segment;
          slot.depth = static_cast<uint32_t>(depth);
          slot.stack_at = stack_at;
          std::memcpy(stacks_ + stack_at, frames, depth * sizeof(uintptr_t));
          slot.key.store(hash, std::memory_order_release);
          return index;
        }
        key = expected;  // another thread claimed it; its words are wasted
      }
      if (key == hash && SameKey(slot, frames, depth, tag, segment)) return index;
    }
    return kNoBucket;
  }

  // The counters of a bucket FindOrInsert returned.
  Counters& counters(uint64_t bucket) { return slots_[bucket].counters; }

  // Calls `visit(const StackBucket<Counters>&)` for every published bucket.
  template <typename Visit>
  void ForEach(Visit&& visit) const {
    if (slots_ == nullptr) return;
    for (size_t i = 0; i <= bucket_mask_; ++i) {
      const Slot& slot = slots_[i];
      if ((slot.key.load(std::memory_order_acquire) & kReadyBit) == 0) continue;
      visit(StackBucket<Counters>{i, slot.tag, slot.segment,
                                  std::span<const uintptr_t>(stacks_ + slot.stack_at, slot.depth),
                                  slot.counters});
    }
  }

 private:
  static constexpr size_t kMaxProbes = 64;
  // Key states: 0 empty, kFilling being written, else the key's hash with
  // the top bit set.
  static constexpr uint64_t kFilling = 1;
  static constexpr uint64_t kReadyBit = uint64_t{1} << 63;

  struct alignas(64) Slot {
    std::atomic<uint64_t> key{0};
    uint64_t tag = 0;
    uint32_t segment = 0;
    uint32_t depth = 0;
    uint64_t stack_at = 0;  // index into stacks_
    Counters counters;
  };

  static void* MapNoReserve(size_t bytes) {
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return memory == MAP_FAILED ? nullptr : memory;
  }

  static uint64_t Hash(const uintptr_t* frames, size_t depth, uint64_t tag, uint32_t segment) {
    uint64_t h = tag * 0x9e3779b97f4a7c15ULL ^ segment;
    for (size_t i = 0; i < depth; ++i) {
      h ^= frames[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h | kReadyBit;
  }

  bool SameKey(const Slot& slot, const uintptr_t* frames, size_t depth, uint64_t tag,
               uint32_t segment) const {
    return slot.tag == tag && slot.segment == segment && slot.depth == depth &&
           std::memcmp(stacks_ + slot.stack_at, frames, depth * sizeof(uintptr_t)) == 0;
  }

  Slot* slots_ = nullptr;
  size_t bucket_mask_ = 0;
  uintptr_t* stacks_ = nullptr;
  size_t stack_words_ = 0;
  std::atomic<size_t> stacks_used_{0};
};

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_STACK_BUCKET_TABLE_H_
