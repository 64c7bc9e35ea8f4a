#include "common/json_escape.h"

#include <cstdint>

#include "common/utf8.h"

namespace benchprof::json {
namespace {

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The character a two-byte escape "\c" stands for, or 0 if there is none.
char SimpleEscape(char c) {
  switch (c) {
    case '"':
      return '"';
    case '\\':
      return '\\';
    case '/':
      return '/';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    default:
      return 0;
  }
}

EscapeResult Invalid(const char* at, const char* report_at, std::string_view problem) {
  return {nullptr, at, report_at, problem};
}

// Reads the four hex digits of the \u escape whose backslash is at `u`;
// false, with `failure` set, if one is not a hex digit.
bool ReadHex4(const char* u, const char* end, uint32_t& value, EscapeResult& failure) {
  value = 0;
  for (const char* i = u + 2; i < u + 6; ++i) {
    const int digit = i < end ? HexDigitValue(*i) : -1;
    if (digit < 0) {
      failure = Invalid(i, u, kInvalidEscape);
      return false;
    }
    value = value * 16 + static_cast<uint32_t>(digit);
  }
  return true;
}

// At "\u": one code point of the Basic Multilingual Plane, or a surrogate
// pair "\uD8xx\uDCxx", which is how JSON spells the code points beyond it.
EscapeResult DecodeUnicodeEscape(const char* p, const char* end, std::string& out) {
  EscapeResult failure;
  uint32_t code_point;
  if (!ReadHex4(p, end, code_point, failure)) return failure;
  if (code_point >= 0xDC00 && code_point <= 0xDFFF) return Invalid(p, p, kLoneSurrogate);
  const char* next = p + 6;
  if (code_point >= 0xD800 && code_point <= 0xDBFF) {
    const char* second = p + 6;
    if (second >= end || *second != '\\') return Invalid(second, p, kLoneSurrogate);
    if (second + 1 >= end || second[1] != 'u') return Invalid(second + 1, p, kLoneSurrogate);
    uint32_t low;
    if (!ReadHex4(second, end, low, failure)) return failure;
    if (low < 0xDC00 || low > 0xDFFF) return Invalid(p, p, kLoneSurrogate);
    code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
    next = second + 6;
  }
  AppendUtf8(out, code_point);
  return {next, nullptr, nullptr, {}};
}

}  // namespace

EscapeResult DecodeEscape(const char* p, const char* end, std::string& out) {
  if (p + 1 >= end) return Invalid(end, end, kInvalidEscape);
  if (p[1] == 'u') return DecodeUnicodeEscape(p, end, out);
  const char c = SimpleEscape(p[1]);
  if (c == 0) return Invalid(p + 1, p, kInvalidEscape);
  out.push_back(c);
  return {p + 2, nullptr, nullptr, {}};
}

}  // namespace benchprof::json
