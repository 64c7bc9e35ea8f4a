// A compact, lossless encoding of the recorder's records, for the flight
// recorder (trace_window.h), which keeps the last seconds of a run in
// memory: a record takes 32 bytes in a chunk and about 8 once packed, so
// the same memory holds four times the seconds.
//
// Each field is stored as a varint of its difference from the same field of
// the previous record (the time), or of the previous record of the same
// kind (the other fields): consecutive events are close in time, and a
// region's name pointer and task id repeat. Payload slots are stored up to
// their last non-zero byte. A run of packed records starts from a fresh
// PackState, so it decodes on its own.
//
//   PackState state;
//   uint8_t* at = out;
//   at += PackRecord(slots + i, state, at);     // room: MaxPackedBytes(payload)
//   ...
//   PackState read_state;
//   size_t used = UnpackRecord(in, end, read_state, chunk_slots, room);  // 0: corrupt
//
// Thread-safety: pure functions of their arguments.
#ifndef BENCHPROF_TRACER_RECORD_PACKER_H_
#define BENCHPROF_TRACER_RECORD_PACKER_H_

#include <cstddef>
#include <cstdint>

#include "tracer/trace_buffer.h"

namespace benchprof::tracer {

// What a packed record's differences are taken from. Indexed by the kind's
// low bits: which record is "previous" only affects the size, never the
// value decoded.
struct PackState {
  static constexpr size_t kKindContexts = 32;
  uint64_t ticks = 0;
  uint64_t a[kKindContexts] = {};
  uint64_t b[kKindContexts] = {};
};

// The most bytes PackRecord() writes for a record with `payload_slots`
// payload slots.
constexpr size_t MaxPackedBytes(uint32_t payload_slots) {
  // kind, three 10-byte varints, c and the payload's slot and byte counts.
  return 1 + 3 * 10 + 5 + 2 + 3 + size_t{payload_slots} * sizeof(RecordSlot);
}

// Packs the record at `slots[0]` and its payload slots into `out`, which
// has room for MaxPackedBytes(slots[0].record.payload()). Returns the bytes
// written.
size_t PackRecord(const RecordSlot* slots, PackState& state, uint8_t* out);

// Unpacks the record at `in` (bytes up to `end`) into `slots`, which has
// room for `room` slots. Returns the bytes read, or 0 if the bytes are not
// a packed record or it needs more than `room` slots.
size_t UnpackRecord(const uint8_t* in, const uint8_t* end, PackState& state, RecordSlot* slots,
                    uint32_t room);

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_RECORD_PACKER_H_
