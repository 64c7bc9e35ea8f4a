// Turns the records of filled chunks into the formatter's event stream
// (trace_formatter.h): converts ticks to nanoseconds, reassembles payloads
// (log messages, thread names), and keeps each thread's spans well nested.
//
// Nesting is repaired, never assumed: an end closes the innermost open span
// of the same kind and name on its thread, closing any spans opened inside
// it at the same instant; an end with no open span to close is dropped.
// That keeps the output valid when events were dropped for lack of buffers,
// or when a region ends out of order. Spans and tasks still open when
// tracing stops are closed at the stop time. Timestamps of one thread's
// span and instant events are made non-decreasing (cores' TSCs may differ
// by a few cycles).
//
//   RecordDecoder decoder(clock, formatter);
//   decoder.Decode(*chunk, chunk->header.formatted, count);
//   ...
//   TraceTotals totals;
//   decoder.Finish(stop_ticks, totals);   // then formatter.End(totals)
//
// Thread-safety: thread-compatible (the writer thread owns it).
#ifndef BENCHPROF_TRACER_RECORD_DECODER_H_
#define BENCHPROF_TRACER_RECORD_DECODER_H_

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tracer/trace_buffer.h"
#include "tracer/trace_clock.h"
#include "tracer/trace_formatter.h"

namespace benchprof::tracer {

class RecordDecoder {
 public:
  // Both must outlive the decoder.
  RecordDecoder(const TraceClock& clock, TraceFormatter& out) : clock_(clock), out_(out) {}

  // Decodes RecordSlots [from, to) of `chunk`, which its header's tid wrote.
  // `to` must be a published count (records are never cut).
  void Decode(const Chunk& chunk, uint32_t from, uint32_t to);

  // Closes what is still open at `end_ticks` (or at a thread's last event,
  // if later) and fills in totals.end_ns and totals.thread_names.
  void Finish(uint64_t end_ticks, TraceTotals& totals);

  // Span ends that had nothing to close (events were dropped).
  uint64_t unmatched_ends() const { return unmatched_ends_; }

 private:
  struct OpenSpan {
    EventType end_type;
    const char* name;  // regions only
    uint64_t task_id;
  };
  struct ThreadState {
    std::vector<OpenSpan> open;
    int64_t last_ns = 0;
    std::string name;
    uint64_t name_rank = 0;  // NameRank; a name replaces one of lower or equal rank
  };
  struct OpenTask {
    const char* type;
    pid_t tid;
  };

  // The thread's time for `ticks`: never before its previous event's.
  int64_t OrderedTime(ThreadState& thread, uint64_t ticks);
  // Keeps `name` for `thread` unless it has a name of higher rank.
  void RenameThread(ThreadState& thread, uint64_t rank, std::string_view name);
  // Decode() per family of records. Defined in record_decoder.cc, and
  // always inlined: they run once per record, and compile into Decode()'s
  // loop as the one switch they were.
  //
  // Thread start and exit, and the begins and ends of regions, timed loops
  // and pauses: the thread's own timeline, its spans kept well nested.
  [[gnu::always_inline]] inline void DecodeSpanRecord(const Record& r, pid_t tid,
                                                      ThreadState& thread);
  // Task begins and ends (tracking which tasks are open) and log messages.
  [[gnu::always_inline]] inline void DecodeTaskRecord(const Chunk& chunk, uint32_t at, pid_t tid,
                                                      ThreadState& thread);
  // Runs, CPU use and allocation totals: measurements over an interval.
  [[gnu::always_inline]] inline void DecodeMeasurement(const Chunk& chunk, uint32_t at, pid_t tid);
  // Opens a span on `thread` and passes `begin` on; `end_type` will close it.
  void OpenSpanOn(ThreadState& thread, const TraceEvent& begin, EventType end_type);
  // Closes the innermost matching open span (and those inside it) at
  // `end`'s time; counts `end` as unmatched if there is none.
  void CloseSpanOn(ThreadState& thread, TraceEvent end);
  // Passes on the end of `span` at `ts`.
  void EmitEnd(const OpenSpan& span, pid_t tid, int64_t ts);

  const TraceClock& clock_;
  TraceFormatter& out_;
  std::map<pid_t, ThreadState> threads_;
  std::map<uint64_t, OpenTask> open_tasks_;
  std::set<uint64_t> ended_before_begun_;
  uint64_t unmatched_ends_ = 0;
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_RECORD_DECODER_H_
