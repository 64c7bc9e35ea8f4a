// Valgrind's client requests (<valgrind/callgrind.h>, from the Debian
// package `valgrind`), or stand-ins that do nothing when the header was not
// there at build time: then kHaveCallgrindHeader is false and
// bench --instructions says so instead of counting nothing.
//
// A client request costs a few instructions when the program does not run
// under Valgrind.
#ifndef BENCHPROF_PROFILES_CALLGRIND_REQUESTS_H_
#define BENCHPROF_PROFILES_CALLGRIND_REQUESTS_H_

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>
namespace benchprof::profiles {
inline constexpr bool kHaveCallgrindHeader = true;
}
#else
#define RUNNING_ON_VALGRIND 0
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(label) ((void)(label))
namespace benchprof::profiles {
inline constexpr bool kHaveCallgrindHeader = false;
}
#endif

#endif  // BENCHPROF_PROFILES_CALLGRIND_REQUESTS_H_
