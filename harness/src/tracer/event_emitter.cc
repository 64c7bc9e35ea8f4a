// HOT PATH (PrepareSlow and what it calls): runs on benchmark threads; takes
// no lock and allocates nothing. See event_emitter.h.
#include "tracer/event_emitter.h"

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

#include <cstring>

#include "benchprof/trace.h"
#include "tracer/trace_clock.h"
#include "tracer/trace_recorder.h"

namespace benchprof::tracer {

__thread ThreadSlot* t_slot __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

using trace_internal::g_recording;

// Bumped at every start: a slot or chunk of another generation holds an
// earlier trace's state.
std::atomic<uint32_t> g_generation{0};
std::atomic<ChunkPool*> g_pool{nullptr};
std::atomic<uint64_t> g_dropped{0};

pthread_key_t g_exit_key;

// Publishes the `slots` RecordSlots written at the slot's position.
inline void Commit(ThreadSlot& slot, uint32_t slots) {
  slot.pos += slots;
  slot.chunk->header.count.store(slot.pos, std::memory_order_release);
}

void WriteThreadName(ThreadSlot& slot) {
  char name[kMaxThreadNameBytes];
  NameRank rank;
  const size_t length = CopySlotName(slot, name, &rank);
  RecordSlot* at = &slot.chunk->slots[slot.pos];
  at->record =
      Record{0, 0, static_cast<uint64_t>(rank),
             Meta(RecordKind::kThreadName, static_cast<uint32_t>(length), PayloadSlots(length))};
  std::memcpy(at[1].bytes, name, length);
  Commit(slot, 1 + PayloadSlots(length));
}

// Takes a fresh chunk with room for `slots` more (plus the thread's name if
// this is its first event of the trace). False: none free, event dropped.
bool Refill(ThreadSlot& slot, uint32_t slots) {
  const uint32_t generation = g_generation.load(std::memory_order_acquire);
  ChunkPool* pool = g_pool.load(std::memory_order_acquire);
  const bool first_event = slot.generation != generation;
  if (first_event && slot.chunk != nullptr) {
    // Left from an earlier trace, whose writer has finished with it.
    Chunk* stale = slot.chunk;
    slot.chunk = nullptr;
    slot.published.store(nullptr, std::memory_order_release);
    stale->header.pool->Push(stale);
  }
  const uint32_t needed = slots + (first_event ? 1 + kThreadNameSlots : 0);
  if (slot.chunk == nullptr || slot.pos + needed > kSlotsPerChunk) {
    Chunk* fresh = pool->Pop();
    if (fresh == nullptr) {
      // Hand in the full chunk all the same: only submitted chunks come
      // back to the pool, and a pool whose chunks all sit full with their
      // threads would drop every later event.
      if (Chunk* full = slot.chunk; full != nullptr) {
        slot.chunk = nullptr;
        slot.pos = 0;
        slot.published.store(nullptr, std::memory_order_release);
        full->header.pool->Submit(full);
      }
      return false;
    }
    fresh->header.generation = generation;
    fresh->header.tid = slot.tid;
    Chunk* full = slot.chunk;
    slot.chunk = fresh;
    slot.pos = 0;
    slot.published.store(fresh, std::memory_order_release);
    if (full != nullptr) full->header.pool->Submit(full);
  }
  if (first_event) {
    slot.generation = generation;
    WriteThreadName(slot);
  }
  return true;
}

// A name the exiting thread gave itself after it registered, recorded
// before its exit so the trace shows it.
void RecordLateSystemName(ThreadSlot& slot) {
  char name[kMaxThreadNameBytes];
  NameRank rank;
  CopySlotName(slot, name, &rank);
  char system_name[16] = {};
  if (rank == NameRank::kDefault && prctl(PR_GET_NAME, system_name) == 0 &&
      std::strcmp(system_name, ProcessThreadName()) != 0) {
    SetSlotName(slot, system_name, NameRank::kSystem);
    RecordThreadNameOf(slot.tid, system_name);
  }
}

// Hands the exiting thread's chunk to the writer and releases its slot.
void ReleaseExitingSlot(ThreadSlot& slot) {
  slot.in_slow_path.store(1, std::memory_order_seq_cst);
  if (g_recording.load(std::memory_order_seq_cst) && slot.chunk != nullptr) {
    // Hand the chunk to the writer now. (Once recording has stopped the
    // writer reads it where it is, and the next start recycles it.)
    Chunk* chunk = slot.chunk;
    slot.chunk = nullptr;
    slot.pos = 0;
    slot.published.store(nullptr, std::memory_order_release);
    if (chunk->header.generation == g_generation.load(std::memory_order_relaxed)) {
      chunk->header.pool->Submit(chunk);
    } else {
      chunk->header.pool->Push(chunk);
    }
  }
  slot.limit.store(0, std::memory_order_relaxed);
  slot.in_slow_path.store(0, std::memory_order_release);
  t_slot = nullptr;
  slot.state.store(SlotState::kExited, std::memory_order_release);
}

// Runs when a thread that has a slot ends (pthread key destructor).
void OnThreadExit(void* raw) {
  auto* slot = static_cast<ThreadSlot*>(raw);
  if (t_slot != slot) return;
  if (!slot->internal && g_recording.load(std::memory_order_relaxed)) {
    RecordLateSystemName(*slot);
    EmitSimple(RecordKind::kThreadExit, ReadTicks(), 0, 0);
  }
  slot->exit_cpu_nanos = CurrentThreadCpuNanos();
  slot->exit_ticks = ReadTicks();
  ReleaseExitingSlot(*slot);
}

// Makes every thread's next event take the slow path.
void ForceSlowPaths() {
  const uint32_t used = g_thread_slots_used.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < used; ++i) g_thread_slots[i].limit.store(0, std::memory_order_relaxed);
}

void WaitForSlowPaths() {
  const uint32_t used = g_thread_slots_used.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < used; ++i) {
    while (g_thread_slots[i].in_slow_path.load(std::memory_order_seq_cst) != 0) sched_yield();
  }
}

}  // namespace

ThreadSlot* ClaimSlotForCurrentThread(bool internal, bool started_while_tracing) {
  ThreadSlot* slot = ClaimSlot(internal, started_while_tracing);
  if (slot == nullptr) return nullptr;
  t_slot = slot;
  // No allocation: the key is one of the first 32 (created at the first
  // start), which glibc keeps inside the thread descriptor.
  pthread_setspecific(g_exit_key, slot);
  return slot;
}

[[gnu::noinline]] ThreadSlot* PrepareSlow(uint32_t slots) {
  if (!g_recording.load(std::memory_order_relaxed)) return nullptr;
  ThreadSlot* slot = t_slot;
  if (slot == nullptr && (slot = ClaimSlotForCurrentThread(false)) == nullptr) {
    g_dropped.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  slot->in_slow_path.store(1, std::memory_order_seq_cst);
  ThreadSlot* ready = nullptr;
  if (g_recording.load(std::memory_order_seq_cst)) {
    if (Refill(*slot, slots)) {
      slot->limit.store(kSlotsPerChunk, std::memory_order_relaxed);
      ready = slot;
    } else {
      slot->limit.store(0, std::memory_order_relaxed);
      g_dropped.fetch_add(1, std::memory_order_relaxed);
    }
  }
  slot->in_slow_path.store(0, std::memory_order_release);
  return ready;
}

[[gnu::noinline]] void EmitSimpleSlow(RecordKind kind, uint64_t ticks, uint64_t a, uint64_t b) {
  if (ThreadSlot* slot = PrepareSlow(1)) {
    Append(slot, 1, [&](RecordSlot* at) { at->record = Record{ticks, a, b, Meta(kind)}; });
  }
}

bool InstallThreadExitHook() {
  static const bool key_ready = pthread_key_create(&g_exit_key, &OnThreadExit) == 0;
  return key_ready;
}

uint32_t BeginGeneration(ChunkPool& pool) {
  g_dropped.store(0, std::memory_order_relaxed);
  const uint32_t generation = g_generation.fetch_add(1, std::memory_order_acq_rel) + 1;
  g_pool.store(&pool, std::memory_order_release);
  return generation;
}

void StopChunkHandoffs() {
  ForceSlowPaths();
  WaitForSlowPaths();
  // A slow path that began before the stop may have restored its limit.
  ForceSlowPaths();
}

uint64_t DroppedEvents() { return g_dropped.load(std::memory_order_relaxed); }

}  // namespace benchprof::tracer
