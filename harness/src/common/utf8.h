// Well-formed UTF-8, for writers whose output format must be valid UTF-8
// (JSON, the SVG flame graph's XML) whatever bytes a name holds, and for
// readers that decode character references.
//
//   const std::size_t length = Utf8SequenceLength(s, i);  // 0: not UTF-8
//   AppendUtf8(out, 0xE9);                                // "é"
//
// Thread-safety: thread-safe (a pure function).
#ifndef BENCHPROF_COMMON_UTF8_H_
#define BENCHPROF_COMMON_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace benchprof {

// The length (2 to 4) of the well-formed multi-byte UTF-8 sequence starting
// at s[at] (RFC 3629: no overlong forms, no surrogates, nothing above
// U+10FFFF); 0 if there is none, also for an ASCII byte, which callers
// handle themselves.
std::size_t Utf8SequenceLength(std::string_view s, std::size_t at);

// Appends the UTF-8 encoding of `code_point`. REQUIRES: code_point is at
// most U+10FFFF (callers that decode references check that).
void AppendUtf8(std::string& out, uint32_t code_point);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_UTF8_H_
