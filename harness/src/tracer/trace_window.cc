#include "tracer/trace_window.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace benchprof::tracer {
namespace {

// Precedes every piece: one thread's records, packed from a fresh
// PackState.
struct PieceHeader {
  int32_t tid;
  uint32_t slots;  // once unpacked
  uint32_t bytes;  // packed, after the header
};

}  // namespace

TraceWindow::TraceWindow(uint64_t window_ticks, size_t max_bytes)
    : window_ticks_(window_ticks), max_blocks_(std::max<size_t>(max_bytes / kBlockBytes, 2)) {}

void TraceWindow::Unmap::operator()(uint8_t* bytes) const { munmap(bytes, kBlockBytes); }

bool TraceWindow::OpenBlock() {
  BlockMemory bytes;
  if (spare_.empty() && blocks_allocated_ < max_blocks_) {
    void* mapped = mmap(nullptr, kBlockBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapped != MAP_FAILED) {
      bytes.reset(static_cast<uint8_t*>(mapped));
      ++blocks_allocated_;
    }
  }
  if (!bytes && spare_.empty() && !blocks_.empty()) DropOldestBlock();
  if (!bytes && !spare_.empty()) {
    bytes = std::move(spare_.back());
    spare_.pop_back();
  }
  if (!bytes) return false;
  blocks_.push_back(Block{std::move(bytes), 0, 0, newest_ticks_, 0, next_serial_++});
  return true;
}

void TraceWindow::OpenPiece(pid_t tid) {
  Block& block = blocks_.back();
  piece_open_ = true;
  piece_header_at_ = block.used;
  const PieceHeader header{static_cast<int32_t>(tid), 0, 0};
  std::memcpy(block.bytes.get() + block.used, &header, sizeof header);
  block.used += sizeof header;
  piece_slots_ = 0;
  pack_state_ = PackState();
  last_block_of_[tid] = block.serial;
}

void TraceWindow::ClosePiece() {
  if (!piece_open_) return;
  piece_open_ = false;
  Block& block = blocks_.back();
  PieceHeader header;
  uint8_t* at = block.bytes.get() + piece_header_at_;
  std::memcpy(&header, at, sizeof header);
  header.slots = piece_slots_;
  header.bytes = static_cast<uint32_t>(block.used - piece_header_at_ - sizeof header);
  std::memcpy(at, &header, sizeof header);
}

void TraceWindow::DropOldestBlock() {
  Block& oldest = blocks_.front();
  discarded_records_ += oldest.records;
  spare_.push_back(std::move(oldest.bytes));
  blocks_.pop_front();
  ForgetUnseenNames();
}

void TraceWindow::DropBlocksOlderThan(uint64_t now_ticks) {
  // The newest block stays: it may hold a piece being written.
  while (blocks_.size() > 1 && now_ticks > blocks_.front().newest_ticks &&
         now_ticks - blocks_.front().newest_ticks > window_ticks_) {
    DropOldestBlock();
  }
}

void TraceWindow::ForgetUnseenNames() {
  const uint64_t first_kept = blocks_.empty() ? next_serial_ : blocks_.front().serial;
  std::erase_if(last_block_of_, [&](const auto& entry) { return entry.second < first_kept; });
  std::erase_if(names_, [&](const auto& entry) { return !last_block_of_.contains(entry.first); });
}

void TraceWindow::KeepName(pid_t recording_tid, const RecordSlot* slots) {
  const Record& r = slots[0].record;
  const pid_t named = r.a == 0 ? recording_tid : static_cast<pid_t>(r.a);
  const auto kept = names_.find(named);
  // The decoder's rule: a name replaces one of lower or equal rank.
  if (kept != names_.end() && kept->second.rank > r.b) return;
  NameRecord& name = names_[named];
  const uint32_t payload = std::min(r.payload(), kThreadNameSlots);
  std::memcpy(name.slots, slots, (1 + payload) * sizeof(RecordSlot));
  name.slots[0].record.a = 0;  // replayed in a chunk of the thread named
  name.slots[0].record.meta = Meta(RecordKind::kThreadName, r.c(), payload);
  name.rank = r.b;
}

Status TraceWindow::Append(pid_t tid, const RecordSlot* slots, uint32_t count) {
  for (uint32_t i = 0; i < count;) {
    const Record& r = slots[i].record;
    const uint32_t slots_used = 1 + r.payload();
    if (slots_used > count - i) break;  // published counts hold whole records
    const size_t room = MaxPackedBytes(r.payload());
    if (!piece_open_ || blocks_.back().used + room > kBlockBytes) {
      ClosePiece();
      if (blocks_.empty() || blocks_.back().used + sizeof(PieceHeader) + room > kBlockBytes) {
        if (!OpenBlock()) {
          ++discarded_records_;
          i += slots_used;
          continue;
        }
      }
      OpenPiece(tid);
    }
    Block& block = blocks_.back();
    block.used += PackRecord(slots + i, pack_state_, block.bytes.get() + block.used);
    ++block.records;
    piece_slots_ += slots_used;
    block.newest_ticks = std::max(block.newest_ticks, r.ticks);
    newest_ticks_ = std::max(newest_ticks_, r.ticks);
    if (r.kind() == RecordKind::kThreadName) KeepName(tid, slots + i);
    // A CPU counter hangs under its thread's track, which needs the name.
    if (r.kind() == RecordKind::kCpuUsage) last_block_of_[static_cast<pid_t>(r.a)] = block.serial;
    i += slots_used;
  }
  ClosePiece();
  DropBlocksOlderThan(newest_ticks_);
  return Status();
}

uint64_t TraceWindow::records_kept() const {
  uint64_t records = 0;
  for (const Block& block : blocks_) records += block.records;
  return records;
}

uint64_t TraceWindow::bytes_kept() const {
  uint64_t bytes = 0;
  for (const Block& block : blocks_) bytes += block.used;
  return bytes;
}

uint64_t TraceWindow::kept_since_ticks() const {
  return discarded_records_ == 0 || blocks_.empty() ? 0 : blocks_.front().opened_ticks;
}

Status TraceWindow::Replay(uint64_t end_ticks,
                           const std::function<void(const Chunk& chunk, uint32_t count)>& visit) {
  ClosePiece();
  DropBlocksOlderThan(std::max(end_ticks, newest_ticks_));
  ForgetUnseenNames();
  auto chunk = std::make_unique<Chunk>();
  for (const auto& [tid, name] : names_) {
    const uint32_t slots = 1 + name.slots[0].record.payload();
    std::memcpy(chunk->slots, name.slots, slots * sizeof(RecordSlot));
    chunk->header.tid = tid;
    visit(*chunk, slots);
  }
  for (const Block& block : blocks_) {
    const uint8_t* at = block.bytes.get();
    const uint8_t* const end = at + block.used;
    while (at < end) {
      PieceHeader header;
      if (static_cast<size_t>(end - at) < sizeof header) {
        return Status::Error("the trace window is corrupt");
      }
      std::memcpy(&header, at, sizeof header);
      at += sizeof header;
      if (header.bytes > static_cast<size_t>(end - at) || header.slots > kSlotsPerChunk) {
        return Status::Error("the trace window is corrupt");
      }
      const uint8_t* const piece_end = at + header.bytes;
      PackState state;
      uint32_t filled = 0;
      while (at < piece_end) {
        const size_t used =
            UnpackRecord(at, piece_end, state, chunk->slots + filled, kSlotsPerChunk - filled);
        if (used == 0) return Status::Error("the trace window is corrupt");
        filled += 1 + chunk->slots[filled].record.payload();
        at += used;
      }
      if (filled != header.slots) return Status::Error("the trace window is corrupt");
      chunk->header.tid = static_cast<pid_t>(header.tid);
      visit(*chunk, filled);
    }
  }
  return Status();
}

}  // namespace benchprof::tracer
