#include "tracer/trace_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <utility>

namespace benchprof::tracer {
namespace {

// Precedes every appended run of records.
struct SpoolHeader {
  int32_t tid;
  uint32_t count;
};

std::string SpoolDirectory() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

Status WriteAll(int fd, const void* data, size_t bytes) {
  const char* at = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t written = write(fd, at, bytes);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      return Status::Error(std::string("cannot write the trace spool: ") + std::strerror(errno));
    }
    at += written;
    bytes -= static_cast<size_t>(written);
  }
  return Status();
}

// Reads exactly `bytes`; false at a clean end of file before any byte.
StatusOr<bool> ReadAll(int fd, void* data, size_t bytes) {
  char* at = static_cast<char*>(data);
  size_t done = 0;
  while (done < bytes) {
    const ssize_t got = read(fd, at + done, bytes - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return Status::Error(std::string("cannot read the trace spool: ") + std::strerror(errno));
    }
    if (got == 0) {
      if (done == 0) return false;
      return Status::Error("the trace spool ends inside a record");
    }
    done += static_cast<size_t>(got);
  }
  return true;
}

}  // namespace

StatusOr<TraceSpool> TraceSpool::Create() {
  const std::string dir = SpoolDirectory();
  int fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    // File systems without O_TMPFILE: a named file, unlinked at once.
    std::string path = dir + "/benchprof-trace-XXXXXX";
    fd = mkostemp(path.data(), O_CLOEXEC);
    if (fd >= 0) unlink(path.c_str());
  }
  if (fd < 0) {
    return Status::Error("cannot create the trace spool in " + dir + ": " + std::strerror(errno));
  }
  return TraceSpool(fd);
}

TraceSpool::TraceSpool(TraceSpool&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_) {}

TraceSpool::~TraceSpool() {
  if (fd_ >= 0) close(fd_);
}

Status TraceSpool::Append(pid_t tid, const RecordSlot* slots, uint32_t count) {
  if (count == 0) return Status();
  const SpoolHeader header{static_cast<int32_t>(tid), count};
  const size_t bytes = size_t{count} * sizeof(RecordSlot);
  Status written = WriteAll(fd_, &header, sizeof header);
  if (written.ok()) written = WriteAll(fd_, slots, bytes);
  if (!written.ok()) {
    // Cut off what part of this run made it, so Replay() sees whole runs.
    if (ftruncate(fd_, static_cast<off_t>(size_)) != 0 ||
        lseek(fd_, static_cast<off_t>(size_), SEEK_SET) < 0) {
      return written.WithContext("and cannot cut the spool back");
    }
    return written;
  }
  size_ += sizeof header + bytes;
  return Status();
}

Status TraceSpool::Replay(uint64_t /*end_ticks*/,
                          const std::function<void(const Chunk& chunk, uint32_t count)>& visit) {
  if (lseek(fd_, 0, SEEK_SET) < 0) {
    return Status::Error(std::string("cannot read the trace spool: ") + std::strerror(errno));
  }
  auto chunk = std::make_unique<Chunk>();
  for (;;) {
    SpoolHeader header;
    StatusOr<bool> more = ReadAll(fd_, &header, sizeof header);
    if (!more.ok()) return more.status();
    if (!*more) return Status();
    if (header.count > kSlotsPerChunk) return Status::Error("the trace spool is corrupt");
    StatusOr<bool> read = ReadAll(fd_, chunk->slots, size_t{header.count} * sizeof(RecordSlot));
    if (!read.ok()) return read.status();
    if (!*read) return Status::Error("the trace spool ends inside a record");
    chunk->header.tid = static_cast<pid_t>(header.tid);
    visit(*chunk, header.count);
  }
}

}  // namespace benchprof::tracer
