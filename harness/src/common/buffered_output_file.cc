#include "common/buffered_output_file.h"

#include <cerrno>
#include <cstring>

#include "common/temporary_files.h"

namespace benchprof {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

}  // namespace

BufferedOutputFile::~BufferedOutputFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void BufferedOutputFile::Open() {
  file_ = OpenForWriting(path_, "w");
  if (file_ == nullptr) open_error_ = std::strerror(errno);
  buffer_.reserve(kFlushBytes + 4096);
}

void BufferedOutputFile::NoteWriteError() {
  // The first failure is the reason (a full disk: ENOSPC, a size limit:
  // EFBIG); later ones follow from it.
  if (write_errno_ == 0) write_errno_ = errno != 0 ? errno : EIO;
}

void BufferedOutputFile::FlushIfLarge() {
  if (buffer_.size() < kFlushBytes) return;
  if (file_ != nullptr && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    NoteWriteError();
  }
  buffer_.clear();
}

Status BufferedOutputFile::Finish() {
  if (file_ == nullptr) return Status::Error(path_ + ": " + open_error_);
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) NoteWriteError();
  buffer_.clear();
  buffer_.shrink_to_fit();
  if (std::fclose(file_) != 0) NoteWriteError();
  file_ = nullptr;
  if (write_errno_ != 0) {
    // Not named: path_ may be the temporary file; the caller names the output.
    return Status::Error("cannot write " + what_ + " (" + std::strerror(write_errno_) + ")");
  }
  return Status();
}

}  // namespace benchprof
