#include "common/process_threads.h"

#include <dirent.h>
#include <sched.h>

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
  cpu_set_t affinity;
  if (sched_getaffinity(0, sizeof affinity, &affinity) != 0) return 1;
  const int count = CPU_COUNT(&affinity);
  return count > 0 ? static_cast<unsigned>(count) : 1;
}

clockid_t CpuClockOfThread(pid_t tid) {
  constexpr clockid_t kPerThread = 4, kScheduler = 2;
  return static_cast<clockid_t>(~static_cast<unsigned>(tid) << 3) | kPerThread | kScheduler;
}

}  // namespace benchprof
