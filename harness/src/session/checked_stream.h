// CheckedStreamBuf: a stream buffer that passes everything to another one
// and remembers whether all of it was accepted. The library writes
// --benchmark_out through its own std::ofstream and never checks it; the
// file reporter writes through this instead, so a full disk is noticed
// before the result file replaces the previous one.
//
//   CheckedStreamBuf checked(library_stream.rdbuf());
//   std::ostream out(&checked);
//   ... out << text; out.flush();
//   if (checked.failed()) ... std::strerror(checked.error()) ...
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_SESSION_CHECKED_STREAM_H_
#define BENCHPROF_SESSION_CHECKED_STREAM_H_

#include <errno.h>

#include <cstdint>
#include <streambuf>

namespace benchprof::session {

class CheckedStreamBuf final : public std::streambuf {
 public:
  explicit CheckedStreamBuf(std::streambuf* target) : target_(target) {}

  // True once the target refused bytes or a flush.
  bool failed() const { return failed_; }
  // errno at the first failure (0 if the target did not set it).
  int error() const { return error_; }
  // Bytes the target accepted.
  uint64_t bytes() const { return bytes_; }

 protected:
  std::streamsize xsputn(const char* text, std::streamsize count) override {
    if (failed_) return 0;
    errno = 0;
    const std::streamsize accepted = target_->sputn(text, count);
    bytes_ += static_cast<uint64_t>(accepted > 0 ? accepted : 0);
    if (accepted < count) Fail();
    return accepted;
  }

  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char one = traits_type::to_char_type(c);
    return xsputn(&one, 1) == 1 ? c : traits_type::eof();
  }

  int sync() override {
    if (failed_) return -1;
    errno = 0;
    if (target_->pubsync() != 0) {
      Fail();
      return -1;
    }
    return 0;
  }

 private:
  void Fail() {
    if (!failed_) error_ = errno;
    failed_ = true;
  }

  std::streambuf* target_;
  bool failed_ = false;
  int error_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_CHECKED_STREAM_H_
