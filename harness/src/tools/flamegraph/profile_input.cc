#include "tools/flamegraph/profile_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "encode/gzip.h"
#include "encode/pprof_reader.h"

namespace benchprof::flamegraph {

namespace {

// A profile's bytes, capped as the reader caps them after gzip (gzip data
// is never much smaller than what it unpacks to, except in a bomb).
StatusOr<std::string> ReadBytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::Error(path + ": not a regular file");
  }
  const auto too_large = [&] {
    ::close(fd);
    return Status::Error(path + ": not a readable pprof profile (more than " +
                         encode::FormatByteCount(encode::kMaxProfileBytes) +
                         ", over the reader's limit)");
  };
  if (static_cast<uint64_t>(st.st_size) > encode::kMaxProfileBytes) return too_large();
  std::string bytes;
  bytes.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(fd);
      return Status::Error(path + ": read failed: " + std::strerror(saved));
    }
    if (n == 0) break;
    if (static_cast<size_t>(n) > encode::kMaxProfileBytes - bytes.size()) return too_large();
    bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return bytes;
}

}  // namespace

StatusOr<encode::ProfileData> ReadProfileFile(const std::string& path) {
  try {
    StatusOr<std::string> bytes = ReadBytes(path);
    if (!bytes.ok()) return bytes.status();
    StatusOr<encode::ProfileData> profile = encode::ReadProfile(*bytes);
    if (!profile.ok()) {
      return Status::Error(path + ": not a readable pprof profile (" + profile.status().message() +
                           ")");
    }
    return profile;
  } catch (const std::bad_alloc&) {
    // What the attempt allocated is freed by now, so the message fits.
    return Status::Error("out of memory while reading " + path);
  }
}

}  // namespace benchprof::flamegraph
