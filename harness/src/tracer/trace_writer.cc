#include "tracer/trace_writer.h"

#include <unistd.h>

#include <chrono>

#include "tracer/thread_table.h"
#include "tracer/trace_recorder.h"
#include "tracer/trace_spool.h"
#include "tracer/trace_window.h"

namespace benchprof::tracer {
namespace {

// How long the writer sleeps at most: it is woken as soon as a quarter of
// the pool waits for it (ChunkPool::Submit), so this only bounds how long
// the chunks of threads that ended stay unspooled.
constexpr std::chrono::milliseconds kIdleWait{100};

}  // namespace

TraceWriter::TraceWriter(ChunkPool& pool, uint32_t generation, const TraceClock& clock,
                         std::unique_ptr<TraceFormatter> formatter,
                         std::optional<FlightWindow> window)
    : pool_(pool), generation_(generation), formatter_(std::move(formatter)) {
  if (!formatter_) return;
  decoder_.emplace(clock, *formatter_);
  if (window) {
    totals_.window_ns = window->window_ns;
    store_ = std::make_unique<TraceWindow>(window->window_ticks, window->max_bytes);
    return;
  }
  StatusOr<TraceSpool> spool = TraceSpool::Create();
  if (spool.ok()) store_ = std::make_unique<TraceSpool>(std::move(spool).value());
}

TraceWriter::~TraceWriter() {
  if (thread_.joinable()) {
    finishing_.store(true, std::memory_order_release);
    pool_.WakeWriter();
    thread_.join();
  }
}

void TraceWriter::Start(std::function<void()> on_thread_start) {
  InternalThreadCreation internal;
  thread_ = std::thread(&TraceWriter::Run, this, std::move(on_thread_start));
}

Status TraceWriter::Finish(uint64_t end_ticks, uint64_t dropped_events, int64_t clock_drift_ns,
                           std::string interrupted_by) {
  end_ticks_ = end_ticks;
  totals_.interrupted_by = std::move(interrupted_by);
  totals_.dropped_events = dropped_events;
  totals_.clock_drift_ns = clock_drift_ns;
  finishing_.store(true, std::memory_order_release);
  pool_.WakeWriter();
  thread_.join();
  return result_;
}

void TraceWriter::DecodeNew(Chunk& chunk) {
  const uint32_t count = chunk.header.count.load(std::memory_order_acquire);
  if (count <= chunk.header.formatted) return;
  const uint32_t from = chunk.header.formatted;
  chunk.header.formatted = count;
  if (!decoder_) return;
  if (store_) {
    Status appended = store_->Append(chunk.header.tid, chunk.slots + from, count - from);
    if (appended.ok()) return;
    // Decode directly from now on, keeping every thread's events in order:
    // what was stored goes first.
    ReplayStore(ReadTicks());
  }
  decoder_->Decode(chunk, from, count);
}

void TraceWriter::ReplayStore(uint64_t end_ticks) {
  if (!store_) return;
  Status replayed = store_->Replay(
      end_ticks, [&](const Chunk& stored, uint32_t count) { decoder_->Decode(stored, 0, count); });
  if (!replayed.ok()) replay_status_ = std::move(replayed);
  totals_.discarded_events += store_->discarded_records();
  kept_since_ticks_ = store_->kept_since_ticks();
  store_.reset();
}

void TraceWriter::DrainSubmitted() {
  Chunk* chunk = pool_.TakeSubmitted();
  while (chunk != nullptr) {
    Chunk* next = chunk->header.next_submitted;
    // A chunk of an earlier trace, handed in by a thread that ended late.
    if (chunk->header.generation == generation_) DecodeNew(*chunk);
    chunk->header.pool->Push(chunk);
    chunk = next;
  }
}

void TraceWriter::DrainLiveChunks() {
  const uint32_t used = g_thread_slots_used.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < used; ++i) {
    Chunk* chunk = g_thread_slots[i].published.load(std::memory_order_acquire);
    if (chunk != nullptr && chunk->header.generation == generation_) DecodeNew(*chunk);
  }
}

void TraceWriter::Run(std::function<void()> on_thread_start) {
  BeginInternalThread("benchprof trace writer", /*records=*/false);
  if (on_thread_start) on_thread_start();
  const pid_t tid = gettid();
  while (!finishing_.load(std::memory_order_acquire)) {
    pool_.WaitForSubmissions(kIdleWait);
    DrainSubmitted();
  }
  const uint64_t end_ticks = end_ticks_;
  if (end_ticks == 0) return;  // destroyed without Finish(): no output
  // Order matters: chunks handed in before the stop precede, in each
  // thread's history, the chunk it was filling at the stop.
  DrainSubmitted();
  DrainLiveChunks();
  DrainSubmitted();
  if (!formatter_) return;
  ReplayStore(end_ticks);
  decoder_->Finish(end_ticks, totals_);
  totals_.writer_tid = tid;
  result_ = formatter_->End(totals_);
  // A store that could not be read back lost events: the trace is incomplete.
  if (result_.ok() && !replay_status_.ok()) result_ = replay_status_;
}

}  // namespace benchprof::tracer
