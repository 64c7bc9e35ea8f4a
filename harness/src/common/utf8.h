// Well-formed UTF-8, for writers whose output format must be valid UTF-8
// (JSON, the SVG flame graph's XML) whatever bytes a name holds, and for
// readers that decode character references; and the one decision of which
// code points a name may not carry raw into any output (TextHazardOf):
// each writer escapes or replaces those in its own way.
//
//   const std::size_t length = Utf8SequenceLength(s, i);  // 0: not UTF-8
//   AppendUtf8(out, 0xE9);                                // "é"
//   TextHazardOf(0x202E)                                  // kHidden
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

// The code point of the well-formed sequence of `length` bytes at s[at]:
// `length` is 1 for an ASCII byte, else what Utf8SequenceLength(s, at)
// returned (not 0).
uint32_t DecodeUtf8(std::string_view s, std::size_t at, std::size_t length);

// What a code point does when printed raw where people or a CI runner read
// it (a terminal, a CI log, a pull-request comment, a page).
enum class TextHazard {
  kNone,
  // TAB, LF, VT, FF, CR, NEL (U+0085), U+2028 LINE SEPARATOR and U+2029
  // PARAGRAPH SEPARATOR: white space that starts a new line (where a CI
  // runner reads "::warning::" as a command) or, TAB, breaks a table's
  // alignment.
  kLineBreak,
  // The other C0 controls (ESC starts terminal escape sequences), DEL, the
  // other C1 controls (U+0080-U+009F; U+009B is an ESC [), and the
  // bidirectional formatting characters U+061C, U+200E, U+200F,
  // U+202A-U+202E and U+2066-U+2069, which invisibly reorder the text that
  // follows them.
  kHidden,
};

// The hazard of `code_point`. Text writers make a kLineBreak a space and a
// kHidden (and malformed UTF-8) U+FFFD; JSON escapes both (\t, \n, or
// \uXXXX), so a program reading it gets the name as it was.
TextHazard TextHazardOf(uint32_t code_point);

// U+FFFD REPLACEMENT CHARACTER, in UTF-8.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_UTF8_H_
