// Fuzz target for the pprof profile reader (gzip-compressed and raw).
#include <string>
#include <string_view>

#include "common/status.h"
#include "encode/pprof_reader.h"
#include "encode/pprof_writer.h"
#include "fuzz/fuzz_targets.h"

namespace benchprof::fuzz {

void Pprof(std::string_view data) {
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
