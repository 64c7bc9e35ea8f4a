// Reading a whole input file into memory, for readers of formats that are
// parsed in one piece (profiles, callgrind files). The file must be a
// regular file (a FIFO or a device would block or never end) no larger
// than a cap the caller chooses, so a hostile input cannot exhaust memory.
//
//   StatusOr<std::string> text = ReadWholeFile("callgrind.out.1", size_t{1} << 30);
//   if (!text.ok()) return text.status();  // "callgrind.out.1: not a regular file"
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_COMMON_WHOLE_FILE_H_
#define BENCHPROF_COMMON_WHOLE_FILE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof {

// The bytes of the regular file `path`. Fails with one line naming `path`
// when it cannot be opened or read, is not a regular file, or holds more
// than `max_bytes` bytes ("<path>: <too_large>"; by default "larger than N
// MiB"): a file larger than that is refused before anything is read.
StatusOr<std::string> ReadWholeFile(const std::string& path, size_t max_bytes,
                                    std::string_view too_large = {});

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_WHOLE_FILE_H_
