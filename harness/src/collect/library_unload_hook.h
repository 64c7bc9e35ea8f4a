// Libraries stay loaded while profiles are collected: dlclose() is replaced
// (symbol interposition from the executable, exported so that every
// library's calls pass through it too) by a version that, once
// KeepLibrariesLoaded() was called, leaves the library in memory and
// reports success.
//
// Why: samples hold return addresses. A benchmark that dlopen()s a library,
// runs its code and dlclose()s it again would leave samples pointing into
// memory that no loaded module covers when the profile is symbolized at the
// end of the run (aggregate/module_map.h), or that a library loaded later
// at the same address claims. Kept loaded, the library's frames are named
// from its own file. The cost: the library's destructors run at exit, not
// at dlclose(), and a second dlopen() of it finds it loaded (its statics
// are not initialised again). The loader unloads everything at exit.
//
//   collect::KeepLibrariesLoaded();   // before the first profile starts
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_COLLECT_LIBRARY_UNLOAD_HOOK_H_
#define BENCHPROF_COLLECT_LIBRARY_UNLOAD_HOOK_H_

#include <cstdint>

namespace benchprof::collect {

// From now on, dlclose() keeps libraries loaded.
void KeepLibrariesLoaded();

// How many dlclose() calls were kept from unloading a library.
uint64_t KeptLibraryUnloads();

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_LIBRARY_UNLOAD_HOOK_H_
