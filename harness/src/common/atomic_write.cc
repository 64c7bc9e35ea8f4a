// WriteFileAtomically (<benchprof/files.h>): AtomicFile for programs that
// see only the public API.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "benchprof/files.h"
#include "common/atomic_file.h"
#include "common/temporary_files.h"

namespace benchprof {

bool WriteFileAtomically(const std::string& path,
                         const std::function<bool(std::FILE* out, std::string* error)>& write,
                         std::string* error) {
  StatusOr<AtomicFile> file = AtomicFile::Create(path);
  if (!file.ok()) {
    *error = file.status().message();
    return false;
  }
  std::FILE* out = OpenForWriting(file->temp_path(), "wb");
  if (out == nullptr) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  std::string why;
  bool ok = write(out, &why);
  if (ok && std::ferror(out) != 0) {
    ok = false;
    why = "write failed";
  }
  errno = 0;
  if (std::fclose(out) != 0 && ok) {
    ok = false;
    why = errno != 0 ? std::strerror(errno) : "write failed";
  }
  if (!ok) {
    *error = path + ": " + (why.empty() ? std::string("write failed") : why);
    return false;  // the AtomicFile's destructor removes the temporary
  }
  if (Status committed = file->Commit(); !committed.ok()) {
    *error = committed.message();
    return false;
  }
  return true;
}

}  // namespace benchprof
