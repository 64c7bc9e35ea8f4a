// Reading profiles users hand to the tool.
//
//   StatusOr<encode::ProfileData> profile = ReadProfileFile("cpu.pprof");
//   if (!profile.ok()) return Fail(err, profile.status().message());  // "cpu.pprof: ..."
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_TOOLS_FLAMEGRAPH_PROFILE_INPUT_H_
#define BENCHPROF_TOOLS_FLAMEGRAPH_PROFILE_INPUT_H_

#include <string>
#include <string_view>

#include "common/atomic_file.h"
#include "common/status.h"
#include "encode/profile_data.h"

namespace benchprof::flamegraph {

// Reads and decodes a pprof profile (gzip or not, from any tool) within
// encode::ProfileLimits' defaults. The error starts with `path`:
// "cpu.pprof: not a readable pprof profile (...)", also for a profile over a
// limit ("... (more than 4000000 samples, over the reader's limit)"). When
// memory runs out (std::bad_alloc, e.g. under ulimit -v), the error is
// "out of memory while reading cpu.pprof".
StatusOr<encode::ProfileData> ReadProfileFile(const std::string& path);

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_PROFILE_INPUT_H_
