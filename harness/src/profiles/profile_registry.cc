#include "profiles/profile_registry.h"

#include <algorithm>

#include "profiles/contention_profiles.h"
#include "profiles/cpu_profile.h"
#include "profiles/heap_profile.h"
#include "profiles/instructions_profile.h"
#include "profiles/trace_profile.h"

namespace benchprof::profiles {
namespace {

using ProfileFactory = std::unique_ptr<Profile> (*)();

// Every profile kind. Add a kind here.
constexpr ProfileFactory kProfileKinds[] = {
    &MakeCpuProfile,   &MakeHeapProfile,  &MakeTraceProfile,
    &MakeBlockProfile, &MakeMutexProfile, &MakeInstructionsProfile,
};

}  // namespace

std::vector<std::unique_ptr<Profile>> MakeProfiles() {
  std::vector<std::unique_ptr<Profile>> kinds;
  for (ProfileFactory make : kProfileKinds) kinds.push_back(make());
  return kinds;
}

std::vector<Profile*> InStartOrder(std::vector<Profile*> kinds) {
  std::stable_sort(kinds.begin(), kinds.end(), [](const Profile* a, const Profile* b) {
    return a->traits().stage < b->traits().stage;
  });
  return kinds;
}

}  // namespace benchprof::profiles
