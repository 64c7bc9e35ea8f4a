// Writing a built pprof profile: serialized and gzipped into the kind's
// output file, which then moves into place, and one line on stderr saying
// what was written ("cpu profile: cpu.pprof (1234 samples, 0 lost)").
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_PROFILES_PROFILE_FILE_H_
#define BENCHPROF_PROFILES_PROFILE_FILE_H_

#include <cstdint>
#include <string_view>

#include "common/atomic_file.h"
#include "common/status.h"
#include "encode/profile_data.h"

namespace benchprof::profiles {

// Writes `profile` into `file` and commits it. `flag` ("cpuprofile") names
// the output in errors; `what` ("cpu profile") starts the stderr line, which
// counts `samples` and `lost` samples.
Status CommitProfile(const encode::ProfileData& profile, AtomicFile& file, std::string_view flag,
                     std::string_view what, uint64_t samples, uint64_t lost);

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_PROFILE_FILE_H_
