#include "profiles/profile_file.h"

#include <cstdio>
#include <string>

#include "encode/pprof_writer.h"

namespace benchprof::profiles {

Status CommitProfile(const encode::ProfileData& profile, AtomicFile& file, std::string_view flag,
                     std::string_view what, uint64_t samples, uint64_t lost) {
  const std::string spelled = "--" + std::string(flag);
  if (Status written = encode::WriteProfileFile(profile, file.temp_path()); !written.ok()) {
    return written.WithContext(spelled + "=" + file.path());
  }
  if (Status committed = file.Commit(); !committed.ok()) return committed.WithContext(spelled);
  std::fprintf(stderr, "%.*s: %s (%llu samples, %llu lost)\n", static_cast<int>(what.size()),
               what.data(), file.path().c_str(), static_cast<unsigned long long>(samples),
               static_cast<unsigned long long>(lost));
  return Status();
}

}  // namespace benchprof::profiles
