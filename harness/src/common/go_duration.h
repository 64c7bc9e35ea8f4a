// Go's duration syntax, as `go test -timeout` reads it (time.ParseDuration):
// a sequence of decimal numbers, each with an optional fraction and a unit
// ("ns", "us" or "µs", "ms", "s", "m", "h"), such as "90s", "1.5h",
// "1h30m"; "0" alone means zero.
//
//   std::optional<int64_t> ns = ParseGoDuration("10m");   // 600'000'000'000
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_COMMON_GO_DURATION_H_
#define BENCHPROF_COMMON_GO_DURATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace benchprof {

// Nanoseconds, or nullopt if `text` is not a non-negative Go duration or
// overflows int64 nanoseconds (about 292 years).
std::optional<int64_t> ParseGoDuration(std::string_view text);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_GO_DURATION_H_
