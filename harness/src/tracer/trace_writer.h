// The background writer: when a quarter of the pool is filled (or at least
// every 100 ms) it takes the chunks threads have filled, appends their
// records to the spool (trace_spool.h), or for the flight recorder to the
// window of recent records in memory (trace_window.h), and returns the
// chunks to the pool.
// At the end it also reads the chunks threads are still filling, so nothing
// recorded before the stop is lost, then decodes the whole spool and passes
// the events to the formatter (only the window's, for the flight
// recorder): formatting, the expensive part, happens after the benchmarks
// ran. If no spool can be created, or it stops accepting
// writes, chunks are decoded as they come instead.
//
//   TraceWriter writer(*pool, generation, clock, std::move(formatter));
//   writer.Start(on_thread_start);
//   ... recording ...   (then recording stops and every thread leaves its slow path)
//   Status done = writer.Finish(end_ticks, dropped, drift);
//
// Thread-safety: Start and Finish from one thread; the rest runs on the
// writer's own thread.
#ifndef BENCHPROF_TRACER_TRACE_WRITER_H_
#define BENCHPROF_TRACER_TRACE_WRITER_H_

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "common/status.h"
#include "tracer/record_decoder.h"
#include "tracer/record_store.h"
#include "tracer/trace_buffer.h"
#include "tracer/trace_clock.h"
#include "tracer/trace_formatter.h"

namespace benchprof::tracer {

// The flight recorder's limits (--trace_window, --trace_window_bytes).
struct FlightWindow {
  int64_t window_ns = 0;      // keep the records of the last window_ns
  uint64_t window_ticks = 0;  // the same in the clock's ticks
  size_t max_bytes = 0;       // in at most this much memory
};

class TraceWriter {
 public:
  // Formats the chunks of session `generation` from `pool`; `clock` must
  // outlive the writer. The formatter's Begin() must have been called. A
  // null formatter discards the chunks unread (for overhead benchmarks).
  // With `window`, only the most recent records are kept and written.
  TraceWriter(ChunkPool& pool, uint32_t generation, const TraceClock& clock,
              std::unique_ptr<TraceFormatter> formatter,
              std::optional<FlightWindow> window = std::nullopt);
  ~TraceWriter();

  // Starts the writer thread; `on_thread_start` runs on it first.
  void Start(std::function<void()> on_thread_start);

  // REQUIRES: recording has stopped and no thread is in its slow path.
  // Formats everything still buffered, closes open spans at `end_ticks`,
  // ends the output and joins the thread.
  // `interrupted_by`: see TraceTotals.
  Status Finish(uint64_t end_ticks, uint64_t dropped_events, int64_t clock_drift_ns,
                std::string interrupted_by = {});

  uint64_t events_written() const { return formatter_ ? formatter_->events_written() : 0; }
  uint64_t unmatched_ends() const { return decoder_ ? decoder_->unmatched_ends() : 0; }
  // Records the flight recorder left out as older than its window.
  uint64_t discarded_events() const { return totals_.discarded_events; }
  // The ticks from which the flight recorder kept records (0: all of them).
  uint64_t kept_since_ticks() const { return kept_since_ticks_; }

 private:
  void Run(std::function<void()> on_thread_start);
  void DrainSubmitted();
  void DrainLiveChunks();
  void DecodeNew(Chunk& chunk);
  // Decodes and drops the store; afterwards chunks are decoded directly.
  void ReplayStore(uint64_t end_ticks);

  ChunkPool& pool_;
  const uint32_t generation_;
  std::unique_ptr<TraceFormatter> formatter_;
  std::optional<RecordDecoder> decoder_;  // with the formatter
  // Spool or window; with the formatter, while it works.
  std::unique_ptr<RecordStore> store_;
  Status replay_status_;  // set if the store could not be read back
  uint64_t kept_since_ticks_ = 0;

  // Set (release) after end_ticks_ and totals_, which the writer thread
  // reads once it sees it.
  std::atomic<bool> finishing_{false};
  uint64_t end_ticks_ = 0;
  TraceTotals totals_;
  Status result_;
  std::thread thread_;
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_TRACE_WRITER_H_
