// JSON numbers: RFC 8259's grammar and an exact conversion to double, for
// the tokenizer's number tokens that its one-pass fast path does not take
// (more than 18 digits, long exponents, a token cut by the end of the
// buffer), and the exact shortcut both use.
//
//   double d;
//   if (json::ParseNumber(begin, end, d) == json::NumberForm::kValid) ...
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_COMMON_JSON_NUMBER_H_
#define BENCHPROF_COMMON_JSON_NUMBER_H_

#include <cstdint>

namespace benchprof::json {

// 10^0 .. 10^22, the powers of ten a double holds exactly. A mantissa of at
// most 2^53 multiplied or divided by one of them is a single correctly
// rounded operation (Clinger's fast path), so the result is exact.
inline constexpr double kExactPowersOf10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                              1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                              1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Sets `out` to ±mantissa × 10^e10 and returns true when one operation
// gives it exactly (Clinger's fast path), after dropping the mantissa's
// trailing zeros: Google Benchmark writes 17 significant digits
// ("3.7000000000000000e+01"), and whole counts would miss the path
// otherwise. False, `out` unchanged, when the value needs a full conversion.
inline bool ExactDecimal(uint64_t mantissa, int e10, bool negative, double& out) {
  while (mantissa > (uint64_t{1} << 53) && mantissa % 10 == 0) {
    mantissa /= 10;
    ++e10;
  }
  if (mantissa > (uint64_t{1} << 53) || e10 < -22 || e10 > 22) return false;
  double v = static_cast<double>(mantissa);
  v = e10 >= 0 ? v * kExactPowersOf10[e10] : v / kExactPowersOf10[-e10];
  out = negative ? -v : v;
  return true;
}

enum class NumberForm {
  kValid,
  kIncomplete,  // a proper prefix of a valid number ("1.", "-", "1e+")
  kInvalid,     // not a number ("01", "1.5.3", ".5", "+1")
  kOutOfRange,  // valid, but a double cannot hold it (1e999, 1e-400)
};

// Checks [begin, end) against
//   -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
// and, if valid, stores its value, correctly rounded and independent of the
// locale, in `out`. kIncomplete matters only where the input ends: a number
// cut there is a truncated file, not a typo. `out` is unchanged unless the
// result is kValid.
NumberForm ParseNumber(const char* begin, const char* end, double& out);

}  // namespace benchprof::json

#endif  // BENCHPROF_COMMON_JSON_NUMBER_H_
