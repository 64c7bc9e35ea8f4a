#include "common/process_threads.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace benchprof {

std::vector<pid_t> ListProcessThreads() {
  std::vector<pid_t> tids;
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return tids;
  while (const dirent* entry = readdir(tasks)) {
    pid_t tid = 0;
    const char* end = entry->d_name + std::strlen(entry->d_name);
    if (std::from_chars(entry->d_name, end, tid).ptr == end && tid > 0) tids.push_back(tid);
  }
  closedir(tasks);
  std::sort(tids.begin(), tids.end());
  return tids;
}

unsigned UsableCpuCount() {
  // A set sized for the machine: a fixed cpu_set_t holds 1024 CPUs, and the
  // call fails on a machine with more.
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  for (size_t cpus = configured > 0 ? static_cast<size_t>(configured) : 1024; cpus <= 1 << 20;
       cpus *= 2) {
    cpu_set_t* set = CPU_ALLOC(cpus);
    if (set == nullptr) break;
    const size_t bytes = CPU_ALLOC_SIZE(cpus);
    if (sched_getaffinity(0, bytes, set) == 0) {
      const int count = CPU_COUNT_S(bytes, set);
      CPU_FREE(set);
      return count > 0 ? static_cast<unsigned>(count) : 1;
    }
    CPU_FREE(set);
    if (errno != EINVAL) break;
  }
  return configured > 0 ? static_cast<unsigned>(configured) : 1;
}

clockid_t CpuClockOfThread(pid_t tid) {
  constexpr clockid_t kPerThread = 4, kScheduler = 2;
  return static_cast<clockid_t>(~static_cast<unsigned>(tid) << 3) | kPerThread | kScheduler;
}

}  // namespace benchprof
