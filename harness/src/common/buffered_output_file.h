// An output file written through a large in-memory buffer, for writers
// that build their output in pieces (the trace formatters): the text is
// appended to buffer(), written out in 1 MiB blocks, and Finish() writes the
// rest, closes the file and says whether every write succeeded. A failed
// open or write does not stop the writer: it keeps formatting, and Finish()
// reports the first failure, so a full disk costs one message, not a crash.
//
//   BufferedOutputFile out(path);
//   out.Open();
//   out.buffer() += "...";
//   out.FlushIfLarge();
//   Status done = out.Finish();   // "cannot write the trace (No space left on device)"
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_COMMON_BUFFERED_OUTPUT_FILE_H_
#define BENCHPROF_COMMON_BUFFERED_OUTPUT_FILE_H_

#include <cstdio>
#include <string>

#include "common/status.h"

namespace benchprof {

class BufferedOutputFile {
 public:
  // `what` names the content in a write failure ("the trace").
  BufferedOutputFile(std::string path, std::string what)
      : path_(std::move(path)), what_(std::move(what)) {}
  ~BufferedOutputFile();
  BufferedOutputFile(const BufferedOutputFile&) = delete;
  BufferedOutputFile& operator=(const BufferedOutputFile&) = delete;

  // Creates the file (OpenForWriting: a device or FIFO is written through).
  // A failure is kept for Finish().
  void Open();

  // What is not written yet; append to it.
  std::string& buffer() { return buffer_; }

  // Writes the buffer out once it holds a block or more.
  void FlushIfLarge();

  // Writes the rest and closes the file. Fails with "PATH: <why>" when it
  // could not be opened, or "cannot write WHAT (<errno text>)" when a write
  // or the close failed (not naming the path, which may be a temporary).
  Status Finish();

 private:
  void NoteWriteError();

  const std::string path_;
  const std::string what_;
  std::FILE* file_ = nullptr;
  std::string open_error_;  // why the file could not be created
  int write_errno_ = 0;     // the first failed write's errno; 0 while all succeed
  std::string buffer_;
};

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_BUFFERED_OUTPUT_FILE_H_
