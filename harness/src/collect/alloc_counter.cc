// HOT PATH and allocator context: everything in this file may run inside
// malloc. No function here allocates through malloc, takes a lock, or throws;
// new memory comes from mmap. See alloc_counter.h for the counting rules.
#include "collect/alloc_counter.h"

#include <pthread.h>
#include <sys/mman.h>

#include <new>

namespace benchprof::collect {
namespace internal {

__thread ThreadCounter t_counter __attribute__((tls_model("initial-exec"))) = {nullptr, false};

}  // namespace internal

namespace {

using internal::CounterSlot;
using internal::t_counter;

// Slots live in chunks that are never unmapped, so the session can read any
// slot at any time without racing a thread's exit.
constexpr size_t kSlotsPerChunk = 256;

struct SlotChunk {
  CounterSlot slots[kSlotsPerChunk];
  std::atomic<SlotChunk*> next{nullptr};
};

// Constant-initialised: malloc may be called before any dynamic initialiser.
constinit SlotChunk g_first_chunk;
constinit std::atomic<uint64_t> g_uncounted{0};

pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
pthread_key_t g_release_key;
bool g_release_key_ready = false;

// Runs at thread exit: hand the slot, counts and all, to a later thread.
void ReleaseSlot(void* slot) {
  t_counter.slot = nullptr;
  static_cast<CounterSlot*>(slot)->in_use.store(false, std::memory_order_release);
}

void CreateReleaseKey() {
  g_release_key_ready = pthread_key_create(&g_release_key, &ReleaseSlot) == 0;
}

CounterSlot* TryClaimIn(SlotChunk& chunk) {
  for (CounterSlot& slot : chunk.slots) {
    bool expected = false;
    if (!slot.in_use.load(std::memory_order_relaxed) &&
        slot.in_use.compare_exchange_strong(expected, true, std::memory_order_acquire)) {
      return &slot;
    }
  }
  return nullptr;
}

// Maps a new chunk, claims its first slot and links it at the end of the list.
CounterSlot* ClaimInNewChunk(SlotChunk& last) {
  void* memory =
      mmap(nullptr, sizeof(SlotChunk), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  auto* chunk = new (memory) SlotChunk;  // placement new: no allocation
  chunk->slots[0].in_use.store(true, std::memory_order_relaxed);
  SlotChunk* tail = &last;
  for (;;) {
    SlotChunk* expected = nullptr;
    if (tail->next.compare_exchange_weak(expected, chunk, std::memory_order_acq_rel)) break;
    if (expected != nullptr) tail = expected;
  }
  return &chunk->slots[0];
}

CounterSlot* FindFreeSlot() {
  SlotChunk* chunk = &g_first_chunk;
  for (;;) {
    if (CounterSlot* slot = TryClaimIn(*chunk)) return slot;
    SlotChunk* next = chunk->next.load(std::memory_order_acquire);
    if (next == nullptr) return ClaimInNewChunk(*chunk);
    chunk = next;
  }
}

}  // namespace

namespace internal {

CounterSlot* ClaimSlot() {
  ThreadCounter& state = t_counter;
  if (state.claiming) return nullptr;  // an allocation made by the claim itself
  state.claiming = true;
  CounterSlot* slot = FindFreeSlot();
  if (slot != nullptr) {
    state.slot = slot;
    // May allocate (glibc's second-level key table); the guard above makes
    // such an allocation pass through uncounted.
    pthread_once(&g_key_once, &CreateReleaseKey);
    if (g_release_key_ready) pthread_setspecific(g_release_key, slot);
  } else {
    g_uncounted.fetch_add(1, std::memory_order_relaxed);
  }
  state.claiming = false;
  return slot;
}

}  // namespace internal

void UnrecordAllocation(size_t bytes) {
  internal::CounterSlot* slot = t_counter.slot;
  if (slot == nullptr || !InTimedScope()) return;
  slot->allocs.store(slot->allocs.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
  slot->bytes.store(slot->bytes.load(std::memory_order_relaxed) - bytes, std::memory_order_relaxed);
}

AllocTotals TotalAllocations() {
  AllocTotals totals;
  for (SlotChunk* chunk = &g_first_chunk; chunk != nullptr;
       chunk = chunk->next.load(std::memory_order_acquire)) {
    for (const CounterSlot& slot : chunk->slots) {
      totals.allocs += slot.allocs.load(std::memory_order_relaxed);
      totals.bytes += slot.bytes.load(std::memory_order_relaxed);
    }
  }
  return totals;
}

uint64_t UncountedAllocations() { return g_uncounted.load(std::memory_order_relaxed); }

}  // namespace benchprof::collect
