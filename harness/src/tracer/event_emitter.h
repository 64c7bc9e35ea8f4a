// The recorder's write path: how an event gets from a thread into the chunk
// it owns, and how a trace's start and stop hand chunks over without locks.
// trace_recorder.cc encodes each kind of event and writes it with Emit() or
// EmitSimple(); this file owns the calling thread's slot from its first
// event to its exit.
//
// HOT PATH: Emit() and EmitSimple() run on benchmark threads, possibly
// inside a timed loop. Their common path reads the thread's slot, writes one
// record into the thread's own chunk and publishes it with a release store:
// no lock, no allocation, no shared cache line. The slow path (PrepareSlow,
// once per 2,046 records and for a thread's first event) takes a chunk from
// the lock-free pool; it never allocates either (slots are static, chunks
// preallocated), so even a thread's first event leaves allocs/op unchanged.
// Both are inline so that every event function compiles to one straight
// path with the slow path as its only call.
//
// Stopping without locks: StopRecording clears g_recording, then
// StopChunkHandoffs() forces every slot's `limit` to 0 so the next event of
// every thread takes the slow path (which sees that recording is off), and
// waits until no thread is inside its slow path. From then on no chunk
// changes hands; a thread may still be writing one record past its
// published count, which the writer never reads.
//
//   EmitSimple(RecordKind::kRegionBegin, ReadTicks(), task_id, name_pointer);
//   Emit(2, [&](RecordSlot* at) { at->record = ...; std::memcpy(at[1].bytes, ...); });
//
// Thread-safety: Emit, EmitSimple, PrepareSlow, EmitSimpleSlow and
// ClaimSlotForCurrentThread act on the calling thread and are thread-safe;
// InstallThreadExitHook, BeginGeneration, StopChunkHandoffs and
// DroppedEvents are for StartRecording and StopRecording only.
#ifndef BENCHPROF_TRACER_EVENT_EMITTER_H_
#define BENCHPROF_TRACER_EVENT_EMITTER_H_

#include <atomic>
#include <cstdint>

#include "tracer/thread_table.h"
#include "tracer/trace_buffer.h"

namespace benchprof::tracer {

// The calling thread's slot; nullptr until it claims one (its first event,
// or its start while tracing), and again once it has exited.
extern __thread ThreadSlot* t_slot __attribute__((tls_model("initial-exec")));

// RecordSlots of payload a thread name takes (kMaxThreadNameBytes).
inline constexpr uint32_t kThreadNameSlots = PayloadSlots(kMaxThreadNameBytes);

// ---- the calling thread's slot ----

// Claims a slot for the calling thread (ClaimSlot()) and arranges for its
// exit to be recorded. Returns nullptr if every slot is taken. Does not
// allocate. REQUIRES: InstallThreadExitHook() succeeded.
ThreadSlot* ClaimSlotForCurrentThread(bool internal, bool started_while_tracing = false);

// The slow path of Emit(): the thread has no slot yet, its chunk is full,
// tracing has just started or stopped. Returns the slot ready for `slots`
// RecordSlots, or nullptr if the event is not to be recorded (recording is
// off, or no chunk is free: the event is counted as dropped).
[[gnu::noinline]] ThreadSlot* PrepareSlow(uint32_t slots);

// EmitSimple() when its slot is not ready: PrepareSlow(1), then the record.
[[gnu::noinline]] void EmitSimpleSlow(RecordKind kind, uint64_t ticks, uint64_t a, uint64_t b);

// ---- the hot path ----

// Writes and publishes one event of `slots` RecordSlots at the slot's
// position. Locals: the record's stores then cannot force the slot to be
// read again.
template <typename Fill>
[[gnu::always_inline]] inline void Append(ThreadSlot* slot, uint32_t slots, const Fill& fill) {
  const uint32_t pos = slot->pos;
  Chunk* const chunk = slot->chunk;
  fill(&chunk->slots[pos]);
  slot->pos = pos + slots;
  chunk->header.count.store(pos + slots, std::memory_order_release);
}

// True if `slot` cannot take `slots` more RecordSlots as it is.
[[gnu::always_inline]] inline bool NeedsSlowPath(const ThreadSlot* slot, uint32_t slots) {
  return __builtin_expect(
      slot == nullptr || slot->pos + slots > slot->limit.load(std::memory_order_relaxed), 0);
}

// Appends one event of `slots` RecordSlots on the calling thread, filled in
// by `fill` (called with the first RecordSlot; payload slots follow it).
// Records nothing while no trace is recorded.
template <typename Fill>
[[gnu::always_inline]] inline void Emit(uint32_t slots, const Fill& fill) {
  ThreadSlot* slot = t_slot;
  if (NeedsSlowPath(slot, slots) && (slot = PrepareSlow(slots)) == nullptr) return;
  Append(slot, slots, fill);
}

// An event of one record: regions, task ends, markers. The slow path is a
// tail call, so the common path saves no registers.
[[gnu::always_inline]] inline void EmitSimple(RecordKind kind, uint64_t ticks, uint64_t a,
                                              uint64_t b) {
  ThreadSlot* slot = t_slot;
  if (NeedsSlowPath(slot, 1)) return EmitSimpleSlow(kind, ticks, a, b);
  Append(slot, 1, [&](RecordSlot* at) { at->record = Record{ticks, a, b, Meta(kind)}; });
}

// ---- for StartRecording and StopRecording ----

// Creates, at the first call, the thread-specific key whose destructor
// records a thread's exit and hands in its chunk. False if it could not be
// created (then nothing is to be recorded).
bool InstallThreadExitHook();

// Starts a new generation of events, written into chunks of `pool`, with no
// event dropped yet. Returns the generation (the TraceWriter's).
uint32_t BeginGeneration(ChunkPool& pool);

// After g_recording was cleared: returns once no thread is inside its slow
// path or can enter one with recording on, so no chunk changes hands any
// more.
void StopChunkHandoffs();

// Events dropped in the current generation (no chunk was free, or no slot).
uint64_t DroppedEvents();

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_EVENT_EMITTER_H_
