// A minimal byte-stream interface, the C++ stand-in for Go's io.Reader.
//
// The Elvis stream workload's naive algorithm (algOne) reads its input through
// this interface on purpose: every byte costs a virtual call, and the concrete
// reader lives only in byte_reader.cc, so the optimiser can neither devirtualize
// the calls nor elide the reader's heap allocation. That is the cost the
// benchmark is meant to show, so do not "fix" it by inlining.
//
// Example:
//   std::unique_ptr<Reader> in = NewBufferReader("hello");
//   char buf[3];
//   size_t n = ReadFull(*in, buf, sizeof buf);  // n == 3, buf == "hel"
//
// Thread-safety: a Reader is thread-compatible (one thread at a time);
// ReadFull and NewBufferReader keep no state of their own.

#ifndef BENCHPROF_BENCHMARKS_STREAM_BYTE_READER_H_
#define BENCHPROF_BENCHMARKS_STREAM_BYTE_READER_H_

#include <cstddef>
#include <memory>
#include <string_view>

namespace benchprof::stream {

// A source of bytes read front to back.
class Reader {
 public:
  virtual ~Reader();

  // Copies up to `n` bytes into `dst` and returns how many were copied. May
  // return fewer than `n` before the end; returns 0 only at the end of the
  // stream (or when `n` is 0). `dst` must hold at least `n` bytes.
  virtual size_t Read(char* dst, size_t n) = 0;

 protected:
  Reader() = default;
  Reader(const Reader&) = default;
  Reader& operator=(const Reader&) = default;
};

// Reads from `reader` into `dst` until `n` bytes have been read or the stream
// ends, like Go's io.ReadFull. Returns the number of bytes read; a result
// smaller than `n` means the stream ended. Defined out of line so the buffer
// passed as `dst` escapes.
size_t ReadFull(Reader& reader, char* dst, size_t n);

// Returns a heap-allocated Reader over `data` (like Go's bytes.NewBuffer).
// `data` is not copied and must outlive the reader.
std::unique_ptr<Reader> NewBufferReader(std::string_view data);

}  // namespace benchprof::stream

#endif  // BENCHPROF_BENCHMARKS_STREAM_BYTE_READER_H_
