#include "common/json_byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

namespace benchprof::json {
namespace {

// An open file descriptor, closed with the last copy of the source that
// reads it (ByteSource is a std::function, which must be copyable).
class SharedFd {
 public:
  explicit SharedFd(int fd)
      : fd_(new int(fd), [](int* f) {
          ::close(*f);
          delete f;
        }) {}
  int get() const { return *fd_; }

 private:
  std::shared_ptr<int> fd_;
};

}  // namespace

StatusOr<ByteSource> OpenFileSource(const std::string& path) {
  const int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) return Status::Error(std::string("cannot open: ") + std::strerror(errno));
  const SharedFd fd(raw);
  struct stat st;
  if (::fstat(fd.get(), &st) == 0 && S_ISDIR(st.st_mode)) return Status::Error("is a directory");
  return ByteSource([fd](char* dst, size_t capacity) -> StatusOr<size_t> {
    for (;;) {
      const ssize_t n = ::read(fd.get(), dst, capacity);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno != EINTR) return Status::Error(std::string("cannot read: ") + std::strerror(errno));
    }
  });
}

ByteSource TextSource(std::string_view text, size_t max_read) {
  max_read = std::max<size_t>(max_read, 1);  // 0 would end the input at once
  return [text, max_read](char* dst, size_t capacity) mutable -> StatusOr<size_t> {
    const size_t n = std::min({capacity, max_read, text.size()});
    if (n > 0) std::memcpy(dst, text.data(), n);
    text.remove_prefix(n);
    return n;
  };
}

ByteSource LimitSource(ByteSource source, uint64_t max_bytes, std::string problem) {
  return [source = std::move(source), max_bytes, problem = std::move(problem), read = uint64_t{0}](
             char* dst, size_t capacity) mutable -> StatusOr<size_t> {
    StatusOr<size_t> n = source(dst, capacity);
    if (!n.ok()) return n;
    read += *n;
    if (read > max_bytes) return Status::Error(problem);
    return n;
  };
}

StatusOr<PeekedSource> Peek(ByteSource source, size_t bytes) {
  PeekedSource peeked;
  peeked.head.resize(bytes);
  size_t have = 0;
  while (have < bytes) {
    StatusOr<size_t> n = source(peeked.head.data() + have, bytes - have);
    if (!n.ok()) return n.status();
    if (*n == 0) {
      peeked.ended = true;
      break;
    }
    have += *n;
  }
  peeked.head.resize(have);
  // The replay hands out the head from a copy, so that the caller may keep
  // (and move) its own.
  peeked.source = [head = peeked.head, offset = size_t{0}, ended = peeked.ended,
                   rest = std::move(source)](char* dst,
                                             size_t capacity) mutable -> StatusOr<size_t> {
    if (offset < head.size()) {
      const size_t n = std::min(capacity, head.size() - offset);
      std::memcpy(dst, head.data() + offset, n);
      offset += n;
      return n;
    }
    if (ended) return size_t{0};
    return rest(dst, capacity);
  };
  return peeked;
}

}  // namespace benchprof::json
