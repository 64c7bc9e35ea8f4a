#include "tools/flamegraph/profile_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "encode/gzip.h"
#include "encode/pprof_reader.h"

namespace benchprof::flamegraph {

namespace {

// A profile's bytes, capped as GzipDecompress caps its output.
StatusOr<std::string> ReadBytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::Error(path + ": not a regular file");
  }
  std::string bytes;
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
    bytes.append(buffer, static_cast<size_t>(n));
    if (bytes.size() > encode::kMaxGzipOutput) {
      ::close(fd);
      return Status::Error(path + ": larger than 1 GiB, not a profile");
    }
  }
  ::close(fd);
  return bytes;
}

}  // namespace

StatusOr<encode::ProfileData> ReadProfileFile(const std::string& path) {
  StatusOr<std::string> bytes = ReadBytes(path);
  if (!bytes.ok()) return bytes.status();
  StatusOr<encode::ProfileData> profile = encode::ReadProfile(*bytes);
  if (!profile.ok())
    return Status::Error(path + ": not a readable pprof profile (" + profile.status().message() +
                         ")");
  return profile;
}

}  // namespace benchprof::flamegraph
