#include "tracer/record_packer.h"

#include <cstring>

namespace benchprof::tracer {
namespace {

uint64_t ZigZag(uint64_t difference) {
  return difference << 1 ^ static_cast<uint64_t>(static_cast<int64_t>(difference) >> 63);
}

uint64_t UnZigZag(uint64_t value) { return value >> 1 ^ (0 - (value & 1)); }

uint8_t* PutVarint(uint64_t value, uint8_t* out) {
  while (value >= 0x80) {
    *out++ = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<uint8_t>(value);
  return out;
}

// Reads a varint at `*in`, advancing it; false if it runs past `end` or
// past 64 bits.
bool GetVarint(const uint8_t** in, const uint8_t* end, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && *in < end; shift += 7) {
    const uint8_t byte = *(*in)++;
    result |= uint64_t{byte & 0x7fu} << shift;
    if (byte < 0x80) {
      *value = result;
      return true;
    }
  }
  return false;
}

}  // namespace

size_t PackRecord(const RecordSlot* slots, PackState& state, uint8_t* out) {
  const Record& r = slots[0].record;
  const uint32_t kind = static_cast<uint32_t>(r.kind());
  const size_t context = kind % PackState::kKindContexts;
  uint8_t* at = out;
  *at++ = static_cast<uint8_t>(kind);
  at = PutVarint(ZigZag(r.ticks - state.ticks), at);
  at = PutVarint(ZigZag(r.a - state.a[context]), at);
  at = PutVarint(ZigZag(r.b - state.b[context]), at);
  at = PutVarint(r.c(), at);
  const uint32_t payload_slots = r.payload();
  at = PutVarint(payload_slots, at);
  if (payload_slots > 0) {
    const char* payload = slots[1].bytes;
    size_t used = size_t{payload_slots} * sizeof(RecordSlot);
    while (used > 0 && payload[used - 1] == 0) --used;
    at = PutVarint(used, at);
    std::memcpy(at, payload, used);
    at += used;
  }
  state.ticks = r.ticks;
  state.a[context] = r.a;
  state.b[context] = r.b;
  return static_cast<size_t>(at - out);
}

size_t UnpackRecord(const uint8_t* in, const uint8_t* end, PackState& state, RecordSlot* slots,
                    uint32_t room) {
  const uint8_t* at = in;
  if (at >= end || room == 0) return 0;
  const uint32_t kind = *at++;
  const size_t context = kind % PackState::kKindContexts;
  uint64_t ticks, a, b, c, payload_slots;
  if (!GetVarint(&at, end, &ticks) || !GetVarint(&at, end, &a) || !GetVarint(&at, end, &b) ||
      !GetVarint(&at, end, &c) || !GetVarint(&at, end, &payload_slots)) {
    return 0;
  }
  if (c > UINT32_MAX || payload_slots > 0xff || payload_slots + 1 > room) return 0;
  Record& r = slots[0].record;
  r.ticks = state.ticks + UnZigZag(ticks);
  r.a = state.a[context] + UnZigZag(a);
  r.b = state.b[context] + UnZigZag(b);
  r.meta = Meta(static_cast<RecordKind>(kind), static_cast<uint32_t>(c),
                static_cast<uint32_t>(payload_slots));
  if (payload_slots > 0) {
    uint64_t used;
    const size_t capacity = payload_slots * sizeof(RecordSlot);
    if (!GetVarint(&at, end, &used) || used > capacity || used > static_cast<size_t>(end - at)) {
      return 0;
    }
    char* payload = slots[1].bytes;
    std::memcpy(payload, at, used);
    std::memset(payload + used, 0, capacity - used);
    at += used;
  }
  state.ticks = r.ticks;
  state.a[context] = r.a;
  state.b[context] = r.b;
  return static_cast<size_t>(at - in);
}

}  // namespace benchprof::tracer
