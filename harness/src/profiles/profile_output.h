// Writing a built pprof profile: serialized and gzipped into the kind's
// output file (at its temporary path: the session moves it into place with
// the other outputs), and the line that says what was written ("cpu profile:
// cpu.pprof (1234 samples, 0 lost)").
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_PROFILES_PROFILE_OUTPUT_H_
#define BENCHPROF_PROFILES_PROFILE_OUTPUT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/atomic_file.h"
#include "common/status.h"
#include "encode/profile_data.h"
#include "profiles/profile.h"

namespace benchprof::profiles {

// Writes `profile` into `file`'s temporary path. `flag` ("cpuprofile") names
// the output in errors; `what` ("cpu profile") starts the summary line, which
// counts `samples` and `lost` samples.
StatusOr<profiles::WrittenFile> WriteProfile(const encode::ProfileData& profile, AtomicFile& file,
                                             std::string_view flag, std::string_view what,
                                             uint64_t samples, uint64_t lost);

// The comment an interrupted profile carries (empty if `ending` is not an
// interruption).
std::vector<std::string> InterruptionComments(const RunEnding& ending);

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_PROFILE_OUTPUT_H_
