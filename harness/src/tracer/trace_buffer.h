// The recorder's storage: fixed-size event records in 64 KiB chunks, and the
// fixed pool the chunks circulate in.
//
// HOT PATH (the record layout and Chunk): a thread writes records into the
// chunk it owns and publishes them by storing `count` with release
// semantics; nothing here locks or allocates.
//
// A chunk's life: free list --Pop()--> owned by one thread, which fills it
// --Submit()--> the writer, which formats it --Push()--> free list. The pool
// never grows: when the free list is empty a thread drops its events (and
// counts them) until the writer gives chunks back, so memory stays bounded
// however long the trace. Both lists are lock-free: the free list is a
// Treiber stack of chunk indices with a tag against ABA; the submitted list
// is a multi-producer stack that the single writer empties at once.
//
// The writer sleeps until a quarter of the pool waits for it (or a long
// timeout passes): the thread whose Submit() reaches that mark wakes it with
// one futex call. A writer polling every few milliseconds instead cost a
// 2-thread benchmark on 2 cores about 1.5% of its speed, each wake-up
// preempting a benchmark thread.
//
//   ChunkPool* pool = ChunkPool::Create(256);
//   Chunk* chunk = pool->Pop();              // nullptr when none is free
//   ... fill chunk->slots, chunk->count.store(n, std::memory_order_release) ...
//   pool->Submit(chunk);
//   for (Chunk* c = pool->TakeSubmitted(); c != nullptr; c = c->next_submitted) ...
//
// Thread-safety: Pop, Push and Submit are thread-safe; TakeSubmitted is for
// one consumer at a time.
#ifndef BENCHPROF_TRACER_TRACE_BUFFER_H_
#define BENCHPROF_TRACER_TRACE_BUFFER_H_

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace benchprof::tracer {

// What a record is. Fields per kind (ticks is always the event's time):
//   kThreadName   a = the thread named (0: the recording thread), b = its
//                 NameRank, c = name length; the name follows as payload
//   kThreadStart, kThreadExit, kLoopBegin, kLoopEnd, kPauseBegin, kPauseEnd
//   kRegionBegin, kRegionEnd   a = task id (0: none), b = name (const char*)
//   kTaskBegin    a = id, b = type; payload: the parent id (8 bytes)
//   kTaskEnd      a = id, b = type
//   kLog          a = task id, b = category, c = message length; payload: message
//   kRun          ticks = begin, a = end ticks, b = name, c = threads;
//                 payload: iterations, calls (8 bytes each)
//   kCpuUsage     ticks = start of the interval, a = subject tid,
//                 b = busy share (double bits), c = counter name length;
//                 payload: the counter name
//   kAllocations  a = bytes, b = objects (running totals)
//   kProcessCpu   ticks = start of the interval, b = CPUs busy (double bits)
//   kBlocked      ticks = begin, a = end ticks, b = what was waited for
//                 (const char*)
enum class RecordKind : uint8_t {
  kInvalid = 0,
  kThreadName,
  kThreadStart,
  kThreadExit,
  kRegionBegin,
  kRegionEnd,
  kTaskBegin,
  kTaskEnd,
  kLog,
  kLoopBegin,
  kLoopEnd,
  kPauseBegin,
  kPauseEnd,
  kRun,
  kCpuUsage,
  kAllocations,
  kProcessCpu,
  kBlocked,
};

// One event. Names are pointers to static-lifetime strings, so an event is
// a timestamp and four 8-byte stores: `meta` packs c (bits 0-31), the kind
// (32-39) and the number of RecordSlots of raw payload bytes that follow
// (40-47), so that for most events it is a constant.
struct Record {
  uint64_t ticks;
  uint64_t a;
  uint64_t b;
  uint64_t meta;

  uint32_t c() const { return static_cast<uint32_t>(meta); }
  RecordKind kind() const { return static_cast<RecordKind>(meta >> 32 & 0xff); }
  uint32_t payload() const { return static_cast<uint32_t>(meta >> 40 & 0xff); }
};
static_assert(sizeof(Record) == 32);

constexpr uint64_t Meta(RecordKind kind, uint32_t c = 0, uint32_t payload = 0) {
  return uint64_t{c} | uint64_t{static_cast<uint8_t>(kind)} << 32 | uint64_t{payload & 0xff} << 40;
}

// A record, or 32 bytes of an earlier record's payload.
union RecordSlot {
  Record record;
  char bytes[sizeof(Record)];
};

// Payload slots needed for `bytes` bytes.
constexpr uint32_t PayloadSlots(size_t bytes) {
  return static_cast<uint32_t>((bytes + sizeof(RecordSlot) - 1) / sizeof(RecordSlot));
}

class ChunkPool;

inline constexpr size_t kChunkBytes = 64 * 1024;

struct alignas(64) ChunkHeader {
  // Records published by the owner (release store); the writer reads up to it.
  std::atomic<uint32_t> count{0};
  // Records already formatted (writer only).
  uint32_t formatted = 0;
  // Set by the owner when it takes the chunk, before its first record.
  uint32_t generation = 0;  // the tracing session it belongs to
  pid_t tid = 0;            // the thread that fills it
  // Pool links.
  uint32_t index = 0;
  std::atomic<uint32_t> next_free{0};  // index + 1 of the next free chunk, 0: none
  struct Chunk* next_submitted = nullptr;
  ChunkPool* pool = nullptr;
};

inline constexpr uint32_t kSlotsPerChunk =
    static_cast<uint32_t>((kChunkBytes - sizeof(ChunkHeader)) / sizeof(RecordSlot));

struct Chunk {
  ChunkHeader header;
  RecordSlot slots[kSlotsPerChunk];
};
static_assert(sizeof(Chunk) <= kChunkBytes);

class ChunkPool {
 public:
  // Maps `chunks` chunks (64 KiB each; pages are touched only when used).
  // Returns nullptr if the memory cannot be mapped. Pools are never freed:
  // a thread may hold one of their chunks long after its session.
  static ChunkPool* Create(uint32_t chunks);

  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;

  uint32_t size() const { return size_; }

  // A free chunk, or nullptr if there is none. Lock-free.
  Chunk* Pop();

  // Returns `chunk` (of this pool) to the free list, emptied. Lock-free.
  void Push(Chunk* chunk);

  // Hands a filled chunk to the writer, waking it if a quarter of the pool
  // now waits for it. Lock-free; async-signal-safe (the wake-up is one
  // futex system call).
  void Submit(Chunk* chunk);

  // Blocks the writer until a quarter of the pool is submitted, WakeWriter()
  // is called, or `timeout` passes, whichever comes first.
  void WaitForSubmissions(std::chrono::milliseconds timeout);

  // Ends the writer's current or next WaitForSubmissions() at once.
  void WakeWriter();

  // Every submitted chunk, oldest first, linked by next_submitted; one
  // thread's chunks stay in the order it submitted them.
  Chunk* TakeSubmitted();

 private:
  ChunkPool(Chunk* chunks, uint32_t size);

  Chunk* const chunks_;
  const uint32_t size_;
  // Low 32 bits: index + 1 of the first free chunk (0: empty); high 32: a
  // tag bumped by every change, so a stale compare-and-swap fails.
  alignas(64) std::atomic<uint64_t> free_head_{0};
  alignas(64) std::atomic<Chunk*> submitted_head_{nullptr};
  // Chunks submitted since the writer last took them.
  std::atomic<uint32_t> submitted_count_{0};
  // The futex the writer sleeps on: 1 once it is to wake.
  std::atomic<uint32_t> writer_doorbell_{0};
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_TRACE_BUFFER_H_
