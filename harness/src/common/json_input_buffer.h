// The JSON tokenizer's window on its input: the bytes from the oldest one it
// still needs to the last one read, refilled a chunk at a time from a
// ByteSource, so that memory is one chunk plus whatever must stay buffered
// (one token, or an event a reader decodes in place), not the input.
//
// The data is always followed by a NUL byte (a sentinel that ends every scan
// of json_byte_scan.h without an end check) and by padding, so those scans
// may load 16 bytes at a time past the data.
//
//   json::InputBuffer in(std::move(source), 1 << 20, 64 << 20);
//   while (in.Refill(in.end()) == json::InputBuffer::Result::kRead) {
//     ... scan [in.begin(), in.end()) ...
//   }
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_COMMON_JSON_INPUT_BUFFER_H_
#define BENCHPROF_COMMON_JSON_INPUT_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/json_byte_source.h"
#include "common/status.h"

namespace benchprof::json {

class InputBuffer {
 public:
  // Bytes allocated after the data: the sentinel and room for 16-byte loads.
  static constexpr size_t kPadding = 64;

  // Reads `source` `chunk_bytes` (at least 1) at a time. Refill() refuses to
  // keep more than `max_kept_bytes` buffered.
  InputBuffer(ByteSource source, size_t chunk_bytes, size_t max_kept_bytes);
  InputBuffer(const InputBuffer&) = delete;
  InputBuffer& operator=(const InputBuffer&) = delete;

  // The buffered bytes; *end() == '\0' (the sentinel).
  const char* begin() const { return data_; }
  const char* end() const { return end_; }

  // The offset in the input of the byte at `p` (in [begin(), end()]), and
  // back. Offsets stay valid across Refill(); pointers do not.
  uint64_t offset_of(const char* p) const { return base_ + static_cast<uint64_t>(p - data_); }
  const char* at_offset(uint64_t offset) const { return data_ + (offset - base_); }

  // The source has reported the end of the input (or failed).
  bool at_eof() const { return eof_; }

  enum class Result {
    kRead,      // more bytes were appended
    kEnd,       // the input has ended; nothing changed
    kFailed,    // the source failed: error() says why; the input has ended
    kTooLarge,  // keeping [keep, end()) would exceed max_kept_bytes; nothing changed
  };

  // Drops the bytes before `keep` (in [begin(), end()]) and appends the next
  // chunk. Every pointer into the buffer is invalid afterwards; re-derive
  // them from their offsets (at_offset()), which stay valid from `keep` on.
  Result Refill(const char* keep);

  // The max_kept_bytes given to the constructor.
  size_t max_kept_bytes() const { return max_kept_; }

  // After kFailed: the source's error.
  const Status& error() const { return error_; }

 private:
  ByteSource source_;
  const size_t chunk_;
  const size_t max_kept_;
  std::unique_ptr<char[]> storage_;
  size_t capacity_ = 0;  // bytes of storage_ for data, padding not counted
  char* data_ = nullptr;
  char* end_ = nullptr;
  uint64_t base_ = 0;  // offset in the input of data_[0]
  bool eof_ = false;
  Status error_;
};

}  // namespace benchprof::json

#endif  // BENCHPROF_COMMON_JSON_INPUT_BUFFER_H_
