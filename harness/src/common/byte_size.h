// Sizes in bytes as users type them on command lines: a whole number with
// an optional binary unit, "65536", "512KiB", "64MiB", "2GiB".
//
//   std::optional<uint64_t> bytes = ParseByteSize("64MiB");   // 67108864
//   FormatByteSize(67108864);                                  // "64 MiB"
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_COMMON_BYTE_SIZE_H_
#define BENCHPROF_COMMON_BYTE_SIZE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace benchprof {

// Bytes, or nullopt if `text` is not a whole number followed by nothing,
// "B", "KiB", "MiB" or "GiB", or the size overflows 64 bits.
std::optional<uint64_t> ParseByteSize(std::string_view text);

// `bytes` in the largest binary unit that divides it ("64 MiB",
// "1536 KiB", "100 B").
std::string FormatByteSize(uint64_t bytes);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_BYTE_SIZE_H_
