// --memprofile: the heap profile kind, Go's allocs profile. It starts the
// heap sampler (collect/heap_sampler.h) before the first benchmark and at
// the end symbolizes its buckets, labels them with their benchmark run and
// writes the profile.
//
// What is sampled: allocations made in benchmarks' timed scope, the same
// ones --benchmem counts (Go's -memprofile sees every allocation since the
// process started; benchprof leaves out setup, teardown and paused time so
// the profile explains allocs/op). In-use figures are taken when Finish()
// runs, after the last benchmark: what the benchmarks allocated and never
// freed.
//
// Thread-safety: as Profile (profile.h).
#ifndef BENCHPROF_PROFILES_HEAP_PROFILE_H_
#define BENCHPROF_PROFILES_HEAP_PROFILE_H_

#include <memory>

#include "profiles/profile.h"

namespace benchprof::profiles {

// A new, not yet requested heap profile kind (flags --memprofile,
// --memprofilerate).
std::unique_ptr<Profile> MakeHeapProfile();

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_HEAP_PROFILE_H_
