#include "encode/gzip.h"

// next_in becomes a pointer to const, so input needs no const_cast.
#define ZLIB_CONST
#include <zlib.h>

#include <algorithm>
#include <new>
#include <vector>

namespace benchprof::encode {
namespace {

// zlib counts in uInt (32 bits); larger inputs are fed in pieces.
constexpr size_t kMaxChunk = size_t{1} << 30;
constexpr size_t kOutputBuffer = size_t{64} << 10;
// windowBits + 16 selects the gzip container instead of zlib's.
constexpr int kGzipWindowBits = 15 + 16;

// Owns a z_stream for deflate or inflate and ends it on every return path.
class ZStream {
 public:
  enum class Mode { kDeflate, kInflate };
  explicit ZStream(Mode mode) : mode_(mode) {}
  ZStream(const ZStream&) = delete;
  ZStream& operator=(const ZStream&) = delete;
  ~ZStream() {
    if (!initialized_) return;
    if (mode_ == Mode::kDeflate) {
      deflateEnd(&stream_);
    } else {
      inflateEnd(&stream_);
    }
  }

  // Returns zlib's result of deflateInit2/inflateInit2.
  int Init() {
    const int result = mode_ == Mode::kDeflate
                           ? deflateInit2(&stream_, Z_BEST_SPEED, Z_DEFLATED, kGzipWindowBits, 8,
                                          Z_DEFAULT_STRATEGY)
                           : inflateInit2(&stream_, kGzipWindowBits);
    initialized_ = result == Z_OK;
    return result;
  }

  z_stream* get() { return &stream_; }

 private:
  Mode mode_;
  z_stream stream_{};
  bool initialized_ = false;
};

std::string ZlibMessage(const z_stream& stream, const char* fallback) {
  return stream.msg != nullptr ? stream.msg : fallback;
}

}  // namespace

std::string FormatByteCount(size_t bytes) {
  constexpr size_t kMiB = size_t{1} << 20;
  if (bytes != 0 && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

StatusOr<std::string> GzipCompress(std::string_view data) {
  ZStream zs(ZStream::Mode::kDeflate);
  if (zs.Init() != Z_OK) return Status::Error("gzip: cannot initialize zlib");
  z_stream* s = zs.get();
  std::vector<unsigned char> buffer(kOutputBuffer);
  std::string out;
  size_t fed = 0;
  int flush = Z_NO_FLUSH;
  do {
    const size_t chunk = std::min(data.size() - fed, kMaxChunk);
    s->next_in = reinterpret_cast<const Bytef*>(data.data() + fed);
    s->avail_in = static_cast<uInt>(chunk);
    fed += chunk;
    flush = fed == data.size() ? Z_FINISH : Z_NO_FLUSH;
    // Drain until deflate leaves room in the buffer: then it has consumed
    // all input (and, with Z_FINISH, written the trailer).
    do {
      s->next_out = buffer.data();
      s->avail_out = static_cast<uInt>(buffer.size());
      const int result = deflate(s, flush);
      if (result == Z_STREAM_ERROR) return Status::Error("gzip: zlib stream error");
      out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - s->avail_out);
    } while (s->avail_out == 0);
  } while (flush != Z_FINISH);
  return out;
}

StatusOr<std::string> GzipDecompress(std::string_view data, size_t max_output) {
  if (data.empty()) return Status::Error("gzip: empty input");
  ZStream zs(ZStream::Mode::kInflate);
  if (const int result = zs.Init(); result != Z_OK) {
    if (result == Z_MEM_ERROR) throw std::bad_alloc();
    return Status::Error("gzip: cannot initialize zlib");
  }
  z_stream* s = zs.get();
  std::vector<unsigned char> buffer(kOutputBuffer);
  std::string out;
  size_t fed = 0;
  for (;;) {
    if (s->avail_in == 0 && fed < data.size()) {
      const size_t chunk = std::min(data.size() - fed, kMaxChunk);
      s->next_in = reinterpret_cast<const Bytef*>(data.data() + fed);
      s->avail_in = static_cast<uInt>(chunk);
      fed += chunk;
    }
    s->next_out = buffer.data();
    s->avail_out = static_cast<uInt>(buffer.size());
    const int result = inflate(s, Z_NO_FLUSH);
    const size_t produced = buffer.size() - s->avail_out;
    if (produced > max_output - out.size()) {
      return Status::Error("gzip: data decompresses to more than " + FormatByteCount(max_output) +
                           ", over the limit");
    }
    out.append(reinterpret_cast<const char*>(buffer.data()), produced);
    const bool input_left = s->avail_in != 0 || fed < data.size();
    switch (result) {
      case Z_STREAM_END: {
        if (!input_left) return out;
        // Another member may follow, as in `cat a.gz b.gz`; anything else
        // is an error, as it is for gzip(1) and Go.
        const size_t next = fed - s->avail_in;
        if (static_cast<unsigned char>(data[next]) != 0x1f ||
            (next + 1 < data.size() && static_cast<unsigned char>(data[next + 1]) != 0x8b)) {
          return Status::Error("gzip: " + std::to_string(data.size() - next) +
                               " bytes of trailing garbage after the compressed data");
        }
        if (inflateReset(s) != Z_OK) return Status::Error("gzip: zlib stream error");
        break;
      }
      case Z_OK:
        // Room left in the buffer and no input left means inflate is
        // waiting for bytes that will never come.
        if (!input_left && s->avail_out != 0) return Status::Error("gzip: truncated data");
        break;
      case Z_BUF_ERROR:
        // No progress was possible; the buffer had room, so input ran out.
        return Status::Error("gzip: truncated data");
      case Z_MEM_ERROR:
        // As the output string would when it cannot grow: the caller's
        // out-of-memory path, not a verdict on the data.
        throw std::bad_alloc();
      default:  // Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR
        return Status::Error("gzip: corrupt data (" + ZlibMessage(*s, "invalid stream") + ")");
    }
  }
}

}  // namespace benchprof::encode
