// HOT PATH: the trace_internal entry points (BeginRegion, EndRegion, ...)
// and RecordMarker run on benchmark threads, possibly inside a timed loop.
// Each reads the clock and writes its record with Emit() or EmitSimple()
// (event_emitter.h, where the write path and its lock-free contract are):
// no lock, no allocation, no shared cache line. Keep them to that: encode
// the fields here, and leave chunks and slots to the emitter.
//
// The cold half, StartRecording and StopRecording, sets up a trace's chunk
// pool, writer and sampler, and stops the write path without locks
// (StopChunkHandoffs()).
#include "tracer/trace_recorder.h"

#include <unistd.h>

#include <bit>
#include <cstring>
#include <vector>

#include "benchprof/trace.h"
#include "common/own_thread.h"
#include "common/process_threads.h"
#include "tracer/cpu_usage_sampler.h"
#include "tracer/event_emitter.h"
#include "tracer/thread_table.h"
#include "tracer/trace_writer.h"

namespace benchprof::trace_internal {
constinit std::atomic<bool> g_recording{false};
}  // namespace benchprof::trace_internal

namespace benchprof::tracer {
namespace {

using trace_internal::g_recording;

__thread int t_creating_internal __attribute__((tls_model("initial-exec"))) = 0;

std::atomic<uint64_t> g_next_task_id{1};

// The running trace; only StartRecording and StopRecording touch it.
struct Session {
  TraceClock clock;
  std::function<void()> on_internal_thread_start;
  std::unique_ptr<TraceWriter> writer;
  std::unique_ptr<CpuUsageSampler> sampler;
};
Session* g_session = nullptr;

uint64_t Pointer(const char* name) { return reinterpret_cast<uint64_t>(name); }

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

// Returns to `pool`'s free list the chunks an earlier trace left: those of
// exited threads and those submitted after its writer's last pass.
void ReclaimChunks(ChunkPool& pool) {
  RecycleExitedSlots();
  for (Chunk* chunk = pool.TakeSubmitted(); chunk != nullptr;) {
    Chunk* next = chunk->header.next_submitted;
    pool.Push(chunk);
    chunk = next;
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
  if (options.window_ns < 0) return Status::Error("the trace window must not be negative");
  if (!InstallThreadExitHook()) return Status::Error("cannot create a thread-specific key");
  ChunkPool* pool = PoolFor(options.chunk_count);
  if (pool == nullptr) return Status::Error("cannot map the trace buffers");

  RememberProcessThreadName();
  ReclaimChunks(*pool);

  auto* session = new Session{TraceClock::Calibrate(options.clock),
                              options.on_internal_thread_start, nullptr, nullptr};
  SetTickSource(session->clock.source());
  const uint32_t generation = BeginGeneration(*pool);
  g_session = session;

  if (formatter) {
    formatter->Begin(TraceInfo{getpid(), options.process_name,
                               std::string(ClockSourceName(session->clock.source())),
                               UsableCpuCount()});
  }
  std::optional<FlightWindow> window;
  if (options.window_ns > 0) {
    window = FlightWindow{options.window_ns,
                          static_cast<uint64_t>(static_cast<double>(options.window_ns) /
                                                session->clock.nanos_per_tick()),
                          options.window_bytes};
  }
  session->writer = std::make_unique<TraceWriter>(*pool, generation, session->clock,
                                                  std::move(formatter), window);
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

StatusOr<RecorderStats> StopRecording(std::string interrupted_by) {
  Session* session = g_session;
  if (session == nullptr) return Status::Error("no trace is being recorded");
  const uint64_t end_ticks = ReadTicks();
  if (session->sampler) session->sampler->Stop(end_ticks);

  g_recording.store(false, std::memory_order_seq_cst);
  StopChunkHandoffs();

  const int64_t drift = session->clock.MeasureDrift();
  RecorderStats stats;
  stats.dropped_events = DroppedEvents();
  const Status written =
      session->writer->Finish(end_ticks, stats.dropped_events, drift, std::move(interrupted_by));
  stats.events_written = session->writer->events_written();
  stats.unmatched_ends = session->writer->unmatched_ends();
  stats.discarded_events = session->writer->discarded_events();
  const uint64_t kept_since = session->writer->kept_since_ticks();
  stats.window_kept_ns = session->clock.NanosSinceStart(end_ticks) -
                         (kept_since == 0 ? 0 : session->clock.NanosSinceStart(kept_since));
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
    if ((slot = ClaimSlotForCurrentThread(false)) == nullptr) return;
  }
  SetSlotName(*slot, name, NameRank::kExplicit);
  if (!g_recording.load(std::memory_order_relaxed)) return;
  Emit(1 + kThreadNameSlots, [&](RecordSlot* at) {
    char copy[kMaxThreadNameBytes];
    const size_t length = CopySlotName(*slot, copy);
    at->record =
        Record{0, 0, static_cast<uint64_t>(NameRank::kExplicit),
               Meta(RecordKind::kThreadName, static_cast<uint32_t>(length), kThreadNameSlots)};
    std::memcpy(at[1].bytes, copy, length);
  });
}

void RecordThreadNameOf(pid_t tid, std::string_view name, NameRank rank) noexcept {
  name = name.substr(0, kMaxThreadNameBytes);
  Emit(1 + kThreadNameSlots, [&](RecordSlot* at) {
    at->record =
        Record{0, static_cast<uint64_t>(tid), static_cast<uint64_t>(rank),
               Meta(RecordKind::kThreadName, static_cast<uint32_t>(name.size()), kThreadNameSlots)};
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

void RecordBlocked(uint64_t begin_ticks, uint64_t end_ticks, const char* what) noexcept {
  if (!g_recording.load(std::memory_order_relaxed)) return;
  EmitSimple(RecordKind::kBlocked, begin_ticks, end_ticks, Pointer(what));
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
  if (ClaimSlotForCurrentThread(false, /*started_while_tracing=*/true) == nullptr) return;
  RecordMarker(RecordKind::kThreadStart);
}

InternalThreadCreation::InternalThreadCreation() { ++t_creating_internal; }
InternalThreadCreation::~InternalThreadCreation() { --t_creating_internal; }

bool CreatingInternalThread() noexcept { return t_creating_internal > 0; }

bool WantsNewThread() noexcept {
  return g_recording.load(std::memory_order_relaxed) && t_creating_internal == 0;
}

void BeginInternalThread(std::string_view name, bool records) {
  MarkOwnThread();
  if (!records || t_slot != nullptr) return;
  if (ClaimSlotForCurrentThread(/*internal=*/true) == nullptr) return;
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
