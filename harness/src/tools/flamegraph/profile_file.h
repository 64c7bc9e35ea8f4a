// Reading profiles users hand to the tool, and writing the HTML it makes.
//
//   StatusOr<encode::ProfileData> profile = ReadProfileFile("cpu.pprof");
//   if (!profile.ok()) return Fail(err, profile.status().message());  // "cpu.pprof: ..."
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_TOOLS_FLAMEGRAPH_PROFILE_FILE_H_
#define BENCHPROF_TOOLS_FLAMEGRAPH_PROFILE_FILE_H_

#include <string>
#include <string_view>

#include "common/atomic_file.h"
#include "common/status.h"
#include "encode/profile_data.h"

namespace benchprof::flamegraph {

// Reads and decodes a pprof profile (gzip or not, from any tool). The error
// starts with `path`: "cpu.pprof: not a profile (...)".
StatusOr<encode::ProfileData> ReadProfileFile(const std::string& path);

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_PROFILE_FILE_H_
