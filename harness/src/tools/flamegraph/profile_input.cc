#include "tools/flamegraph/profile_input.h"

#include <new>

#include "common/whole_file.h"
#include "encode/gzip.h"
#include "encode/pprof_reader.h"

namespace benchprof::flamegraph {

StatusOr<encode::ProfileData> ReadProfileFile(const std::string& path) {
  try {
    // Capped as the reader caps them after gzip (gzip data is never much
    // smaller than what it unpacks to, except in a bomb).
    StatusOr<std::string> bytes = ReadWholeFile(
        path, encode::kMaxProfileBytes,
        "not a readable pprof profile (more than " +
            encode::FormatByteCount(encode::kMaxProfileBytes) + ", over the reader's limit)");
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
