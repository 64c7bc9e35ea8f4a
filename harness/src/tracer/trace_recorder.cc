// HOT PATH: the trace_internal entry points (BeginRegion, EndRegion, ...),
// RecordMarker and Emit() run on benchmark threads, possibly inside a timed
// loop. Their common path reads the clock and the thread's slot, writes one
// record into the thread's own chunk and publishes it with a release store:
// no lock, no allocation, no shared cache line. The slow path (PrepareSlow,
// once per 2,046 records and for a thread's first event) takes a chunk from
// the lock-free pool; it never allocates either (slots are static, chunks
// preallocated), so even a thread's first event leaves allocs/op unchanged.
//
// Stopping without locks: Stop() clears g_recording, forces every slot's
// `limit` to 0 so the next event of every thread takes the slow path (which
// sees that recording is off), and waits until no thread is inside its slow
// path. From then on no chunk changes hands; a thread may still be writing
// one record past its published count, which the writer never reads.
#include "tracer/trace_recorder.h"

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <vector>

#include "benchprof/trace.h"
#include "common/process_threads.h"
#include "tracer/cpu_usage_sampler.h"
#include "tracer/thread_table.h"
#include "tracer/trace_writer.h"

namespace benchprof::trace_internal {
constinit std::atomic<bool> g_recording{false};
}  // namespace benchprof::trace_internal

namespace benchprof::tracer {
namespace {

using trace_internal::g_recording;

__thread ThreadSlot* t_slot __attribute__((tls_model("initial-exec"))) = nullptr;
__thread int t_creating_internal __attribute__((tls_model("initial-exec"))) = 0;

// Bumped at every start: a slot or chunk of another generation holds an
// earlier trace's state.
std::atomic<uint32_t> g_generation{0};
std::atomic<ChunkPool*> g_pool{nullptr};
std::atomic<uint64_t> g_dropped{0};
std::atomic<uint64_t> g_next_task_id{1};

pthread_key_t g_exit_key;

// The running trace; only StartRecording and StopRecording touch it.
struct Session {
  TraceClock clock;
  std::function<void()> on_internal_thread_start;
  std::unique_ptr<TraceWriter> writer;
  std::unique_ptr<CpuUsageSampler> sampler;
};
Session* g_session = nullptr;

uint64_t Pointer(const char* name) { return reinterpret_cast<uint64_t>(name); }

constexpr uint32_t kNameSlots = PayloadSlots(kMaxThreadNameBytes);

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
  const uint32_t needed = slots + (first_event ? 1 + kNameSlots : 0);
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

ThreadSlot* ClaimForCurrentThread(bool internal, bool started_while_tracing = false) {
  ThreadSlot* slot = ClaimSlot(internal, started_while_tracing);
  if (slot == nullptr) return nullptr;
  t_slot = slot;
  // No allocation: the key is one of the first 32 (created at the first
  // start), which glibc keeps inside the thread descriptor.
  pthread_setspecific(g_exit_key, slot);
  return slot;
}

// The slow path of Emit(): the thread has no slot yet, its chunk is full,
// tracing has just started or stopped. Returns the slot ready for `slots`
// RecordSlots, or nullptr if the event is not to be recorded.
[[gnu::noinline]] ThreadSlot* PrepareSlow(uint32_t slots) {
  if (!g_recording.load(std::memory_order_relaxed)) return nullptr;
  ThreadSlot* slot = t_slot;
  if (slot == nullptr && (slot = ClaimForCurrentThread(false)) == nullptr) {
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

[[gnu::always_inline]] inline bool NeedsSlowPath(const ThreadSlot* slot, uint32_t slots) {
  return __builtin_expect(
      slot == nullptr || slot->pos + slots > slot->limit.load(std::memory_order_relaxed), 0);
}

// Appends one event of `slots` RecordSlots, filled in by `fill`.
template <typename Fill>
[[gnu::always_inline]] inline void Emit(uint32_t slots, const Fill& fill) {
  ThreadSlot* slot = t_slot;
  if (NeedsSlowPath(slot, slots) && (slot = PrepareSlow(slots)) == nullptr) return;
  Append(slot, slots, fill);
}

[[gnu::noinline]] void EmitSimpleSlow(RecordKind kind, uint64_t ticks, uint64_t a, uint64_t b) {
  if (ThreadSlot* slot = PrepareSlow(1)) {
    Append(slot, 1, [&](RecordSlot* at) { at->record = Record{ticks, a, b, Meta(kind)}; });
  }
}

// An event of one record: regions, task ends, markers. The slow path is a
// tail call, so the common path saves no registers.
[[gnu::always_inline]] inline void EmitSimple(RecordKind kind, uint64_t ticks, uint64_t a,
                                              uint64_t b) {
  ThreadSlot* slot = t_slot;
  if (NeedsSlowPath(slot, 1)) return EmitSimpleSlow(kind, ticks, a, b);
  Append(slot, 1, [&](RecordSlot* at) { at->record = Record{ticks, a, b, Meta(kind)}; });
}

// Runs when a thread that has a slot ends (pthread key destructor).
void OnThreadExit(void* raw) {
  auto* slot = static_cast<ThreadSlot*>(raw);
  if (t_slot != slot) return;
  if (!slot->internal && g_recording.load(std::memory_order_relaxed)) {
    // A name the thread gave itself after it registered.
    char name[kMaxThreadNameBytes];
    NameRank rank;
    CopySlotName(*slot, name, &rank);
    char system_name[16] = {};
    if (rank == NameRank::kDefault && prctl(PR_GET_NAME, system_name) == 0 &&
        std::strcmp(system_name, ProcessThreadName()) != 0) {
      SetSlotName(*slot, system_name, NameRank::kSystem);
      RecordThreadNameOf(slot->tid, system_name);
    }
    EmitSimple(RecordKind::kThreadExit, ReadTicks(), 0, 0);
  }
  slot->exit_cpu_nanos = CurrentThreadCpuNanos();
  slot->exit_ticks = ReadTicks();
  slot->in_slow_path.store(1, std::memory_order_seq_cst);
  if (g_recording.load(std::memory_order_seq_cst) && slot->chunk != nullptr) {
    // Hand the chunk to the writer now. (Once recording has stopped the
    // writer reads it where it is, and the next start recycles it.)
    Chunk* chunk = slot->chunk;
    slot->chunk = nullptr;
    slot->pos = 0;
    slot->published.store(nullptr, std::memory_order_release);
    if (chunk->header.generation == g_generation.load(std::memory_order_relaxed)) {
      chunk->header.pool->Submit(chunk);
    } else {
      chunk->header.pool->Push(chunk);
    }
  }
  slot->limit.store(0, std::memory_order_relaxed);
  slot->in_slow_path.store(0, std::memory_order_release);
  t_slot = nullptr;
  slot->state.store(SlotState::kExited, std::memory_order_release);
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

// Slots of threads that ended while no sampler ran are freed here, their
// chunks returned (no thread runs a slow path while recording is off).
void RecycleExitedSlots() {
  const uint32_t used = g_thread_slots_used.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < used; ++i) {
    ThreadSlot& slot = g_thread_slots[i];
    if (slot.state.load(std::memory_order_acquire) != SlotState::kExited) continue;
    if (slot.chunk != nullptr) slot.chunk->header.pool->Push(slot.chunk);
    slot.chunk = nullptr;
    slot.published.store(nullptr, std::memory_order_relaxed);
    slot.state.store(SlotState::kFree, std::memory_order_release);
  }
}

// One pool per requested size, kept for the process's life: threads may
// still hold chunks of an earlier trace's pool.
ChunkPool* PoolFor(uint32_t chunks) {
  static auto* const pools = new std::vector<ChunkPool*>;  // never destroyed, as the pools
  for (ChunkPool* pool : *pools) {
    if (pool->size() == chunks) return pool;
  }
  ChunkPool* pool = ChunkPool::Create(chunks);
  if (pool != nullptr) pools->push_back(pool);
  return pool;
}

// The first kMaxLogMessageBytes of `message`, not cutting a UTF-8 sequence.
std::string_view Truncated(std::string_view message) {
  if (message.size() <= kMaxLogMessageBytes) return message;
  size_t length = kMaxLogMessageBytes;
  while (length > 0 && (static_cast<unsigned char>(message[length]) & 0xC0) == 0x80) --length;
  return message.substr(0, length);
}

}  // namespace

// ---- start and stop ----

Status StartRecording(std::unique_ptr<TraceFormatter> formatter, const RecorderOptions& options) {
  if (g_session != nullptr) return Status::Error("a trace is already being recorded");
  if (options.chunk_count < 2) return Status::Error("the trace needs at least 2 chunks");
  if (options.sample_period.count() <= 0) return Status::Error("sample period must be positive");
  static const bool key_ready = pthread_key_create(&g_exit_key, &OnThreadExit) == 0;
  if (!key_ready) return Status::Error("cannot create a thread-specific key");
  ChunkPool* pool = PoolFor(options.chunk_count);
  if (pool == nullptr) return Status::Error("cannot map the trace buffers");

  RememberProcessThreadName();
  RecycleExitedSlots();
  for (Chunk* chunk = pool->TakeSubmitted(); chunk != nullptr;) {
    Chunk* next = chunk->header.next_submitted;
    pool->Push(chunk);
    chunk = next;
  }

  auto* session = new Session{TraceClock::Calibrate(options.clock),
                              options.on_internal_thread_start, nullptr, nullptr};
  SetTickSource(session->clock.source());
  g_dropped.store(0, std::memory_order_relaxed);
  const uint32_t generation = g_generation.fetch_add(1, std::memory_order_acq_rel) + 1;
  g_pool.store(pool, std::memory_order_release);
  g_session = session;

  if (formatter) {
    formatter->Begin(TraceInfo{getpid(), options.process_name,
                               std::string(ClockSourceName(session->clock.source())),
                               UsableCpuCount()});
  }
  session->writer =
      std::make_unique<TraceWriter>(*pool, generation, session->clock, std::move(formatter));
  g_recording.store(true, std::memory_order_seq_cst);
  // The sampler lists the threads running now: after recording is on, so a
  // thread started meanwhile is listed or registers itself, and before the
  // recorder starts threads of its own. Until the writer starts, filled
  // chunks wait in the pool.
  if (options.sample_cpu) {
    session->sampler = std::make_unique<CpuUsageSampler>(session->clock, options.sample_period,
                                                         options.process_counters);
  }
  session->writer->Start(session->on_internal_thread_start);
  if (session->sampler) session->sampler->Start(session->on_internal_thread_start);
  return Status();
}

StatusOr<RecorderStats> StopRecording() {
  Session* session = g_session;
  if (session == nullptr) return Status::Error("no trace is being recorded");
  const uint64_t end_ticks = ReadTicks();
  if (session->sampler) session->sampler->Stop(end_ticks);

  g_recording.store(false, std::memory_order_seq_cst);
  ForceSlowPaths();
  WaitForSlowPaths();
  // A slow path that began before the stop may have restored its limit.
  ForceSlowPaths();

  const int64_t drift = session->clock.MeasureDrift();
  RecorderStats stats;
  stats.dropped_events = g_dropped.load(std::memory_order_relaxed);
  const Status written = session->writer->Finish(end_ticks, stats.dropped_events, drift);
  stats.events_written = session->writer->events_written();
  stats.unmatched_ends = session->writer->unmatched_ends();
  stats.clock = std::string(ClockSourceName(session->clock.source()));
  g_session = nullptr;
  delete session;
  if (!written.ok()) return written;
  return stats;
}

bool IsRecording() { return g_recording.load(std::memory_order_relaxed); }

// ---- session and sampler events ----

void RecordMarker(RecordKind kind) noexcept { EmitSimple(kind, ReadTicks(), 0, 0); }

void NameCurrentThread(std::string_view name) noexcept {
  ThreadSlot* slot = t_slot;
  if (slot == nullptr) {
    if (!g_recording.load(std::memory_order_relaxed)) return;
    if ((slot = ClaimForCurrentThread(false)) == nullptr) return;
  }
  SetSlotName(*slot, name, NameRank::kExplicit);
  if (!g_recording.load(std::memory_order_relaxed)) return;
  Emit(1 + kNameSlots, [&](RecordSlot* at) {
    char copy[kMaxThreadNameBytes];
    const size_t length = CopySlotName(*slot, copy);
    at->record = Record{0, 0, static_cast<uint64_t>(NameRank::kExplicit),
                        Meta(RecordKind::kThreadName, static_cast<uint32_t>(length), kNameSlots)};
    std::memcpy(at[1].bytes, copy, length);
  });
}

void RecordThreadNameOf(pid_t tid, std::string_view name, NameRank rank) noexcept {
  name = name.substr(0, kMaxThreadNameBytes);
  Emit(1 + kNameSlots, [&](RecordSlot* at) {
    at->record =
        Record{0, static_cast<uint64_t>(tid), static_cast<uint64_t>(rank),
               Meta(RecordKind::kThreadName, static_cast<uint32_t>(name.size()), kNameSlots)};
    std::memcpy(at[1].bytes, name.data(), name.size());
  });
}

void RecordRun(uint64_t begin_ticks, uint64_t end_ticks, const char* name, uint64_t iterations,
               uint64_t calls, uint32_t threads) noexcept {
  Emit(2, [&](RecordSlot* at) {
    at->record = Record{begin_ticks, end_ticks, Pointer(name), Meta(RecordKind::kRun, threads, 1)};
    std::memcpy(at[1].bytes, &iterations, 8);
    std::memcpy(at[1].bytes + 8, &calls, 8);
  });
}

void RecordCpuUsage(uint64_t start_ticks, pid_t subject_tid, double busy,
                    std::string_view counter_name) noexcept {
  counter_name = counter_name.substr(0, 96);
  const uint32_t payload = PayloadSlots(counter_name.size());
  Emit(1 + payload, [&](RecordSlot* at) {
    at->record =
        Record{start_ticks, static_cast<uint64_t>(subject_tid), std::bit_cast<uint64_t>(busy),
               Meta(RecordKind::kCpuUsage, static_cast<uint32_t>(counter_name.size()), payload)};
    std::memcpy(at[1].bytes, counter_name.data(), counter_name.size());
  });
}

void RecordAllocations(uint64_t ticks, const ProcessCounters& totals) noexcept {
  EmitSimple(RecordKind::kAllocations, ticks, totals.bytes, totals.objects);
}

void RecordProcessCpu(uint64_t start_ticks, double cpus_busy) noexcept {
  EmitSimple(RecordKind::kProcessCpu, start_ticks, 0, std::bit_cast<uint64_t>(cpus_busy));
}

// ---- threads ----

void OnThreadStart() noexcept {
  if (!g_recording.load(std::memory_order_relaxed) || t_slot != nullptr) return;
  if (ClaimForCurrentThread(false, /*started_while_tracing=*/true) == nullptr) return;
  RecordMarker(RecordKind::kThreadStart);
}

InternalThreadCreation::InternalThreadCreation() { ++t_creating_internal; }
InternalThreadCreation::~InternalThreadCreation() { --t_creating_internal; }

bool CreatingInternalThread() noexcept { return t_creating_internal > 0; }

bool WantsNewThread() noexcept {
  return g_recording.load(std::memory_order_relaxed) && t_creating_internal == 0;
}

void BeginInternalThread(std::string_view name, bool records) {
  if (!records || t_slot != nullptr) return;
  if (ClaimForCurrentThread(/*internal=*/true) == nullptr) return;
  SetSlotName(*t_slot, name, NameRank::kExplicit);
}

}  // namespace benchprof::tracer

// ---- the public API's entry points (benchprof/trace.h) ----

namespace benchprof::trace_internal {

using tracer::Emit;
using tracer::EmitSimple;
using tracer::Pointer;
using tracer::Record;
using tracer::RecordKind;
using tracer::RecordSlot;

uint64_t BeginTask(const char* type, uint64_t parent_id) noexcept {
  const uint64_t now = tracer::ReadTicks();
  const uint64_t id = tracer::g_next_task_id.fetch_add(1, std::memory_order_relaxed);
  Emit(2, [&](RecordSlot* at) {
    at->record = Record{now, id, Pointer(type), tracer::Meta(RecordKind::kTaskBegin, 0, 1)};
    std::memcpy(at[1].bytes, &parent_id, sizeof parent_id);
  });
  return id;
}

void EndTask(uint64_t id, const char* type) noexcept {
  EmitSimple(RecordKind::kTaskEnd, tracer::ReadTicks(), id, Pointer(type));
}

void BeginRegion(uint64_t task_id, const char* name) noexcept {
  EmitSimple(RecordKind::kRegionBegin, tracer::ReadTicks(), task_id, Pointer(name));
}

void EndRegion(uint64_t task_id, const char* name) noexcept {
  EmitSimple(RecordKind::kRegionEnd, tracer::ReadTicks(), task_id, Pointer(name));
}

void LogMessage(uint64_t task_id, const char* category, std::string_view message) noexcept {
  const uint64_t now = tracer::ReadTicks();
  message = tracer::Truncated(message);
  const uint32_t payload = tracer::PayloadSlots(message.size());
  Emit(1 + payload, [&](RecordSlot* at) {
    at->record =
        Record{now, task_id, Pointer(category),
               tracer::Meta(RecordKind::kLog, static_cast<uint32_t>(message.size()), payload)};
    std::memcpy(at[1].bytes, message.data(), message.size());
  });
}

}  // namespace benchprof::trace_internal
