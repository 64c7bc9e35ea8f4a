// The flight recorder's store (--trace_window): the most recent records of
// the run, packed (record_packer.h) into fixed 256 KiB blocks in memory,
// so that a trace written at the end, on a signal or at --timeout shows
// what every thread did in the last seconds, whatever the run's length.
//
// Blocks are filled in the order the writer appends runs of records and
// dropped whole, oldest first: when the newest record of the oldest block is
// more than the window older than the newest record appended (or than the
// end, at Replay()), or when a new block is needed and the memory bound is
// reached. The window is therefore kept to within a block's worth of events
// (about 30,000), and memory never exceeds the bound. A thread's name is
// recorded once, in its first chunk, which the window soon drops: the window
// keeps each thread's best name aside and replays it first, for the threads
// whose records it still holds. Blocks are mapped, not allocated: the
// window's memory is the recorder's, not the program's, so it shows in no
// heap profile and no allocs/op.
//
//   TraceWindow window(/*window_ticks=*/10 * ticks_per_second, 48 << 20);
//   window.Append(tid, chunk.slots + from, count - from);   // never fails
//   window.Replay(end_ticks, visit);
//
// Thread-safety: thread-compatible (the writer thread owns it).
#ifndef BENCHPROF_TRACER_TRACE_WINDOW_H_
#define BENCHPROF_TRACER_TRACE_WINDOW_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "common/status.h"
#include "tracer/event_emitter.h"
#include "tracer/record_packer.h"
#include "tracer/record_store.h"
#include "tracer/trace_buffer.h"

namespace benchprof::tracer {

class TraceWindow final : public RecordStore {
 public:
  static constexpr size_t kBlockBytes = 256 * 1024;

  // Keeps the records of the last `window_ticks` ticks in at most
  // `max_bytes` of blocks (rounded down to whole blocks, at least two).
  TraceWindow(uint64_t window_ticks, size_t max_bytes);

  // Packs the records into the newest block, dropping the oldest blocks as
  // the window and the bound require. Never fails: if no block can be
  // allocated, the records are discarded (and counted).
  Status Append(pid_t tid, const RecordSlot* slots, uint32_t count) override;

  // First the kept thread names, then every kept run in order; blocks older
  // than the window before `end_ticks` are dropped first.
  Status Replay(uint64_t end_ticks,
                const std::function<void(const Chunk& chunk, uint32_t count)>& visit) override;

  uint64_t discarded_records() const override { return discarded_records_; }

  // Memory the blocks take: the most they took at any time, as blocks are
  // reused, never unmapped, until the window is destroyed.
  size_t bytes_in_use() const { return blocks_allocated_ * kBlockBytes; }
  // Records held now, and the packed bytes they take.
  uint64_t records_kept() const;
  uint64_t bytes_kept() const;
  // The ticks from which records are kept (the newest record appended when
  // the oldest kept block was opened); 0 if none was ever discarded.
  uint64_t kept_since_ticks() const override;

 private:
  // A mapping of kBlockBytes, unmapped with its owner.
  struct Unmap {
    void operator()(uint8_t* bytes) const;
  };
  using BlockMemory = std::unique_ptr<uint8_t, Unmap>;
  struct Block {
    BlockMemory bytes;
    size_t used = 0;
    uint64_t newest_ticks = 0;  // of the records in it
    uint64_t opened_ticks = 0;  // the newest record appended before it
    uint64_t records = 0;
    uint64_t serial = 0;  // counts blocks since the start
  };
  // A thread's name record with its payload, as the thread table wrote it.
  struct NameRecord {
    RecordSlot slots[1 + kThreadNameSlots];
    uint64_t rank = 0;
  };

  // Opens a new block: a fresh one while under the bound, else the oldest
  // one emptied. False if none can be had.
  bool OpenBlock();
  // Starts a piece (a run of one thread's records) in the newest block.
  void OpenPiece(pid_t tid);
  void ClosePiece();
  void DropOldestBlock();
  void DropBlocksOlderThan(uint64_t now_ticks);
  void KeepName(pid_t recording_tid, const RecordSlot* slots);
  // Forgets names of threads with no records left.
  void ForgetUnseenNames();

  const uint64_t window_ticks_;
  const size_t max_blocks_;
  std::deque<Block> blocks_;  // oldest first; the newest is being filled
  std::vector<BlockMemory> spare_;
  size_t blocks_allocated_ = 0;
  uint64_t next_serial_ = 0;
  uint64_t newest_ticks_ = 0;
  uint64_t discarded_records_ = 0;

  // The piece being written: where its header is in the newest block.
  bool piece_open_ = false;
  size_t piece_header_at_ = 0;
  uint32_t piece_slots_ = 0;
  PackState pack_state_;

  std::map<pid_t, NameRecord> names_;        // by the thread named
  std::map<pid_t, uint64_t> last_block_of_;  // serial of a thread's newest piece
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_TRACE_WINDOW_H_
