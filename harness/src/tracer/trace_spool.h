// TraceSpool: where the writer keeps raw records while benchmarks run.
//
// Formatting JSON costs about 100 ns an event. Done while the benchmarks
// run, it takes CPU from them (on a 2-core machine running a 2-thread
// benchmark, 5-7% of its time), so the writer only copies the records it
// takes from the chunks into this file (a write of up to 64 KiB per chunk)
// and formats them all once the benchmarks have finished. Memory stays
// bounded however long the trace: the spool is an unlinked temporary file,
// removed by the system when it is closed, even if the process dies.
//
//   StatusOr<TraceSpool> spool = TraceSpool::Create();
//   spool->Append(tid, records, count);
//   spool->Replay(end_ticks, [](const Chunk& chunk, uint32_t count) { ... });
//
// Thread-safety: thread-compatible (the writer thread owns it).
#ifndef BENCHPROF_TRACER_TRACE_SPOOL_H_
#define BENCHPROF_TRACER_TRACE_SPOOL_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "common/status.h"
#include "tracer/record_store.h"
#include "tracer/trace_buffer.h"

namespace benchprof::tracer {

class TraceSpool final : public RecordStore {
 public:
  // An empty spool in $TMPDIR (or /tmp).
  static StatusOr<TraceSpool> Create();

  TraceSpool(TraceSpool&& other) noexcept;
  TraceSpool& operator=(TraceSpool&&) = delete;
  TraceSpool(const TraceSpool&) = delete;
  TraceSpool& operator=(const TraceSpool&) = delete;
  ~TraceSpool() override;

  // Fails if the file cannot be written (disk full).
  Status Append(pid_t tid, const RecordSlot* slots, uint32_t count) override;

  // Every appended run (`end_ticks` does not matter). Fails if the file
  // cannot be read back.
  Status Replay(uint64_t end_ticks,
                const std::function<void(const Chunk& chunk, uint32_t count)>& visit) override;

  // Bytes appended so far.
  uint64_t size() const { return size_; }

 private:
  explicit TraceSpool(int fd) : fd_(fd) {}

  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_TRACE_SPOOL_H_
