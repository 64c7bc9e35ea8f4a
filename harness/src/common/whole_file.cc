#include "common/whole_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace benchprof {

StatusOr<std::string> ReadWholeFile(const std::string& path, size_t max_bytes,
                                    std::string_view too_large) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::Error(path + ": not a regular file");
  }
  const auto refuse = [&] {
    ::close(fd);
    return Status::Error(path + ": " +
                         (too_large.empty()
                              ? "larger than " + std::to_string(max_bytes >> 20) + " MiB"
                              : std::string(too_large)));
  };
  if (static_cast<uint64_t>(st.st_size) > max_bytes) return refuse();
  std::string bytes;
  bytes.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(fd);
      return Status::Error(path + ": read failed: " + std::strerror(saved));
    }
    if (n == 0) break;
    // The file grew while it was read.
    if (static_cast<size_t>(n) > max_bytes - bytes.size()) return refuse();
    bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return bytes;
}

}  // namespace benchprof
