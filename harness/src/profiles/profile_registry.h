// The registry of profile kinds: the one place that names them all.
//
//   std::vector<std::unique_ptr<Profile>> kinds = MakeProfiles();
//   for (auto& kind : kinds) kind->DeclareFlags(flags);
//   ... parse ...
//   for (Profile* kind : InStartOrder(requested)) kind->Start(...);
//
// Thread-safety: thread-safe (each call makes new objects).
#ifndef BENCHPROF_PROFILES_PROFILE_REGISTRY_H_
#define BENCHPROF_PROFILES_PROFILE_REGISTRY_H_

#include <memory>
#include <vector>

#include "profiles/profile.h"

namespace benchprof::profiles {

// One new object of every kind, in registry order (the order of their
// flags in --help).
std::vector<std::unique_ptr<Profile>> MakeProfiles();

// `kinds` in the order they start: by traits().stage, and within a stage in
// the order given. They finish in the same order.
std::vector<Profile*> InStartOrder(std::vector<Profile*> kinds);

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_PROFILE_REGISTRY_H_
