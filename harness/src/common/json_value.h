// A small JSON document model: parse text into a Value tree, serialize a
// Value back to compact text, and quote strings for hand-written JSON.
//
// Parse() exists so the harness can read Google Benchmark's own JSON output
// and result files that users hand to the compare tool, so it treats its
// input as untrusted: any byte sequence yields either a Value or a one-line
// "line L, column C: <problem>" error, never a crash, a hang or unbounded
// recursion (nesting is capped at kMaxDepth). It is strict RFC 8259 plus the
// bare number tokens NaN, Infinity and -Infinity, which Google Benchmark 1.7.1
// writes for NaN and infinite counters (e.g. the "_cv" row of a counter that
// was always zero). It is the project's one JSON reader, json::Tokenizer
// (json_tokenizer.h), building a Value (json_document.h, which also reads a
// file without loading it whole first: ParseFile).
//
//   // In namespace benchprof:
//   StatusOr<json::Value> doc = json::Parse(text);
//   if (!doc.ok()) return doc.status().WithContext(path);
//   const json::Value* rows = doc->Find("benchmarks");
//   if (rows == nullptr || !rows->is_array()) {
//     return Status::Error(path + ": no \"benchmarks\" array");
//   }
//   for (const json::Value& row : rows->as_array()) {
//     const json::Value* name = row.Find("name");
//     if (name != nullptr && name->is_string()) ... name->as_string() ...
//   }
//
// Thread-safety: Value is thread-compatible (concurrent const access is safe);
// the free functions are thread-safe.
#ifndef BENCHPROF_COMMON_JSON_VALUE_H_
#define BENCHPROF_COMMON_JSON_VALUE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "common/status.h"

namespace benchprof::json {

// The deepest nesting of arrays and objects the tokenizer, and so Parse(),
// accepts. It bounds the document builder's recursion, and with it the
// recursion of ~Value, operator== and Serialize() on parsed documents;
// Google Benchmark output nests 3 deep.
inline constexpr int kMaxDepth = 256;

// The six JSON types. kind() relies on their order matching Value's storage.
enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

// A lower-case name for `kind` ("null", "bool", "number", "string", "array",
// "object"), for error messages such as "expected a number, found string".
std::string_view KindName(Kind kind);

// One JSON value of any kind. Values own their children; copies are deep.
//
// The accessors as_*() and members() expect the matching kind. Calling one on
// another kind is a programming error: it asserts in debug builds, and in
// release builds returns an empty value (false, 0, "", an empty array or an
// empty member list) so that bad input reaching a caller that forgot to check
// the kind still cannot cause undefined behaviour.
class Value {
 public:
  using Array = std::vector<Value>;
  // Object members in input order. Duplicate keys are kept, so a document
  // survives Parse/Serialize unchanged; Find() sees the last one, as most
  // JSON readers (Python's json, jq) do.
  using Members = std::vector<std::pair<std::string, Value>>;

  // A null value.
  Value() = default;

  // Factories, named so that a string literal or an integer cannot silently
  // become a bool, as it would through overloaded constructors.
  static Value MakeNull() { return Value(); }
  static Value MakeBool(bool b) { return Make<Kind::kBool>(b); }
  static Value MakeNumber(double d) { return Make<Kind::kNumber>(d); }
  static Value MakeString(std::string s) { return Make<Kind::kString>(std::move(s)); }
  static Value MakeArray(Array elements = {}) { return Make<Kind::kArray>(std::move(elements)); }
  static Value MakeObject(Members members = {}) { return Make<Kind::kObject>(std::move(members)); }

  Kind kind() const { return static_cast<Kind>(storage_.index()); }
  bool is_null() const { return kind() == Kind::kNull; }
  bool is_bool() const { return kind() == Kind::kBool; }
  bool is_number() const { return kind() == Kind::kNumber; }
  bool is_string() const { return kind() == Kind::kString; }
  bool is_array() const { return kind() == Kind::kArray; }
  bool is_object() const { return kind() == Kind::kObject; }

  // The boolean; false if this is not a bool.
  bool as_bool() const;

  // The number, possibly NaN or infinite; 0 if this is not a number.
  double as_number() const;

  // The string's bytes (UTF-8 when the input was); "" if this is not a string.
  const std::string& as_string() const;

  // The elements in order; empty if this is not an array.
  const Array& as_array() const;

  // The members in input order, duplicates included; empty if this is not an
  // object.
  const Members& members() const;

  // The value of the last member named `key`, or nullptr if there is none or
  // this is not an object. Linear in the number of members, which is fine for
  // benchmark rows of a few dozen keys; index members() yourself for more.
  const Value* Find(std::string_view key) const;

  // Deep equality: same kind and same contents, object members compared in
  // order. Numbers compare as doubles, so NaN != NaN and -0 == 0.
  friend bool operator==(const Value& a, const Value& b) { return a.storage_ == b.storage_; }

 private:
  using Storage = std::variant<std::monostate, bool, double, std::string, Array, Members>;
  static_assert(
      std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Kind::kObject), Storage>,
                     Members>,
      "Kind must list the kinds in the order of Storage");

  template <Kind K, typename T>
  static Value Make(T&& contents) {
    Value v;
    v.storage_.emplace<static_cast<std::size_t>(K)>(std::forward<T>(contents));
    return v;
  }

  Storage storage_;
};

// Parses one JSON document; leading and trailing whitespace is allowed.
//
// Besides RFC 8259 it accepts the bare tokens NaN, Infinity and -Infinity as
// numbers. Strings are unescaped to UTF-8 (\uXXXX surrogate pairs are
// combined; lone surrogates are rejected); other bytes, including invalid
// UTF-8, are passed through. Numbers are parsed independently of the locale.
//
// On failure returns an error whose message is one line,
// "line L, column C: <problem>", where L and C are 1-based and C counts bytes.
// The problems are: "empty input", "unexpected end of input (truncated?)"
// (reported wherever the text ends while more is required, so any cut-off
// document gets this message at its end), "trailing characters after the
// JSON value", "expected a value", "invalid literal", "invalid number",
// "number out of range" (the magnitude overflows or underflows a double, e.g.
// 1e999 or 1e-400), "invalid escape", "invalid escape (lone surrogate)",
// "control character in string", "NUL byte in input", "expected a string
// key", "expected ':' after an object key", "expected ',' or '}' after an
// object member", "expected ',' or ']' after an array element" and
// "nesting deeper than 256". Errors point at the offending byte, except that
// an invalid literal, number or escape is reported at its first byte (for an
// escape, the backslash) and "empty input" at line 1, column 1.
//
// Defined in json_document.cc, on the tokenizer.
StatusOr<Value> Parse(std::string_view text);

// Appends `s` to `out` as a JSON string literal, quotes included. Escapes '"',
// '\\' and control characters (\b \f \n \r \t, the rest as \u00XX), and
// also DEL, C1 controls, U+2028, U+2029 and the bidirectional formatting
// characters (every code point TextHazardOf in common/utf8.h flags) as
// \uXXXX, and the first '#' of "##" as \u0023, so that JSON printed in a CI
// log reorders nothing and issues no workflow command; copies other
// well-formed UTF-8 as it is, and writes every byte that is not part of a
// well-formed UTF-8 sequence as \ufffd, so the output is always valid JSON.
void AppendQuoted(std::string& out, std::string_view s);

// Returns `v` as compact JSON (no whitespace). Integral numbers up to 2^53 in
// magnitude print without a fraction ("3", "-0"); other finite numbers print
// with 17 significant digits, enough to read back the same double; NaN and
// infinities print as NaN, Infinity and -Infinity, which only Parse() and
// similarly lenient readers accept. Parse(Serialize(v)) == v for every v
// without NaN that nests at most kMaxDepth deep. Recursion follows the nesting
// of `v`, so programmatically built values should stay within a few thousand
// levels.
std::string Serialize(const Value& v);

}  // namespace benchprof::json

#endif  // BENCHPROF_COMMON_JSON_VALUE_H_
