// Paths taken apart and followed, for the output-file code that must know
// which directory a file lands in and which file a link names.
//
// Thread-safety: thread-safe (FollowLinks reads the file system only).
#ifndef BENCHPROF_COMMON_PATH_NAMES_H_
#define BENCHPROF_COMMON_PATH_NAMES_H_

#include <string>

#include "common/status.h"

namespace benchprof {

// The directory part of `path`: "." for a bare name, "/" for "/x".
std::string DirectoryOf(const std::string& path);

// The last component of `path` ("" if it ends with '/').
std::string BaseNameOf(const std::string& path);

// The file `path` names once symbolic links are followed, as a path: each
// link's target, resolved against the link's directory, until a name that
// is not a link (also one that does not exist yet). Fails on a loop or an
// unreadable link, naming `path`.
StatusOr<std::string> FollowLinks(const std::string& path);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_PATH_NAMES_H_
