#include "common/json_value.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>

#include "common/utf8.h"

namespace benchprof::json {
namespace {

// What the wrong-kind accessors return in release builds. Leaked on purpose so
// that no destructor runs at exit while another static might still use it.
template <typename T>
const T& EmptyOf() {
  static const T* const empty = new T();
  return *empty;
}

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

void AppendQuoted(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  // Copy runs of bytes that need no escape at once; most strings are one run.
  std::size_t run_start = 0;
  // \uXXXX for a code point below U+10000.
  const auto append_unicode = [&out](uint32_t code_point) {
    const char unicode[] = {'\\',
                            'u',
                            kHex[code_point >> 12],
                            kHex[(code_point >> 8) & 0xF],
                            kHex[(code_point >> 4) & 0xF],
                            kHex[code_point & 0xF]};
    out.append(unicode, sizeof(unicode));
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // JSON text is UTF-8: a valid sequence is copied, any other byte
      // becomes U+FFFD (names cut mid-character, binary log messages).
      // C1 controls and bidi formatting characters are escaped: JSON is
      // printed in CI logs, where they would reorder what people read.
      const std::size_t length = Utf8SequenceLength(s, i);
      const uint32_t code_point = length > 0 ? DecodeUtf8(s, i, length) : 0;
      if (length > 0 && TextHazardOf(code_point) == TextHazard::kNone) {
        i += length - 1;
        continue;
      }
      out.append(s.substr(run_start, i - run_start));
      run_start = i + std::max<std::size_t>(length, 1);
      if (length > 0) {
        append_unicode(code_point);
        i += length - 1;
      } else {
        out.append("\\ufffd");
      }
      continue;
    }
    const std::string_view escape = ShortEscape(c);
    // "##[" anywhere in a line of a GitHub Actions log is a workflow
    // command (Azure Pipelines: "##vso["): no "##" is written raw.
    const bool command_marker = c == '#' && i + 1 < s.size() && s[i + 1] == '#';
    if (escape.empty() && c >= 0x20 && c != 0x7F && !command_marker) continue;
    out.append(s.substr(run_start, i - run_start));
    run_start = i + 1;
    if (!escape.empty()) {
      out.append(escape);
    } else {
      append_unicode(c);
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
