#include "profiles/profile_output.h"

#include <string>

#include "encode/pprof_writer.h"

namespace benchprof::profiles {

StatusOr<WrittenFile> WriteProfile(const encode::ProfileData& profile, AtomicFile& file,
                                   std::string_view flag, std::string_view what, uint64_t samples,
                                   uint64_t lost) {
  const std::string spelled = "--" + std::string(flag);
  if (Status written = encode::WriteProfileFile(profile, file.temp_path()); !written.ok()) {
    return written.WithContext(spelled + "=" + file.path());
  }
  return WrittenFile{&file, spelled,
                     std::string(what) + ": " + file.path() + " (" + std::to_string(samples) +
                         " samples, " + std::to_string(lost) + " lost)"};
}

std::vector<std::string> InterruptionComments(const RunEnding& ending) {
  if (ending.interrupted_by.empty()) return {};
  return {"benchprof: interrupted (" + ending.interrupted_by +
          "): this profile holds what was collected until then; the benchmark that was running "
          "is incomplete in it"};
}

}  // namespace benchprof::profiles
