#include "common/json_value.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>

namespace benchprof::json {
namespace {

constexpr std::string_view kTruncated = "unexpected end of input (truncated?)";
constexpr std::string_view kNulByte = "NUL byte in input";
constexpr std::string_view kInvalidEscape = "invalid escape";
constexpr std::string_view kLoneSurrogate = "invalid escape (lone surrogate)";
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// What the wrong-kind accessors return in release builds. Leaked on purpose so
// that no destructor runs at exit while another static might still use it.
template <typename T>
const T& EmptyOf() {
  static const T* const empty = new T();
  return *empty;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The bytes a number token may contain. The token is taken greedily and then
// checked against the grammar, so "1.5.3" or "01" is reported as one invalid
// number rather than as a valid number followed by a confusing stray byte.
bool IsNumberByte(char c) {
  return IsDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

enum class NumberForm { kValid, kIncomplete, kInvalid };

// Checks `token` against RFC 8259's number grammar,
//   -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
// kIncomplete means the token is a proper prefix of a valid number, which
// matters only when the token runs into the end of the input (truncation).
NumberForm CheckNumberForm(std::string_view token) {
  std::size_t i = 0;
  const auto at_end = [&] { return i == token.size(); };
  const auto skip_digits = [&] {
    while (!at_end() && IsDigit(token[i])) ++i;
  };
  if (!at_end() && token[i] == '-') ++i;
  if (at_end()) return NumberForm::kIncomplete;
  if (token[i] == '0') {
    ++i;
  } else if (IsDigit(token[i])) {
    skip_digits();
  } else {
    return NumberForm::kInvalid;
  }
  if (!at_end() && token[i] == '.') {
    ++i;
    if (at_end()) return NumberForm::kIncomplete;
    if (!IsDigit(token[i])) return NumberForm::kInvalid;
    skip_digits();
  }
  if (!at_end() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (!at_end() && (token[i] == '+' || token[i] == '-')) ++i;
    if (at_end()) return NumberForm::kIncomplete;
    if (!IsDigit(token[i])) return NumberForm::kInvalid;
    skip_digits();
  }
  return at_end() ? NumberForm::kValid : NumberForm::kInvalid;
}

void AppendUtf8(std::string& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out.push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

// A recursive-descent parser over one input. Every Parse* method either
// consumes its production and returns true, or records an error and returns
// false, upon which every caller returns at once: the first error found is
// the one reported. Recursion is bounded by kMaxDepth.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  StatusOr<Value> Run() {
    SkipWhitespace();
    if (AtEnd()) {
      // The whole input is at fault, so point at its start.
      Fail(0, "empty input");
      return ErrorStatus();
    }
    Value root;
    if (!ParseValue(root, 0)) return ErrorStatus();
    SkipWhitespace();
    if (!AtEnd()) {
      Unexpected(pos_, "trailing characters after the JSON value");
      return ErrorStatus();
    }
    return root;
  }

 private:
  bool AtEnd() const { return pos_ == text_.size(); }

  void SkipWhitespace() {
    while (!AtEnd()) {
      const char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++pos_;
    }
  }

  bool Fail(std::size_t pos, std::string_view problem) {
    error_pos_ = pos;
    problem_ = problem;
    return false;
  }

  // Byte `pos` is not what the grammar allows there. The end of input and NUL
  // bytes get their own messages because they point at a cut-off or binary
  // file rather than a typo; otherwise `problem` is reported at `report_pos`.
  bool Unexpected(std::size_t pos, std::size_t report_pos, std::string_view problem) {
    if (pos >= text_.size()) return Fail(text_.size(), kTruncated);
    if (text_[pos] == '\0') return Fail(pos, kNulByte);
    return Fail(report_pos, problem);
  }
  bool Unexpected(std::size_t pos, std::string_view problem) {
    return Unexpected(pos, pos, problem);
  }

  Status ErrorStatus() const {
    std::size_t line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < error_pos_; ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return Status::Error("line " + std::to_string(line) + ", column " +
                         std::to_string(error_pos_ - line_start + 1) + ": " + problem_);
  }

  // Parses the value at pos_ (after optional whitespace). `depth` is the
  // number of arrays and objects enclosing it.
  //
  // Only this function and the two container parsers recurse. Scalars are
  // parsed out of line so that their temporaries do not enlarge each of the up
  // to 256 recursive frames: the deepest document then needs about 80 KiB of
  // stack in an optimized build and 512 KiB under ASan.
  bool ParseValue(Value& out, int depth) {
    SkipWhitespace();
    if (AtEnd()) return Fail(pos_, kTruncated);
    switch (text_[pos_]) {
      case '{':
        return ParseObject(out, depth);
      case '[':
        return ParseArray(out, depth);
      default:
        return ParseScalar(out);
    }
  }

  // Parses the string, literal or number at pos_.
  [[gnu::noinline]] bool ParseScalar(Value& out) {
    switch (text_[pos_]) {
      case '"': {
        std::string s;
        if (!ParseString(s)) return false;
        out = Value::MakeString(std::move(s));
        return true;
      }
      case 't':
        if (!MatchLiteral("true")) return false;
        out = Value::MakeBool(true);
        return true;
      case 'f':
        if (!MatchLiteral("false")) return false;
        out = Value::MakeBool(false);
        return true;
      case 'n':
        if (!MatchLiteral("null")) return false;
        out = Value();
        return true;
      case 'N':
        if (!MatchLiteral("NaN")) return false;
        out = Value::MakeNumber(kNaN);
        return true;
      case 'I':
        if (!MatchLiteral("Infinity")) return false;
        out = Value::MakeNumber(kInfinity);
        return true;
      case '-':
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == 'I') {
          if (!MatchLiteral("-Infinity")) return false;
          out = Value::MakeNumber(-kInfinity);
          return true;
        }
        return ParseNumber(out);
      default:
        // '.' and '+' cannot start a number, but someone who wrote ".5" or
        // "+1" meant one, so say "invalid number" rather than "expected a value".
        if (IsNumberByte(text_[pos_]) && text_[pos_] != 'e' && text_[pos_] != 'E') {
          return ParseNumber(out);
        }
        return Unexpected(pos_, "expected a value");
    }
  }

  // Consumes `literal` at pos_.
  bool MatchLiteral(std::string_view literal) {
    for (std::size_t i = 0; i < literal.size(); ++i) {
      if (pos_ + i >= text_.size() || text_[pos_ + i] != literal[i]) {
        return Unexpected(pos_ + i, pos_, "invalid literal");
      }
    }
    pos_ += literal.size();
    return true;
  }

  bool ParseNumber(Value& out) {
    const std::size_t start = pos_;
    std::size_t end = start;
    while (end < text_.size() && IsNumberByte(text_[end])) ++end;
    const std::string_view token = text_.substr(start, end - start);
    switch (CheckNumberForm(token)) {
      case NumberForm::kValid:
        break;
      case NumberForm::kIncomplete:
        if (end == text_.size()) return Fail(end, kTruncated);
        return Fail(start, "invalid number");
      case NumberForm::kInvalid:
        return Fail(start, "invalid number");
    }
    // from_chars ignores the locale, unlike strtod, so a German LC_NUMERIC in
    // the user's environment cannot turn "0.5" into 0.
    double d = 0;
    const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), d);
    if (ec == std::errc::result_out_of_range) return Fail(start, "number out of range");
    if (ec != std::errc() || ptr != token.data() + token.size()) {
      return Fail(start, "invalid number");  // Not expected after the check above.
    }
    pos_ = end;
    out = Value::MakeNumber(d);
    return true;
  }

  // Parses the string literal at pos_ (which is '"') into `out`.
  bool ParseString(std::string& out) {
    ++pos_;
    while (true) {
      // Copy runs of plain bytes at once; most strings have no escapes.
      std::size_t run_end = pos_;
      while (run_end < text_.size()) {
        const auto c = static_cast<unsigned char>(text_[run_end]);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++run_end;
      }
      out.append(text_.substr(pos_, run_end - pos_));
      pos_ = run_end;
      if (AtEnd()) return Fail(pos_, kTruncated);
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c != '\\') return Unexpected(pos_, "control character in string");
      if (!ParseEscape(out)) return false;
    }
  }

  // Parses the escape sequence at pos_ (which is '\\'), appending its UTF-8.
  bool ParseEscape(std::string& out) {
    const std::size_t backslash = pos_;
    if (backslash + 1 >= text_.size()) return Fail(text_.size(), kTruncated);
    char unescaped;
    switch (text_[backslash + 1]) {
      case '"':
        unescaped = '"';
        break;
      case '\\':
        unescaped = '\\';
        break;
      case '/':
        unescaped = '/';
        break;
      case 'b':
        unescaped = '\b';
        break;
      case 'f':
        unescaped = '\f';
        break;
      case 'n':
        unescaped = '\n';
        break;
      case 'r':
        unescaped = '\r';
        break;
      case 't':
        unescaped = '\t';
        break;
      case 'u':
        return ParseUnicodeEscape(out);
      default:
        return Unexpected(backslash + 1, backslash, kInvalidEscape);
    }
    out.push_back(unescaped);
    pos_ += 2;
    return true;
  }

  // Reads the four hex digits of the \u escape whose backslash is at `at`.
  bool ReadHex4(std::size_t at, std::uint32_t& value) {
    value = 0;
    for (std::size_t i = at + 2; i < at + 6; ++i) {
      const int digit = i < text_.size() ? HexDigitValue(text_[i]) : -1;
      if (digit < 0) return Unexpected(i, at, kInvalidEscape);
      value = value * 16 + static_cast<std::uint32_t>(digit);
    }
    return true;
  }

  // Parses "\uXXXX" at pos_, or a surrogate pair "\uD8xx\uDCxx", which is how
  // JSON spells a code point beyond the Basic Multilingual Plane.
  bool ParseUnicodeEscape(std::string& out) {
    const std::size_t first = pos_;
    std::uint32_t code_point;
    if (!ReadHex4(first, code_point)) return false;
    if (code_point >= 0xDC00 && code_point <= 0xDFFF) return Fail(first, kLoneSurrogate);
    if (code_point >= 0xD800 && code_point <= 0xDBFF) {
      const std::size_t second = first + 6;
      if (second >= text_.size() || text_[second] != '\\') {
        return Unexpected(second, first, kLoneSurrogate);
      }
      if (second + 1 >= text_.size() || text_[second + 1] != 'u') {
        return Unexpected(second + 1, first, kLoneSurrogate);
      }
      std::uint32_t low;
      if (!ReadHex4(second, low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) return Fail(first, kLoneSurrogate);
      code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
      pos_ = second;
    }
    pos_ += 6;
    AppendUtf8(out, code_point);
    return true;
  }

  bool CheckDepth(int depth) {
    if (depth < kMaxDepth) return true;
    return Fail(pos_, "nesting deeper than " + std::to_string(kMaxDepth));
  }

  // Parses the array at pos_ (which is '[').
  bool ParseArray(Value& out, int depth) {
    if (!CheckDepth(depth)) return false;
    ++pos_;
    Value::Array elements;
    SkipWhitespace();
    if (!AtEnd() && text_[pos_] == ']') {
      ++pos_;
      out = Value::MakeArray();
      return true;
    }
    while (true) {
      Value element;
      if (!ParseValue(element, depth + 1)) return false;
      elements.push_back(std::move(element));
      const Next next = AfterElement(']', "expected ',' or ']' after an array element");
      if (next == Next::kError) return false;
      if (next == Next::kEnd) break;
    }
    out = Value::MakeArray(std::move(elements));
    return true;
  }

  enum class Next { kElement, kEnd, kError };

  // After an array element or object member: consumes ',' (another follows)
  // or `close` (the container ends); anything else is the error `problem`.
  Next AfterElement(char close, const char* problem) {
    SkipWhitespace();
    if (!AtEnd() && text_[pos_] == ',') {
      ++pos_;
      return Next::kElement;
    }
    if (!AtEnd() && text_[pos_] == close) {
      ++pos_;
      return Next::kEnd;
    }
    Unexpected(pos_, problem);
    return Next::kError;
  }

  // Parses the object at pos_ (which is '{').
  bool ParseObject(Value& out, int depth) {
    if (!CheckDepth(depth)) return false;
    ++pos_;
    Value::Members members;
    SkipWhitespace();
    if (!AtEnd() && text_[pos_] == '}') {
      ++pos_;
      out = Value::MakeObject();
      return true;
    }
    while (true) {
      SkipWhitespace();
      if (AtEnd() || text_[pos_] != '"') return Unexpected(pos_, "expected a string key");
      std::string key;
      if (!ParseString(key)) return false;
      SkipWhitespace();
      if (AtEnd() || text_[pos_] != ':') {
        return Unexpected(pos_, "expected ':' after an object key");
      }
      ++pos_;
      Value value;
      if (!ParseValue(value, depth + 1)) return false;
      members.emplace_back(std::move(key), std::move(value));
      const Next next = AfterElement('}', "expected ',' or '}' after an object member");
      if (next == Next::kError) return false;
      if (next == Next::kEnd) break;
    }
    out = Value::MakeObject(std::move(members));
    return true;
  }

  const std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t error_pos_ = 0;
  std::string problem_;
};

// The two-character escape for `c`, or "" if it has none.
std::string_view ShortEscape(unsigned char c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      return "";
  }
}

void AppendNumber(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "NaN";
    return;
  }
  if (std::isinf(d)) {
    out += d > 0 ? "Infinity" : "-Infinity";
    return;
  }
  if (d == 0 && std::signbit(d)) {
    out += "-0";  // The integer path below would drop the sign.
    return;
  }
  char buf[32];
  std::to_chars_result result;
  // Up to 2^53 every integer is exact, so print it the way a person would;
  // beyond that "1e+20" is shorter and no less exact than 21 digits.
  if (std::trunc(d) == d && std::fabs(d) <= 9007199254740992.0) {
    result = std::to_chars(buf, buf + sizeof(buf), static_cast<std::int64_t>(d));
  } else {
    result = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::general,
                           std::numeric_limits<double>::max_digits10);
  }
  assert(result.ec == std::errc());
  out.append(buf, result.ptr);
}

void AppendValue(std::string& out, const Value& v) {
  switch (v.kind()) {
    case Kind::kNull:
      out += "null";
      return;
    case Kind::kBool:
      out += v.as_bool() ? "true" : "false";
      return;
    case Kind::kNumber:
      AppendNumber(out, v.as_number());
      return;
    case Kind::kString:
      AppendQuoted(out, v.as_string());
      return;
    case Kind::kArray: {
      out.push_back('[');
      bool first = true;
      for (const Value& element : v.as_array()) {
        if (!first) out.push_back(',');
        first = false;
        AppendValue(out, element);
      }
      out.push_back(']');
      return;
    }
    case Kind::kObject: {
      out.push_back('{');
      bool first = true;
      for (const auto& [key, value] : v.members()) {
        if (!first) out.push_back(',');
        first = false;
        AppendQuoted(out, key);
        out.push_back(':');
        AppendValue(out, value);
      }
      out.push_back('}');
      return;
    }
  }
}

// The length of the well-formed UTF-8 sequence starting at s[at] (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF); 0 if there is
// none.
std::size_t Utf8SequenceLength(std::string_view s, std::size_t at) {
  const auto byte = [&](std::size_t i) {
    return at + i < s.size() ? static_cast<unsigned char>(s[at + i]) : 0u;
  };
  const auto continuation = [&](std::size_t i) { return (byte(i) & 0xC0) == 0x80; };
  const unsigned lead = byte(0);
  if (lead >= 0xC2 && lead <= 0xDF) return continuation(1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned second = byte(1);
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F)) return 0;
    return continuation(1) && continuation(2) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned second = byte(1);
    if ((lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)) return 0;
    return continuation(1) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::string_view KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "bool";
    case Kind::kNumber:
      return "number";
    case Kind::kString:
      return "string";
    case Kind::kArray:
      return "array";
    case Kind::kObject:
      return "object";
  }
  return "invalid kind";  // Only for a Kind cast from an out-of-range integer.
}

bool Value::as_bool() const {
  assert(is_bool() && "Value::as_bool() on a non-bool");
  const bool* b = std::get_if<bool>(&storage_);
  return b != nullptr && *b;
}

double Value::as_number() const {
  assert(is_number() && "Value::as_number() on a non-number");
  const double* d = std::get_if<double>(&storage_);
  return d != nullptr ? *d : 0.0;
}

const std::string& Value::as_string() const {
  assert(is_string() && "Value::as_string() on a non-string");
  const std::string* s = std::get_if<std::string>(&storage_);
  return s != nullptr ? *s : EmptyOf<std::string>();
}

const Value::Array& Value::as_array() const {
  assert(is_array() && "Value::as_array() on a non-array");
  const Array* a = std::get_if<Array>(&storage_);
  return a != nullptr ? *a : EmptyOf<Array>();
}

const Value::Members& Value::members() const {
  assert(is_object() && "Value::members() on a non-object");
  const Members* m = std::get_if<Members>(&storage_);
  return m != nullptr ? *m : EmptyOf<Members>();
}

const Value* Value::Find(std::string_view key) const {
  const Members* m = std::get_if<Members>(&storage_);
  if (m == nullptr) return nullptr;
  // Backwards, so that of duplicate keys the last one wins.
  for (auto it = m->rbegin(); it != m->rend(); ++it) {
    if (it->first == key) return &it->second;
  }
  return nullptr;
}

StatusOr<Value> Parse(std::string_view text) { return Parser(text).Run(); }

void AppendQuoted(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  // Copy runs of bytes that need no escape at once; most strings are one run.
  std::size_t run_start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // JSON text is UTF-8: a valid sequence is copied, any other byte
      // becomes U+FFFD (names cut mid-character, binary log messages).
      if (const std::size_t length = Utf8SequenceLength(s, i); length > 0) {
        i += length - 1;
        continue;
      }
      out.append(s.substr(run_start, i - run_start));
      run_start = i + 1;
      out.append("\\ufffd");
      continue;
    }
    const std::string_view escape = ShortEscape(c);
    if (escape.empty() && c >= 0x20) continue;
    out.append(s.substr(run_start, i - run_start));
    run_start = i + 1;
    if (!escape.empty()) {
      out.append(escape);
    } else {
      const char unicode[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
      out.append(unicode, sizeof(unicode));
    }
  }
  out.append(s.substr(run_start));
  out.push_back('"');
}

std::string Serialize(const Value& v) {
  std::string out;
  AppendValue(out, v);
  return out;
}

}  // namespace benchprof::json
