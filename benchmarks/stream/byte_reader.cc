#include "stream/byte_reader.h"

#include <algorithm>
#include <cstring>

namespace benchprof::stream {

Reader::~Reader() = default;

namespace {

// Serves bytes from a borrowed view. Hidden in this file so callers only ever
// see it through Reader.
class BufferReader final : public Reader {
 public:
  explicit BufferReader(std::string_view data) : data_(data) {}

  size_t Read(char* dst, size_t n) override {
    const size_t count = std::min(n, data_.size() - pos_);
    if (count != 0) std::memcpy(dst, data_.data() + pos_, count);
    pos_ += count;
    return count;
  }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace

size_t ReadFull(Reader& reader, char* dst, size_t n) {
  size_t total = 0;
  while (total < n) {
    const size_t got = reader.Read(dst + total, n - total);
    if (got == 0) break;
    total += got;
  }
  return total;
}

std::unique_ptr<Reader> NewBufferReader(std::string_view data) {
  return std::make_unique<BufferReader>(data);
}

}  // namespace benchprof::stream
