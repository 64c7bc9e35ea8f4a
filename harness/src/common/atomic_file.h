// AtomicFile: an output file that appears whole or not at all.
//
// Writers write to a temporary file in the destination's directory and
// Commit() renames it over the destination, so a reader never sees a
// half-written profile or result file, and a failed run leaves nothing
// behind. Creating the temporary up front is also how an unwritable output
// path is reported before any benchmark runs.
//
// Only regular files get that treatment. A symbolic link stays: the file it
// points to is replaced. A device, a FIFO and anything under /dev or /proc
// (/dev/stdout, /dev/null) are written directly: temp_path() is the path
// itself and Commit() has nothing to move.
//
//   StatusOr<AtomicFile> out = AtomicFile::Create("cpu.pprof");
//   if (!out.ok()) { ... out.status().message() ... }
//   WriteTo(out->temp_path());
//   Status done = out->Commit();
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_COMMON_ATOMIC_FILE_H_
#define BENCHPROF_COMMON_ATOMIC_FILE_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof {

class AtomicFile {
 public:
  // Creates an empty temporary file beside `path`, with the permission bits
  // of the file of ours it will replace, or those the umask gives a new
  // file. Fails, naming the problem, if `path` is a directory, is not
  // writable, or its directory does not exist or is not writable.
  static StatusOr<AtomicFile> Create(const std::string& path);

  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Removes the temporary file unless Commit() succeeded.
  ~AtomicFile();

  // The destination.
  const std::string& path() const { return path_; }

  // Where to write; renamed to path() (or the file it links to) by Commit().
  const std::string& temp_path() const { return temp_path_; }

  // True if writes go to path() directly (a device, a FIFO, /dev/stdout).
  bool writes_through() const { return write_through_; }

  // Moves the temporary file into place. After a failure the temporary file
  // is removed and the destination is unchanged.
  Status Commit();

  // Writes `contents` to the temporary file (or, writing through, to the
  // device) and commits it. On failure the error names path() and errno's
  // reason ("out.json: write failed (No space left on device)", followed
  // by "; the file is unchanged" unless writing through) and the
  // destination is unchanged.
  Status WriteAndCommit(std::string_view contents);

 private:
  AtomicFile(std::string path, std::string temp_path, bool write_through)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), write_through_(write_through) {}

  void RemoveTemporary();

  std::string path_;
  std::string target_;     // what Commit() replaces: path_ with its links followed
  std::string temp_path_;  // empty once committed or moved from
  bool write_through_ = false;
};

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_ATOMIC_FILE_H_
