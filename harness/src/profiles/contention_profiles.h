// --blockprofile and --mutexprofile: Go's two contention profiles as two
// kinds over one collector (collect/contention_sampler.h). The block profile
// shows where threads waited and for how long (the waiter's stack); the
// mutex profile shows which critical sections made others wait (the
// unlocker's stack, charged the waiters' time). Both cover the benchmarks'
// timed scope only, like every other profile, and are labelled per run.
//
// Thread-safety: as Profile (profile.h).
#ifndef BENCHPROF_PROFILES_CONTENTION_PROFILES_H_
#define BENCHPROF_PROFILES_CONTENTION_PROFILES_H_

#include <memory>

#include "profiles/profile.h"

namespace benchprof::profiles {

// A new, not yet requested block profile kind (flags --blockprofile,
// --blockprofilerate).
std::unique_ptr<Profile> MakeBlockProfile();

// A new, not yet requested mutex profile kind (flags --mutexprofile,
// --mutexprofilefraction).
std::unique_ptr<Profile> MakeMutexProfile();

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_CONTENTION_PROFILES_H_
