// JSON string escapes: decodes one backslash sequence to UTF-8, for the
// tokenizer's strings that have escapes (few do; the rest are used in place).
//
//   std::string out;
//   const json::EscapeResult r = json::DecodeEscape(backslash, end, out);
//   if (r.next == nullptr) ... report r.problem at r.report_at ...
//
// Thread-safety: thread-safe (a pure function).
#ifndef BENCHPROF_COMMON_JSON_ESCAPE_H_
#define BENCHPROF_COMMON_JSON_ESCAPE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace benchprof::json {

// The longest escape: a surrogate pair, "\uD83D\uDE00".
inline constexpr size_t kLongestEscape = 12;

inline constexpr std::string_view kInvalidEscape = "invalid escape";
inline constexpr std::string_view kLoneSurrogate = "invalid escape (lone surrogate)";

struct EscapeResult {
  // The byte after the escape; nullptr if it is invalid.
  const char* next = nullptr;
  // If invalid: the first byte that is wrong (`end` if the input ends
  // first), where to report the problem (the escape's backslash, so a user
  // sees the whole sequence), and the problem, kInvalidEscape or
  // kLoneSurrogate. A caller that gives NUL bytes and the end of the input
  // messages of their own looks at `at`.
  const char* at = nullptr;
  const char* report_at = nullptr;
  std::string_view problem;
};

// Decodes the escape whose backslash is at `p`, appending its UTF-8 to
// `out`. [p, end) must hold kLongestEscape bytes unless the input ends
// before. \uXXXX escapes of a surrogate pair are combined into one code
// point; a lone surrogate is invalid (it has no UTF-8 form).
EscapeResult DecodeEscape(const char* p, const char* end, std::string& out);

}  // namespace benchprof::json

#endif  // BENCHPROF_COMMON_JSON_ESCAPE_H_
