#include "common/json_tokenizer.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <system_error>
#include <utility>

#include "common/json_byte_scan.h"
#include "common/json_escape.h"
#include "common/json_number.h"

namespace benchprof::json {
namespace {

constexpr std::string_view kTruncatedProblem = "unexpected end of input (truncated?)";
constexpr std::string_view kNulProblem = "NUL byte in input";
constexpr std::string_view kInvalidNumber = "invalid number";
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// "64 MiB", or "1000 bytes" for a bound that is not a whole number of MiB.
std::string SizeText(size_t bytes) {
  if (bytes % (size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

Tokenizer::Tokenizer(ByteSource source, const TokenizerOptions& options)
    : Tokenizer(std::move(source), options, options.max_buffered_bytes) {}

Tokenizer::Tokenizer(std::string_view text)
    : Tokenizer(
          TextSource(text),
          TokenizerOptions{.chunk_bytes = std::clamp<size_t>(text.size(), 64, size_t{1} << 20)},
          std::numeric_limits<size_t>::max()) {}

Tokenizer::Tokenizer(ByteSource source, const TokenizerOptions& options, size_t max_buffered)
    : input_(std::move(source), options.chunk_bytes, max_buffered),
      skip_bom_(options.skip_bom),
      p_(input_.begin()),
      tok_(p_) {}

// Drops what is no longer needed (everything before the last token, or
// before the held span) and reads a chunk. p_, tok_ and hold_ are re-derived;
// a caller's own pointers into the buffer must be, too (from tok_). False at
// the end of the input, or after a failure (state_ is then kFailed).
bool Tokenizer::Refill() {
  if (state_ == State::kFailed) return false;
  const char* const keep = hold_ != nullptr ? hold_ : tok_;
  const uint64_t p_at = input_.offset_of(p_);
  const uint64_t tok_at = input_.offset_of(tok_);
  const uint64_t hold_at = input_.offset_of(keep);
  const InputBuffer::Result result = input_.Refill(keep);
  p_ = input_.at_offset(p_at);
  tok_ = input_.at_offset(tok_at);
  if (hold_ != nullptr) hold_ = input_.at_offset(hold_at);
  switch (result) {
    case InputBuffer::Result::kRead:
      return true;
    case InputBuffer::Result::kEnd:
      return false;
    case InputBuffer::Result::kTooLarge:
      Fail(tok_, Failure::kTooLarge,
           "more than " + SizeText(input_.max_kept_bytes()) +
               " to buffer for one value (a string without its closing quote?)");
      return false;
    case InputBuffer::Result::kFailed:
      status_ = input_.error();
      failure_ = Failure::kSource;
      state_ = State::kFailed;
      token_ = Token::kError;
      return false;
  }
  return false;
}

// Makes `n` bytes from `p` (at or after tok_) available unless the input
// ends first; `p` follows the buffer if it moves.
bool Tokenizer::Ensure(const char*& p, size_t n) {
  while (static_cast<size_t>(input_.end() - p) < n) {
    if (input_.at_eof()) return false;
    const size_t offset = static_cast<size_t>(p - tok_);
    p_ = p;
    const bool more = Refill();
    p = tok_ + offset;
    if (!more) return false;
  }
  return true;
}

Token Tokenizer::Fail(const char* at, Failure failure, std::string_view problem) {
  if (state_ == State::kFailed) return token_ = Token::kError;  // the first problem stands
  const uint64_t offset = input_.offset_of(at);
  SetError(failure, line_, offset - line_start_ + 1, offset, problem);
  return token_ = Token::kError;
}

void Tokenizer::SetError(Failure failure, uint64_t line, uint64_t column, uint64_t offset,
                         std::string_view problem) {
  state_ = State::kFailed;
  failure_ = failure;
  error_line_ = line;
  error_column_ = column;
  error_offset_ = offset;
  problem_ = problem;
  status_ = Status::Error("line " + std::to_string(line) + ", column " + std::to_string(column) +
                          ": " + problem_);
}

// Byte `at` is not what the grammar allows. The end of the input and NUL
// bytes get their own messages (a cut-off or a binary file rather than a
// typo); otherwise `problem` is reported at `report_at`. Callers have made
// sure that `at` is buffered unless the input ends before it.
Token Tokenizer::Unexpected(const char* at, const char* report_at, std::string_view problem) {
  if (at >= input_.end()) return Fail(input_.end(), Failure::kTruncated, kTruncatedProblem);
  if (*at == '\0') return Fail(at, Failure::kNulByte, kNulProblem);
  return Fail(report_at, Failure::kSyntax, problem);
}

// Most tokens follow the previous one directly or after one space or
// newline, so the loop is out of line.
inline const char* Tokenizer::SkipWhitespace(const char* p) {
  if (static_cast<unsigned char>(*p) > ' ') return p;
  return SkipWhitespaceLoop(p);
}

const char* Tokenizer::SkipWhitespaceLoop(const char* p) {
  for (;;) {
    const char c = *p;
    if (static_cast<unsigned char>(c) > ' ') return p;
    if (c == ' ') {
      p = SkipSpaces(p);  // the indentation of pretty-printed files
    } else if (c == '\t' || c == '\r') {
      ++p;
    } else if (c == '\n') {
      ++p;
      ++line_;
      line_start_ = input_.offset_of(p);
    } else if (p == input_.end() && !input_.at_eof()) {
      p_ = tok_ = p;
      Refill();
      p = p_;
      if (p == input_.end()) return p;  // the end of the input, or a failure
    } else {
      return p;  // the end, a NUL or another control byte: the caller reports it
    }
  }
}

Token Tokenizer::Next() {
  const char* p = SkipWhitespace(p_);
  tok_ = p;
  // The two states of nearly every token come first, as plain branches: a
  // switch's indirect jump predicts worse on the alternating key/value rhythm.
  if (state_ == State::kAfterKey) {
    if (*p != ':') return Unexpected(p, "expected ':' after an object key");
    p = SkipWhitespace(p + 1);
    tok_ = p;
    return ScanValue(p);
  }
  if (state_ == State::kAfterValue) {
    const bool in_object = in_object_[depth_ - 1];
    if (*p == ',') {
      p = SkipWhitespace(p + 1);
      tok_ = p;
      if (in_object) return ScanKey(p);
      if (*p == ']' && trailing_comma_depth_ == depth_) return Close(p, Token::kEndArray);
      return ScanValue(p);
    }
    if (in_object) {
      if (*p == '}') return Close(p, Token::kEndObject);
      return Unexpected(p, "expected ',' or '}' after an object member");
    }
    if (*p == ']') return Close(p, Token::kEndArray);
    return Unexpected(p, "expected ',' or ']' after an array element");
  }
  return NextInRareState(p);
}

// Next() in the states that occur once per container or document.
Token Tokenizer::NextInRareState(const char* p) {
  switch (state_) {
    case State::kValue:
      return ScanValue(p);
    case State::kObjectFirst:
      if (*p == '}') return Close(p, Token::kEndObject);
      return ScanKey(p);
    case State::kArrayFirst:
      if (*p == ']') return Close(p, Token::kEndArray);
      return ScanValue(p);
    case State::kStart:
      return Start(p);
    case State::kDone:
      if (p == input_.end() && input_.at_eof()) return token_ = Token::kEnd;
      return Unexpected(p, "trailing characters after the JSON value");
    case State::kAfterKey:
    case State::kAfterValue:
    case State::kFailed:
      break;
  }
  return token_ = Token::kError;
}

Token Tokenizer::Start(const char* p) {
  if (skip_bom_ && static_cast<unsigned char>(*p) == 0xEF && input_.offset_of(p) == 0) {
    Ensure(p, 3);
    if (input_.end() - p >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
      p = SkipWhitespace(p + 3);
      tok_ = p;
    }
  }
  if (p == input_.end() && input_.at_eof() && state_ != State::kFailed) {
    // The whole input is at fault, so point at its start.
    SetError(Failure::kEmpty, 1, 1, 0, "empty input");
    return token_ = Token::kError;
  }
  return ScanValue(p);
}

Token Tokenizer::Close(const char* p, Token kind) {
  if (trailing_comma_depth_ == depth_) trailing_comma_depth_ = -1;
  --depth_;
  state_ = depth_ == 0 ? State::kDone : State::kAfterValue;
  p_ = p + 1;
  return token_ = kind;
}

Token Tokenizer::AfterScalar(Token kind) {
  state_ = depth_ == 0 ? State::kDone : State::kAfterValue;
  return token_ = kind;
}

[[gnu::always_inline]] inline Token Tokenizer::Open(const char* p, bool object) {
  if (depth_ >= kMaxDepth) {
    return Fail(p, Failure::kSyntax, "nesting deeper than " + std::to_string(kMaxDepth));
  }
  in_object_[depth_++] = object;
  state_ = object ? State::kObjectFirst : State::kArrayFirst;
  p_ = p + 1;
  return token_ = object ? Token::kBeginObject : Token::kBeginArray;
}

Token Tokenizer::ScanValue(const char* p) {
  // Strings and numbers first, as plain branches (see Next()).
  const char c = *p;
  if (c == '"') return ScanString(p, Token::kString);
  if (IsDigit(c)) return ScanNumber(p);
  switch (c) {
    case '{':
    case '[':
      return Open(p, c == '{');
    case 't':
      return ScanLiteral(p, "true", Token::kTrue, 0);
    case 'f':
      return ScanLiteral(p, "false", Token::kFalse, 0);
    case 'n':
      return ScanLiteral(p, "null", Token::kNull, 0);
    case 'N':
      return ScanLiteral(p, "NaN", Token::kNumber, kNaN);
    case 'I':
      return ScanLiteral(p, "Infinity", Token::kNumber, kInfinity);
    case '-':
      Ensure(p, 2);
      if (input_.end() - p >= 2 && p[1] == 'I') {
        return ScanLiteral(p, "-Infinity", Token::kNumber, -kInfinity);
      }
      return ScanNumber(p);
    // '.' and '+' cannot start a number, but someone who wrote ".5" or "+1"
    // meant one, so say "invalid number" rather than "expected a value".
    case '.':
    case '+':
      return ScanNumber(p);
    default:
      return Unexpected(p, "expected a value");
  }
}

Token Tokenizer::ScanKey(const char* p) {
  if (*p != '"') return Unexpected(p, "expected a string key");
  return ScanString(p, Token::kKey);
}

Token Tokenizer::ScanLiteral(const char* p, std::string_view word, Token kind, double number) {
  Ensure(p, word.size());
  for (size_t i = 0; i < word.size(); ++i) {
    if (p + i >= input_.end() || p[i] != word[i]) return Unexpected(p + i, p, "invalid literal");
  }
  p_ = p + word.size();
  number_ = number;
  return AfterScalar(kind);
}

Token Tokenizer::ScanNumber(const char* p) {
  // The common cases in one pass: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]{1,3})?
  // with at most 18 digits, ended by a byte that cannot continue a number,
  // inside the buffer; converted by ExactDecimal, or else ("1.7869662839196217e+03")
  // by from_chars over the checked bytes. Anything else, and any range
  // error, takes ScanNumberSlow().
  const char* s = p + (*p == '-');
  const char* const int_start = s;
  uint64_t mantissa = 0;  // wraps past 18 digits, but is then not used
  while (IsDigit(*s)) mantissa = mantissa * 10 + static_cast<uint64_t>(*s++ - '0');
  const size_t int_digits = static_cast<size_t>(s - int_start);
  size_t fraction_digits = 0;
  if (*s == '.') {
    const char* const fraction_start = ++s;
    while (IsDigit(*s)) mantissa = mantissa * 10 + static_cast<uint64_t>(*s++ - '0');
    fraction_digits = static_cast<size_t>(s - fraction_start);
    if (fraction_digits == 0) fraction_digits = 99;  // "1." is not a number
  }
  int exponent = 0;
  if (*s == 'e' || *s == 'E') {
    const char* e = s + 1;
    const bool negative = *e == '-';
    if (*e == '-' || *e == '+') ++e;
    const char* const exponent_start = e;
    while (IsDigit(*e) && e - exponent_start < 3) exponent = exponent * 10 + (*e++ - '0');
    if (e == exponent_start || IsDigit(*e)) return ScanNumberSlow();  // "1e", "1e1234"
    exponent = negative ? -exponent : exponent;
    s = e;
  }
  if (int_digits == 0 || (int_digits > 1 && *int_start == '0') ||
      int_digits + fraction_digits > 18 || (ClassOf(*s) & kNumberByte) || s == input_.end()) {
    return ScanNumberSlow();
  }
  double d = 0;
  if (!ExactDecimal(mantissa, exponent - static_cast<int>(fraction_digits), *p == '-', d)) {
    const auto [end, error] = std::from_chars(p, s, d);
    if (error != std::errc() || end != s) return ScanNumberSlow();  // out of range: said there
  }
  number_ = d;
  p_ = s;
  return AfterScalar(Token::kNumber);
}

// The number token at tok_, whole: its bytes up to one that cannot continue
// a number (reading on if the buffer ends first), checked and converted.
Token Tokenizer::ScanNumberSlow() {
  const char* q = tok_;
  for (;;) {
    while (ClassOf(*q) & kNumberByte) ++q;
    if (q != input_.end() || input_.at_eof()) break;
    const size_t offset = static_cast<size_t>(q - tok_);
    p_ = q;
    const bool more = Refill();
    q = tok_ + offset;
    if (!more) {
      if (state_ == State::kFailed) return token_ = Token::kError;
      break;
    }
  }
  switch (ParseNumber(tok_, q, number_)) {
    case NumberForm::kValid:
      p_ = q;
      return AfterScalar(Token::kNumber);
    case NumberForm::kIncomplete:
      if (q == input_.end()) return Unexpected(q, tok_, kInvalidNumber);  // cut off
      return Fail(tok_, Failure::kSyntax, kInvalidNumber);
    case NumberForm::kInvalid:
      break;
    case NumberForm::kOutOfRange:
      return Fail(tok_, Failure::kSyntax, "number out of range");
  }
  return Fail(tok_, Failure::kSyntax, kInvalidNumber);
}

Token Tokenizer::ScanString(const char* p, Token kind) {
  // p == tok_, at the opening quote. Most strings are plain and end inside
  // the buffer: this path is kept small so that it needs no register spills.
  const char* const q = FindStringStop(p + 1);
  if (*q == '"') {
    escaped_ = false;
    string_ = std::string_view(p + 1, static_cast<size_t>(q - p - 1));
    p_ = q + 1;
    if (kind == Token::kKey) {
      state_ = State::kAfterKey;
      return token_ = Token::kKey;
    }
    return AfterScalar(Token::kString);
  }
  return ScanStringSlow(q, kind);
}

// The rest of the string from `q`, the first byte the fast path could not
// take: an escape, the end of the buffer, a control character.
Token Tokenizer::ScanStringSlow(const char* q, Token kind) {
  const char* run = q;  // with escapes: the first byte not yet in scratch_
  escaped_ = false;
  for (;;) {
    q = FindStringStop(q);
    if (*q == '"') return EndString(q, run, kind);
    if (*q == '\\') {
      if (escaped_) {
        scratch_.append(run, q);
      } else {
        scratch_.assign(tok_ + 1, q);
        escaped_ = true;
      }
      Ensure(q, kLongestEscape);
      const EscapeResult escape = DecodeEscape(q, input_.end(), scratch_);
      if (escape.next == nullptr) return Unexpected(escape.at, escape.report_at, escape.problem);
      q = run = escape.next;
      continue;
    }
    if (q == input_.end() && !input_.at_eof()) {
      const size_t q_offset = static_cast<size_t>(q - tok_);
      const size_t run_offset = static_cast<size_t>(run - tok_);
      p_ = q;
      const bool more = Refill();
      q = tok_ + q_offset;
      run = tok_ + run_offset;
      if (!more && state_ == State::kFailed) return token_ = Token::kError;
      continue;  // at the end of the input, the next round reports it
    }
    return Unexpected(q, "control character in string");
  }
}

// At the closing quote `close`; `run` is where the bytes not yet copied to
// scratch_ start (if the string had escapes).
Token Tokenizer::EndString(const char* close, const char* run, Token kind) {
  if (escaped_) {
    scratch_.append(run, close);
    string_ = scratch_;
  } else {
    string_ = std::string_view(tok_ + 1, static_cast<size_t>(close - tok_ - 1));
  }
  p_ = close + 1;
  if (kind == Token::kKey) {
    state_ = State::kAfterKey;
    return token_ = Token::kKey;
  }
  return AfterScalar(Token::kString);
}

bool Tokenizer::SkipValue() {
  if (token_ != Token::kBeginObject && token_ != Token::kBeginArray) {
    return token_ != Token::kError;
  }
  const int outer = depth_ - 1;
  for (;;) {
    const Token t = Next();
    if (t == Token::kError) return false;
    if ((t == Token::kEndObject || t == Token::kEndArray) && depth_ == outer) return true;
  }
}

}  // namespace benchprof::json
