// LockWithin: try_lock_for that ThreadSanitizer can see.
//
// std::timed_mutex::try_lock_for becomes pthread_mutex_clocklock, which
// GCC 12's ThreadSanitizer does not intercept: it then reports every access
// the lock guards as a race, and the unlock as one of an unlocked mutex.
// Polling try_lock() (pthread_mutex_trylock, intercepted) costs at most a
// millisecond of extra wait, which the callers (an exiting process waiting
// for a writer) do not notice.
//
// Thread-safety: as the mutex's own try_lock(); not for signal handlers.
#ifndef BENCHPROF_COMMON_LOCK_WITHIN_H_
#define BENCHPROF_COMMON_LOCK_WITHIN_H_

#include <chrono>
#include <thread>

namespace benchprof {

// Locks `mutex` if it becomes free within `wait`; returns whether it did.
template <typename Mutex>
bool LockWithin(Mutex& mutex, std::chrono::nanoseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (!mutex.try_lock()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_LOCK_WITHIN_H_
