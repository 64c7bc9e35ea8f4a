// The extra passes a user's MemoryManager or ProfilerManager makes Google
// Benchmark run, told apart from the measured runs.
//
// With a MemoryManager registered, the library runs each benchmark once
// more after its reported run (up to 16 iterations) between the manager's
// Start() and Stop(); with a ProfilerManager (1.8.5+), once more between
// AfterSetupStart() and BeforeTeardownStop(). Those passes call the same
// timed-loop functions as a real run, but they are the user's manager's,
// not part of a measurement: benchprof's counters, profiles and trace leave
// them out, and the managers see them exactly as without benchprof.
//
// loop_hooks.cc wraps (linker --wrap) RegisterMemoryManager and
// RegisterProfilerManager as called from the user's objects: the library is
// given a forwarding manager that marks the pass, and calls the user's.
//
// Thread-safety: the passes run on the main thread, one at a time, as the
// library runs them; everything here is called on that thread.
#ifndef BENCHPROF_SESSION_MANAGER_PASSES_H_
#define BENCHPROF_SESSION_MANAGER_PASSES_H_

#include <benchmark/benchmark.h>

#include "benchprof_benchmark_version.h"

#if BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10805
#define BENCHPROF_HAS_PROFILER_MANAGER 1
#else
#define BENCHPROF_HAS_PROFILER_MANAGER 0
#endif

namespace benchprof::session {

// True while a manager's pass runs.
bool InManagerPass();

// What the library gets instead of the user's MemoryManager: forwards every
// call to `user`, and marks the pass from Start() to Stop().
benchmark::MemoryManager* ForwardingMemoryManager(benchmark::MemoryManager* user);

#if BENCHPROF_HAS_PROFILER_MANAGER
// The same for a ProfilerManager, from AfterSetupStart() to
// BeforeTeardownStop().
benchmark::ProfilerManager* ForwardingProfilerManager(benchmark::ProfilerManager* user);
#endif

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_MANAGER_PASSES_H_
