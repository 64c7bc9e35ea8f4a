// Whether two paths name the same file, before any of them is written:
// `--cpuprofile=x --trace=./x` must be refused, not leave one of the two.
//
// Thread-safety: thread-safe (reads the file system only).
#ifndef BENCHPROF_COMMON_FILE_IDENTITY_H_
#define BENCHPROF_COMMON_FILE_IDENTITY_H_

#include <span>
#include <string>

#include "common/status.h"

namespace benchprof {

// A path given on a command line, and how to name it in a message:
// `what` is "--cpuprofile" for an output flag, "input" for an input file.
struct NamedPath {
  std::string what;
  std::string path;
};

// OK if no two of `paths` name the same file; else an error naming both,
// e.g. "--trace=./x and --cpuprofile=x are the same file". Symbolic links
// are followed; a file that does not exist yet is identified by its
// directory and name. Devices (/dev/null) may be named more than once.
Status CheckDistinctFiles(std::span<const NamedPath> paths);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_FILE_IDENTITY_H_
