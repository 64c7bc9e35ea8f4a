// --cpuprofile: the CPU profile kind. It starts the CPU sampler
// (collect/cpu_sampler.h) before the first benchmark, arms the timers of
// threads started while it runs, and at the end symbolizes the samples,
// labels them with their benchmark run and writes Go's CPU profile.
//
// Thread-safety: as Profile (profile.h).
#ifndef BENCHPROF_PROFILES_CPU_PROFILE_H_
#define BENCHPROF_PROFILES_CPU_PROFILE_H_

#include <memory>

#include "profiles/profile.h"

namespace benchprof::profiles {

// A new, not yet requested CPU profile kind (flags --cpuprofile,
// --cpuprofilerate).
std::unique_ptr<Profile> MakeCpuProfile();

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_CPU_PROFILE_H_
