#include "common/json_input_buffer.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace benchprof::json {

InputBuffer::InputBuffer(ByteSource source, size_t chunk_bytes, size_t max_kept_bytes)
    : source_(std::move(source)),
      chunk_(std::max<size_t>(chunk_bytes, 1)),
      max_kept_(max_kept_bytes),
      storage_(new char[kPadding]()) {
  data_ = end_ = storage_.get();
}

InputBuffer::Result InputBuffer::Refill(const char* keep) {
  if (eof_) return Result::kEnd;
  const size_t kept = static_cast<size_t>(end_ - keep);
  if (kept > max_kept_) return Result::kTooLarge;
  const size_t drop = static_cast<size_t>(keep - data_);
  if (capacity_ - kept < chunk_) {
    // Grow geometrically, so that an event much larger than a chunk costs
    // amortized constant copying per byte.
    const size_t capacity = std::max(capacity_ * 2, kept + chunk_);
    std::unique_ptr<char[]> bigger(new char[capacity + kPadding]);
    std::memcpy(bigger.get(), keep, kept);
    storage_ = std::move(bigger);
    capacity_ = capacity;
  } else if (drop > 0) {
    std::memmove(storage_.get(), keep, kept);
  }
  data_ = storage_.get();
  end_ = data_ + kept;
  base_ += drop;
  StatusOr<size_t> n = source_(end_, chunk_);
  if (n.ok() && *n > 0) end_ += *n;
  // The sentinel, and defined bytes for the 16-byte loads that start before it.
  std::memset(end_, 0, 16);
  if (!n.ok()) {
    eof_ = true;
    error_ = n.status();
    return Result::kFailed;
  }
  if (*n == 0) {
    eof_ = true;
    return Result::kEnd;
  }
  return Result::kRead;
}

}  // namespace benchprof::json
