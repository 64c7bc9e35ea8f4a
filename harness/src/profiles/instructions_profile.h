// --instructions: instructions executed per iteration (`instructions/op`),
// counted by Valgrind's callgrind in the real timed loops, as allocs/op is
// counted: a deterministic figure for CI gates on noisy machines.
//
// bench --instructions starts itself again under
// `valgrind --tool=callgrind --collect-atstart=no` (valgrind_launch.h); in
// that child this kind turns callgrind's collection on while at least one
// benchmark thread is in its unpaused timed loop (CALLGRIND_TOGGLE_COLLECT),
// resets the counts before each run's loop (CALLGRIND_ZERO_STATS) and dumps
// them after it (CALLGRIND_DUMP_STATS_AT). Callgrind writes the dump before
// the request returns, so thread 0 reads its total there and publishes it as
// the user counter `instructions/op` (kAvgIterations: divided by the
// iterations of all threads), on every run: the library reports the last,
// so its probe runs do not count. Callgrind counts every thread, so work
// handed to other threads during the loop counts; with ->Threads(n) the
// instructions of all n threads are divided by the iterations of all n.
//
// --callgrind_out=DIR keeps the dump of each reported run as
// DIR/callgrind.out.NAME (NAME: the run's name, '/' made '.'), which
// callgrind_annotate and KCachegrind open.
//
// Thread-safety: as Profile (profile.h).
#ifndef BENCHPROF_PROFILES_INSTRUCTIONS_PROFILE_H_
#define BENCHPROF_PROFILES_INSTRUCTIONS_PROFILE_H_

#include <memory>

#include "profiles/profile.h"

namespace benchprof::profiles {

// The user counter every run gets under --instructions.
inline constexpr char kInstructionsPerOpCounter[] = "instructions/op";

// A new, not yet requested instruction-count kind (flags --instructions,
// --callgrind_out).
std::unique_ptr<Profile> MakeInstructionsProfile();

// The file name --callgrind_out gives the dump of the run named `run_name`:
// "callgrind.out." followed by the name with '/' made '.' and characters
// other than letters, digits and "._:=-" made '_'.
std::string CallgrindFileName(std::string_view run_name);

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_INSTRUCTIONS_PROFILE_H_
