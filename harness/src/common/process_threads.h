// The threads of this process, as the kernel lists them, and the CPU clock
// of any of them: what the collectors need to cover threads that were
// already running when they started (a pool made before the benchmarks).
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_COMMON_PROCESS_THREADS_H_
#define BENCHPROF_COMMON_PROCESS_THREADS_H_

#include <sys/types.h>
#include <time.h>

#include <vector>

namespace benchprof {

// The kernel thread ids of this process's threads now (from
// /proc/self/task), ascending; empty if /proc cannot be read. Allocates.
std::vector<pid_t> ListProcessThreads();

// The CPUs the calling thread may run on (its affinity mask, which threads
// inherit; a cgroup CPU quota is not counted), at least 1.
unsigned UsableCpuCount();

// The CPU clock of thread `tid` of this process, for clock_gettime and
// timer_create: the kernel's encoding of a thread CPU clock, which
// pthread_getcpuclockid builds too, for a thread known by its tid only.
// Using it fails (EINVAL) once the thread has ended.
clockid_t CpuClockOfThread(pid_t tid);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_PROCESS_THREADS_H_
