// Fuzz target for the pprof profile reader (gzip-compressed and raw).
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "encode/pprof_reader.h"
#include "encode/pprof_writer.h"
#include "fuzz/fuzz_targets.h"

namespace benchprof::fuzz {

namespace {

// Every limit of the reader at 64 (bytes at 64 KiB), so the fuzzer's small
// inputs reach each of them: the read gives one line, or a profile within
// them all.
void PprofWithinSmallLimits(std::string_view data) {
  encode::ProfileLimits small;
  small.bytes = 64 << 10;
  for (uint64_t encode::ProfileLimits::*limit :
       {&encode::ProfileLimits::strings, &encode::ProfileLimits::string_bytes,
        &encode::ProfileLimits::sample_types, &encode::ProfileLimits::comments,
        &encode::ProfileLimits::mappings, &encode::ProfileLimits::functions,
        &encode::ProfileLimits::locations, &encode::ProfileLimits::lines,
        &encode::ProfileLimits::samples, &encode::ProfileLimits::values,
        &encode::ProfileLimits::labels, &encode::ProfileLimits::stack_depth,
        &encode::ProfileLimits::frames, &encode::ProfileLimits::unknown_fields}) {
    small.*limit = 64;
  }
  StatusOr<encode::ProfileData> profile = encode::ReadProfile(data, small);
  if (!profile.ok()) {
    FUZZ_CHECK(profile.status().message().find('\n') == std::string::npos,
               "an error of several lines");
    return;
  }
  FUZZ_CHECK(profile->samples.size() <= 64 && profile->locations.size() <= 64 &&
                 profile->functions.size() <= 64 && profile->mappings.size() <= 64 &&
                 profile->sample_types.size() <= 64 && profile->comments.size() <= 64,
             "a profile over the limits it was read with");
  size_t frames = 0;
  for (const encode::ProfileSample& sample : profile->samples) {
    for (const size_t location : sample.location_indexes) {
      frames += std::max<size_t>(profile->locations[location].lines.size(), 1);
    }
  }
  FUZZ_CHECK(frames <= 64, "more frames than the limit it was read with");
}

}  // namespace

void Pprof(std::string_view data) {
  PprofWithinSmallLimits(data);
  StatusOr<encode::ProfileData> profile = encode::ReadProfile(data);
  if (!profile.ok()) {
    FUZZ_CHECK(!profile.status().message().empty(), "an error without a message");
    FUZZ_CHECK(profile.status().message().find('\n') == std::string::npos,
               "an error of several lines");
    return;
  }
  if (!encode::ValidateProfile(*profile).ok()) return;
  // A profile that reads and validates is one the writer writes readably.
  const std::string again = encode::SerializeProfile(*profile);
  StatusOr<encode::ProfileData> back = encode::ReadProfile(again);
  FUZZ_CHECK(back.ok(), back.ok() ? "" : back.status().message().c_str());
  FUZZ_CHECK(back->samples.size() == profile->samples.size(), "the round trip loses samples");
}

}  // namespace benchprof::fuzz
