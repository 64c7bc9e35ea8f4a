// ProfileWindow: when a profile's collection started (wall clock, for the
// profile's time_nanos) and how long it has run (monotonic clock, for its
// duration_nanos).
//
// Thread-safety: plain value; thread-compatible.
#ifndef BENCHPROF_PROFILES_PROFILE_WINDOW_H_
#define BENCHPROF_PROFILES_PROFILE_WINDOW_H_

#include <chrono>
#include <cstdint>

namespace benchprof::profiles {

struct ProfileWindow {
  int64_t start_unix_nanos = 0;
  std::chrono::steady_clock::time_point start;

  // A window opening now.
  static ProfileWindow OpenNow() {
    return {std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count(),
            std::chrono::steady_clock::now()};
  }

  // Nanoseconds since the window opened.
  int64_t ElapsedNanos() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                start)
        .count();
  }
};

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_PROFILE_WINDOW_H_
