// Where the trace writer keeps the records it takes from filled chunks until
// the trace is written: every record of the run in a spool file
// (trace_spool.h), or only the most recent ones in memory for the flight
// recorder (trace_window.h). The writer hands both the same runs of records
// and reads them back the same way once recording stops.
//
//   std::unique_ptr<RecordStore> store = ...;
//   store->Append(tid, chunk.slots + from, count - from);
//   store->Replay(end_ticks, [&](const Chunk& chunk, uint32_t count) { ... });
//
// Thread-safety: thread-compatible (the writer thread owns a store).
#ifndef BENCHPROF_TRACER_RECORD_STORE_H_
#define BENCHPROF_TRACER_RECORD_STORE_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>

#include "common/status.h"
#include "tracer/trace_buffer.h"

namespace benchprof::tracer {

class RecordStore {
 public:
  virtual ~RecordStore() = default;

  // Appends `count` whole records (with their payload slots) that thread
  // `tid` wrote, in the order that thread wrote them. Fails if the store
  // cannot take them; it then holds what it held before the call.
  virtual Status Append(pid_t tid, const RecordSlot* slots, uint32_t count) = 0;

  // Calls `visit` with what the store keeps as of `end_ticks` (the end of
  // recording), in the order appended, each run copied into a chunk whose
  // header names its thread (records in slots [0, count)). Fails if the
  // records cannot be read back.
  virtual Status Replay(uint64_t end_ticks,
                        const std::function<void(const Chunk& chunk, uint32_t count)>& visit) = 0;

  // Records appended but left out of Replay() on purpose (the flight
  // recorder's older events); 0 for a store that keeps everything.
  virtual uint64_t discarded_records() const { return 0; }

  // The ticks from which records are kept, once Replay() returned; 0 if
  // all are.
  virtual uint64_t kept_since_ticks() const { return 0; }
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_RECORD_STORE_H_
