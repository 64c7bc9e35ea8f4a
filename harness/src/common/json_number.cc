#include "common/json_number.h"

#include <charconv>
#include <cstdint>
#include <system_error>

namespace benchprof::json {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// What the grammar check learns on its way: the digits as one integer (while
// it fits exactly) and the power of ten that scales it.
struct Decimal {
  bool negative = false;
  uint64_t mantissa = 0;
  bool exact = true;  // every digit is in mantissa and the exponent is small
  int fraction_digits = 0;
  int exponent = 0;
};

class NumberScanner {
 public:
  NumberScanner(const char* begin, const char* end) : s_(begin), end_(end) {}

  NumberForm Scan(Decimal& d) {
    d.negative = s_ < end_ && *s_ == '-';
    if (d.negative) ++s_;
    if (s_ == end_) return NumberForm::kIncomplete;
    if (*s_ == '0') {
      ++s_;
    } else if (IsDigit(*s_)) {
      while (s_ < end_ && IsDigit(*s_)) Accumulate(d, *s_++);
    } else {
      return NumberForm::kInvalid;
    }
    if (s_ < end_ && *s_ == '.') {
      ++s_;
      if (s_ == end_) return NumberForm::kIncomplete;
      if (!IsDigit(*s_)) return NumberForm::kInvalid;
      while (s_ < end_ && IsDigit(*s_)) {
        Accumulate(d, *s_++);
        ++d.fraction_digits;
      }
    }
    if (s_ < end_ && (*s_ == 'e' || *s_ == 'E')) {
      if (const NumberForm f = ScanExponent(d); f != NumberForm::kValid) return f;
    }
    return s_ == end_ ? NumberForm::kValid : NumberForm::kInvalid;
  }

 private:
  static void Accumulate(Decimal& d, char digit) {
    if (d.mantissa < (uint64_t{1} << 60)) {
      d.mantissa = d.mantissa * 10 + static_cast<uint64_t>(digit - '0');
    } else {
      d.exact = false;  // from_chars rounds the full digit string
    }
  }

  // At 'e' or 'E'.
  NumberForm ScanExponent(Decimal& d) {
    ++s_;
    bool negative = false;
    if (s_ < end_ && (*s_ == '+' || *s_ == '-')) negative = *s_++ == '-';
    if (s_ == end_) return NumberForm::kIncomplete;
    if (!IsDigit(*s_)) return NumberForm::kInvalid;
    for (; s_ < end_ && IsDigit(*s_); ++s_) {
      if (d.exponent < 100000) {
        d.exponent = d.exponent * 10 + (*s_ - '0');
      } else {
        d.exact = false;  // far out of range either way: from_chars decides
      }
    }
    if (negative) d.exponent = -d.exponent;
    return NumberForm::kValid;
  }

  const char* s_;
  const char* const end_;
};

}  // namespace

NumberForm ParseNumber(const char* begin, const char* end, double& out) {
  Decimal d;
  if (const NumberForm f = NumberScanner(begin, end).Scan(d); f != NumberForm::kValid) return f;
  // The numbers traces and benchmark results hold take this path.
  if (d.exact && ExactDecimal(d.mantissa, d.exponent - d.fraction_digits, d.negative, out)) {
    return NumberForm::kValid;
  }
  // from_chars ignores the locale, unlike strtod, so a German LC_NUMERIC in
  // the user's environment cannot turn "0.5" into 0.
  double v = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, v);
  if (ec == std::errc::result_out_of_range) return NumberForm::kOutOfRange;
  if (ec != std::errc() || ptr != end) return NumberForm::kInvalid;  // not expected
  out = v;
  return NumberForm::kValid;
}

}  // namespace benchprof::json
