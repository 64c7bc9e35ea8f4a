// The byte scans the JSON tokenizer spends most of its time in: over the
// spaces of indentation, and over the plain bytes of a string up to its
// closing quote. With SSE2 (baseline on x86-64) they look at 16 bytes per
// step; elsewhere they fall back to one byte per step. Both versions are
// compiled on every target, so tests hold them to the same answers
// (json_tokenizer_test) and the fallback cannot rot unseen.
//
// Every scan relies on what the tokenizer's InputBuffer guarantees: a NUL
// byte after the data (a sentinel that stops each scan, since NUL is neither
// a space nor a plain string byte) and at least 15 readable bytes after it,
// so a 16-byte load that starts before the sentinel stays in the allocation.
//
//   const char* stop = json::FindStringStop(opening_quote + 1);
//   if (*stop == '"') ... the string has no escapes ...
//
// Thread-safety: thread-safe (pure functions of their input).
#ifndef BENCHPROF_COMMON_JSON_BYTE_SCAN_H_
#define BENCHPROF_COMMON_JSON_BYTE_SCAN_H_

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace benchprof::json {

// Byte classes, one table load per byte where a loop must classify bytes.
enum ByteClass : uint8_t {
  kStringStop = 1,  // ends a run of plain string bytes: '"', '\\', 0x00-0x1f
  kNumberByte = 2,  // may occur in a number token: 0-9 + - . e E
};

struct ByteClassTable {
  uint8_t of[256] = {};
  constexpr ByteClassTable() {
    for (int c = 0; c < 0x20; ++c) of[c] |= kStringStop;
    of[static_cast<unsigned char>('"')] |= kStringStop;
    of[static_cast<unsigned char>('\\')] |= kStringStop;
    for (const unsigned char c : {'+', '-', '.', 'e', 'E'}) of[c] |= kNumberByte;
    for (int c = '0'; c <= '9'; ++c) of[c] |= kNumberByte;
  }
};
inline constexpr ByteClassTable kByteClasses;

// The classes of byte `c`.
inline uint8_t ClassOf(char c) { return kByteClasses.of[static_cast<unsigned char>(c)]; }

// The first byte at or after `p` that is not ' ', one byte per step.
inline const char* SkipSpacesScalar(const char* p) {
  while (*p == ' ') ++p;
  return p;
}

// The first byte at or after `p` that is '"', '\\' or a control character,
// one byte per step.
inline const char* FindStringStopScalar(const char* p) {
  while (!(ClassOf(*p) & kStringStop)) ++p;
  return p;
}

#if defined(__SSE2__)
inline constexpr bool kHaveSse2Scans = true;

// SkipSpacesScalar, 16 bytes per step.
inline const char* SkipSpacesSse2(const char* p) {
  const __m128i space = _mm_set1_epi8(' ');
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned spaces = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, space)));
    if (spaces != 0xFFFF) return p + __builtin_ctz(~spaces);
    p += 16;
  }
}

// FindStringStopScalar, 16 bytes per step. A control character is a byte
// whose unsigned minimum with 0x1f is itself.
inline const char* FindStringStopSse2(const char* p) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i control_max = _mm_set1_epi8(0x1f);
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i stop =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                     _mm_cmpeq_epi8(_mm_min_epu8(v, control_max), v));
    if (const int mask = _mm_movemask_epi8(stop); mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
}
#else
inline constexpr bool kHaveSse2Scans = false;
#endif

// The versions the tokenizer uses.
inline const char* SkipSpaces(const char* p) {
#if defined(__SSE2__)
  return SkipSpacesSse2(p);
#else
  return SkipSpacesScalar(p);
#endif
}

inline const char* FindStringStop(const char* p) {
#if defined(__SSE2__)
  return FindStringStopSse2(p);
#else
  return FindStringStopScalar(p);
#endif
}

}  // namespace benchprof::json

#endif  // BENCHPROF_COMMON_JSON_BYTE_SCAN_H_
