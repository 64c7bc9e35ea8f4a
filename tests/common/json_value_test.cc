#include "common/json_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace benchprof::json {
namespace {

// Trimmed from a real `--benchmark_format=json --benchmark_repetitions=2` run
// of Google Benchmark 1.7.1 with the harness's B/op and allocs/op counters,
// including the bare NaN that 1.7.1 writes for the cv of an all-zero counter.
constexpr std::string_view kBenchmarkJson = R"({
  "context": {
    "date": "2026-11-22T09:33:10+00:00",
    "host_name": "vm",
    "executable": "./harness",
    "num_cpus": 2,
    "mhz_per_cpu": 2596,
    "cpu_scaling_enabled": false,
    "caches": [
      {
        "type": "Data",
        "level": 1,
        "size": 49152,
        "num_sharing": 1
      },
      {
        "type": "Unified",
        "level": 2,
        "size": 1310720,
        "num_sharing": 1
      }
    ],
    "load_avg": [1.00586,0.360352,0.129395],
    "library_build_type": "debug"
  },
  "benchmarks": [
    {
      "name": "BM_Vec/8",
      "family_index": 0,
      "per_family_instance_index": 0,
      "run_name": "BM_Vec/8",
      "run_type": "iteration",
      "repetitions": 2,
      "repetition_index": 0,
      "threads": 1,
      "iterations": 1565301,
      "real_time": 2.9600335654297925e+01,
      "cpu_time": 1.8029199495815824e+01,
      "time_unit": "ns",
      "B/op": 8.0000000000000000e+00,
      "allocs/op": 1.0000000000000000e+00
    },
    {
      "name": "BM_Vec/8",
      "family_index": 0,
      "per_family_instance_index": 0,
      "run_name": "BM_Vec/8",
      "run_type": "iteration",
      "repetitions": 2,
      "repetition_index": 1,
      "threads": 1,
      "iterations": 1565301,
      "real_time": 1.6841958192086505e+01,
      "cpu_time": 1.6829917057485063e+01,
      "time_unit": "ns",
      "B/op": 8.0000000000000000e+00,
      "allocs/op": 1.0000000000000000e+00
    },
    {
      "name": "BM_NoAlloc_cv",
      "family_index": 1,
      "per_family_instance_index": 0,
      "run_name": "BM_NoAlloc",
      "run_type": "aggregate",
      "repetitions": 2,
      "threads": 1,
      "aggregate_name": "cv",
      "aggregate_unit": "percentage",
      "iterations": 2,
      "real_time": 1.0316053266927928e-02,
      "cpu_time": 9.0818404837509931e-03,
      "time_unit": "ns",
      "B/op": NaN,
      "allocs/op": NaN
    }
  ]
})";

// Every construct the parser knows, so that cutting or mutating it reaches
// every code path: escapes of each kind, a surrogate pair, all literals and
// extensions, exponents, empty containers and nesting.
constexpr std::string_view kKitchenSinkJson =
    "{\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\\u0000 \xC3\xA9\","
    " \"n\": [0, -0, 1.5e+3, -2.25E-2, 123456789012345678, NaN, Infinity, -Infinity],\r\n"
    "\t\"l\": [true, false, null, [], {}, [[{\"deep\": [1]}]]], \"k\": {\"a\": 1, \"a\": 2}}";

// Parses `text`, which the test expects to be valid.
Value MustParse(std::string_view text) {
  StatusOr<Value> v = Parse(text);
  EXPECT_TRUE(v.ok()) << v.status().message() << "\n in: " << text;
  return v.ok() ? std::move(v).value() : Value();
}

// The error message for `text`, which the test expects to be invalid.
std::string ParseError(std::string_view text) {
  StatusOr<Value> v = Parse(text);
  if (v.ok()) return "<parsed: " + Serialize(*v) + ">";
  return v.status().message();
}

// The member `key` of `object`, failing the test (and returning null) if it
// is missing, so chains like Field(Field(doc, "a"), "b") stay readable.
const Value& Field(const Value& object, std::string_view key) {
  static const Value* const kMissing = new Value();
  const Value* v = object.Find(key);
  EXPECT_NE(v, nullptr) << "missing key \"" << key << "\"";
  return v != nullptr ? *v : *kMissing;
}

// Typed views for assertions. Unlike the accessors they check the kind and
// fail the test instead of tripping the accessors' debug assertion, so that a
// parser bug shows up as failed expectations rather than aborting the binary.
std::string StringOf(const Value& v) {
  if (v.is_string()) return v.as_string();
  ADD_FAILURE() << "expected a string, got " << Serialize(v);
  return "<not a string>";
}

double NumberOf(const Value& v) {
  if (v.is_number()) return v.as_number();
  ADD_FAILURE() << "expected a number, got " << Serialize(v);
  return std::numeric_limits<double>::quiet_NaN();
}

bool BoolOf(const Value& v) {
  if (v.is_bool()) return v.as_bool();
  ADD_FAILURE() << "expected a bool, got " << Serialize(v);
  return false;
}

const Value::Array& ArrayOf(const Value& v) {
  static const Value::Array* const kEmpty = new Value::Array();
  if (v.is_array()) return v.as_array();
  ADD_FAILURE() << "expected an array, got " << Serialize(v);
  return *kEmpty;
}

const Value::Members& MembersOf(const Value& v) {
  static const Value::Members* const kEmpty = new Value::Members();
  if (v.is_object()) return v.members();
  ADD_FAILURE() << "expected an object, got " << Serialize(v);
  return *kEmpty;
}

// The "line L, column C" of byte offset `offset` in `text`, computed the
// obvious way, independently of the parser.
std::string Position(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

TEST(JsonParseTest, GoogleBenchmarkDocument) {
  const Value doc = MustParse(kBenchmarkJson);
  ASSERT_TRUE(doc.is_object());
  ASSERT_EQ(MembersOf(doc).size(), 2u);
  EXPECT_EQ(MembersOf(doc)[0].first, "context");
  EXPECT_EQ(MembersOf(doc)[1].first, "benchmarks");

  const Value& context = Field(doc, "context");
  EXPECT_EQ(StringOf(Field(context, "date")), "2026-11-22T09:33:10+00:00");
  EXPECT_EQ(StringOf(Field(context, "host_name")), "vm");
  EXPECT_EQ(NumberOf(Field(context, "num_cpus")), 2);
  EXPECT_EQ(NumberOf(Field(context, "mhz_per_cpu")), 2596);
  EXPECT_TRUE(Field(context, "cpu_scaling_enabled").is_bool());
  EXPECT_FALSE(BoolOf(Field(context, "cpu_scaling_enabled")));
  EXPECT_EQ(StringOf(Field(context, "library_build_type")), "debug");
  const Value::Array& caches = ArrayOf(Field(context, "caches"));
  ASSERT_EQ(caches.size(), 2u);
  EXPECT_EQ(StringOf(Field(caches[0], "type")), "Data");
  EXPECT_EQ(NumberOf(Field(caches[0], "size")), 49152);
  EXPECT_EQ(StringOf(Field(caches[1], "type")), "Unified");
  EXPECT_EQ(NumberOf(Field(caches[1], "level")), 2);
  EXPECT_EQ(NumberOf(Field(caches[1], "size")), 1310720);
  const Value::Array& load_avg = ArrayOf(Field(context, "load_avg"));
  ASSERT_EQ(load_avg.size(), 3u);
  EXPECT_EQ(NumberOf(load_avg[0]), 1.00586);
  EXPECT_EQ(NumberOf(load_avg[1]), 0.360352);
  EXPECT_EQ(NumberOf(load_avg[2]), 0.129395);

  const Value::Array& rows = ArrayOf(Field(doc, "benchmarks"));
  ASSERT_EQ(rows.size(), 3u);
  const Value& first = rows[0];
  EXPECT_EQ(StringOf(Field(first, "name")), "BM_Vec/8");
  EXPECT_EQ(StringOf(Field(first, "run_name")), "BM_Vec/8");
  EXPECT_EQ(StringOf(Field(first, "run_type")), "iteration");
  EXPECT_EQ(NumberOf(Field(first, "repetitions")), 2);
  EXPECT_EQ(NumberOf(Field(first, "repetition_index")), 0);
  EXPECT_EQ(NumberOf(Field(first, "threads")), 1);
  EXPECT_EQ(NumberOf(Field(first, "iterations")), 1565301);
  EXPECT_EQ(NumberOf(Field(first, "real_time")), 29.600335654297925);
  EXPECT_EQ(NumberOf(Field(first, "cpu_time")), 18.029199495815824);
  EXPECT_EQ(StringOf(Field(first, "time_unit")), "ns");
  EXPECT_EQ(NumberOf(Field(first, "B/op")), 8);
  EXPECT_EQ(NumberOf(Field(first, "allocs/op")), 1);
  // Members keep the order Google Benchmark wrote them in.
  ASSERT_EQ(MembersOf(first).size(), 14u);
  EXPECT_EQ(MembersOf(first)[9].first, "real_time");
  EXPECT_EQ(MembersOf(first)[13].first, "allocs/op");

  EXPECT_EQ(NumberOf(Field(rows[1], "repetition_index")), 1);
  EXPECT_EQ(NumberOf(Field(rows[1], "real_time")), 16.841958192086505);

  const Value& cv = rows[2];
  EXPECT_EQ(StringOf(Field(cv, "name")), "BM_NoAlloc_cv");
  EXPECT_EQ(StringOf(Field(cv, "run_type")), "aggregate");
  EXPECT_EQ(StringOf(Field(cv, "aggregate_name")), "cv");
  EXPECT_EQ(cv.Find("repetition_index"), nullptr);
  EXPECT_EQ(NumberOf(Field(cv, "cpu_time")), 9.0818404837509931e-03);
  ASSERT_TRUE(Field(cv, "allocs/op").is_number());
  EXPECT_TRUE(std::isnan(NumberOf(Field(cv, "allocs/op"))));
  EXPECT_TRUE(std::isnan(NumberOf(Field(cv, "B/op"))));
}

TEST(JsonParseTest, Literals) {
  EXPECT_TRUE(MustParse("null").is_null());
  EXPECT_TRUE(BoolOf(MustParse("true")));
  EXPECT_FALSE(BoolOf(MustParse("false")));
  EXPECT_TRUE(MustParse("false").is_bool());
  EXPECT_EQ(StringOf(MustParse(" \t\r\n \"x\" \n\t")), "x");
}

TEST(JsonParseTest, NaNAndInfinityExtensions) {
  EXPECT_TRUE(std::isnan(NumberOf(MustParse("NaN"))));
  EXPECT_EQ(NumberOf(MustParse("Infinity")), std::numeric_limits<double>::infinity());
  EXPECT_EQ(NumberOf(MustParse("-Infinity")), -std::numeric_limits<double>::infinity());
  const Value array = MustParse("[NaN,Infinity,-Infinity]");
  ASSERT_EQ(ArrayOf(array).size(), 3u);
  EXPECT_TRUE(std::isnan(NumberOf(ArrayOf(array)[0])));
  EXPECT_TRUE(std::isinf(NumberOf(ArrayOf(array)[1])));
  EXPECT_LT(NumberOf(ArrayOf(array)[2]), 0);

  // Only the exact spellings Google Benchmark writes.
  EXPECT_EQ(ParseError("nan"), "line 1, column 1: invalid literal");
  EXPECT_EQ(ParseError("NAN"), "line 1, column 1: invalid literal");
  EXPECT_EQ(ParseError("Inf"), "line 1, column 4: unexpected end of input (truncated?)");
  EXPECT_EQ(ParseError("[Inf]"), "line 1, column 2: invalid literal");
  EXPECT_EQ(ParseError("inf"), "line 1, column 1: expected a value");
  EXPECT_EQ(ParseError("-NaN"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("+Infinity"), "line 1, column 1: invalid number");
}

TEST(JsonParseTest, SimpleEscapes) {
  EXPECT_EQ(StringOf(MustParse(R"("\"\\\/\b\f\n\r\t")")), "\"\\/\b\f\n\r\t");
  EXPECT_EQ(StringOf(MustParse(R"("a\nb")")), "a\nb");
}

TEST(JsonParseTest, UnicodeEscapes) {
  EXPECT_EQ(StringOf(MustParse(R"("\u0041")")), "A");
  EXPECT_EQ(StringOf(MustParse(R"("\u00e9\u00E9")")), "\xC3\xA9\xC3\xA9");
  EXPECT_EQ(StringOf(MustParse(R"("\u20AC")")), "\xE2\x82\xAC");
  EXPECT_EQ(StringOf(MustParse(R"("\uFFFF")")), "\xEF\xBF\xBF");
  // U+1F600 is the pair D83D DE00 and four bytes of UTF-8.
  EXPECT_EQ(StringOf(MustParse(R"("\uD83D\uDE00")")), "\xF0\x9F\x98\x80");
  EXPECT_EQ(StringOf(MustParse(R"("\ud83d\ude00")")), "\xF0\x9F\x98\x80");
  // U+10FFFF, the last code point: DBFF DFFF.
  EXPECT_EQ(StringOf(MustParse(R"("x\uDBFF\uDFFFy")")), "x\xF4\x8F\xBF\xBFy");
  // An escaped NUL is legal JSON and survives as a byte of the string.
  EXPECT_EQ(StringOf(MustParse(R"("a\u0000b")")), std::string("a\0b", 3));
}

TEST(JsonParseTest, RawUtf8AndInvalidUtf8PassThrough) {
  EXPECT_EQ(StringOf(MustParse("\"caf\xC3\xA9 \xF0\x9F\x98\x80\"")),
            "caf\xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(StringOf(MustParse("\"\xFF\xFE\x80\"")), "\xFF\xFE\x80");
  EXPECT_EQ(StringOf(MustParse("\"\x7F\"")), "\x7F");
}

TEST(JsonParseTest, EscapeErrors) {
  EXPECT_EQ(ParseError(R"("ab\x")"), "line 1, column 4: invalid escape");
  EXPECT_EQ(ParseError(R"("\U0041")"), "line 1, column 2: invalid escape");
  EXPECT_EQ(ParseError(R"("\u00G1")"), "line 1, column 2: invalid escape");
  EXPECT_EQ(ParseError(R"("\u12")"), "line 1, column 2: invalid escape");
  EXPECT_EQ(ParseError(R"(["ok", "\uD800"])"), "line 1, column 9: invalid escape (lone surrogate)");
  EXPECT_EQ(ParseError(R"("\uDE00")"), "line 1, column 2: invalid escape (lone surrogate)");
  EXPECT_EQ(ParseError(R"("\uD800x")"), "line 1, column 2: invalid escape (lone surrogate)");
  EXPECT_EQ(ParseError(R"("\uD800\n")"), "line 1, column 2: invalid escape (lone surrogate)");
  EXPECT_EQ(ParseError(R"("\uD800\u0041")"), "line 1, column 2: invalid escape (lone surrogate)");
  EXPECT_EQ(ParseError(R"("\uD800\uD800")"), "line 1, column 2: invalid escape (lone surrogate)");
  EXPECT_EQ(ParseError(R"("\uD800\uDZ00")"), "line 1, column 8: invalid escape");
}

TEST(JsonParseTest, ErrorMessagesNameLineAndColumn) {
  struct Case {
    std::string_view text;
    std::string_view error;
  };
  const Case cases[] = {
      {"", "line 1, column 1: empty input"},
      {" \n\t\r\n ", "line 1, column 1: empty input"},
      {"{\"a\": 1", "line 1, column 8: unexpected end of input (truncated?)"},
      {"[1,\n", "line 2, column 1: unexpected end of input (truncated?)"},
      {"\"abc", "line 1, column 5: unexpected end of input (truncated?)"},
      {"[1, 2] x", "line 1, column 8: trailing characters after the JSON value"},
      {"{} {}", "line 1, column 4: trailing characters after the JSON value"},
      {"{\n  \"context\": {},\n  \"bench\": 1 \"x\"\n}",
       "line 3, column 14: expected ',' or '}' after an object member"},
      {"{\r\n\"a\" x}", "line 2, column 5: expected ':' after an object key"},
      {"[1 2]", "line 1, column 4: expected ',' or ']' after an array element"},
      {"[1,]", "line 1, column 4: expected a value"},
      {"[,1]", "line 1, column 2: expected a value"},
      {"{a: 1}", "line 1, column 2: expected a string key"},
      {"{\"a\": 1,}", "line 1, column 9: expected a string key"},
      {"{\"a\" 1}", "line 1, column 6: expected ':' after an object key"},
      {"{\"a\":}", "line 1, column 6: expected a value"},
      {"tru", "line 1, column 4: unexpected end of input (truncated?)"},
      {"trUe", "line 1, column 1: invalid literal"},
      {"[nul]", "line 1, column 2: invalid literal"},
      {"'a'", "line 1, column 1: expected a value"},
      {"\xEF\xBB\xBF{}", "line 1, column 1: expected a value"},
      {"\"a\\qb\"", "line 1, column 3: invalid escape"},
      {"\"a\tb\"", "line 1, column 3: control character in string"},
      {"[\"x\",\n \"a\nb\"]", "line 2, column 4: control character in string"},
      {"\"\x1F\"", "line 1, column 2: control character in string"},
      {"[01]", "line 1, column 2: invalid number"},
      {"[1e999]", "line 1, column 2: number out of range"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ParseError(c.text), c.error) << "input: " << c.text;
  }
}

TEST(JsonParseTest, NulBytesAreErrors) {
  using std::string_literals::operator""s;
  EXPECT_EQ(ParseError("\0"s), "line 1, column 1: NUL byte in input");
  EXPECT_EQ(ParseError("[1,\0]"s), "line 1, column 4: NUL byte in input");
  EXPECT_EQ(ParseError("1\0"s), "line 1, column 2: NUL byte in input");
  EXPECT_EQ(ParseError("{}\0"s), "line 1, column 3: NUL byte in input");
  EXPECT_EQ(ParseError("\"a\0b\""s), "line 1, column 3: NUL byte in input");
  EXPECT_EQ(ParseError("\"a\\\0\""s), "line 1, column 4: NUL byte in input");
  EXPECT_EQ(ParseError("\"\\u00\0\""s), "line 1, column 6: NUL byte in input");
  EXPECT_EQ(ParseError("tr\0e"s), "line 1, column 3: NUL byte in input");
  EXPECT_EQ(ParseError("{\"a\"\0:1}"s), "line 1, column 5: NUL byte in input");
}

TEST(JsonParseTest, Numbers) {
  const Value minus_zero = MustParse("-0");
  EXPECT_EQ(NumberOf(minus_zero), 0);
  EXPECT_TRUE(std::signbit(NumberOf(minus_zero)));
  EXPECT_FALSE(std::signbit(NumberOf(MustParse("0"))));
  EXPECT_EQ(NumberOf(MustParse("1e308")), 1e308);
  EXPECT_EQ(NumberOf(MustParse("-1E+308")), -1e308);
  EXPECT_EQ(NumberOf(MustParse("1e-308")), 1e-308);
  EXPECT_EQ(NumberOf(MustParse("4.9406564584124654e-324")),
            std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(NumberOf(MustParse("1.7976931348623157e308")), std::numeric_limits<double>::max());
  EXPECT_EQ(NumberOf(MustParse("0.1")), 0.1);
  EXPECT_EQ(NumberOf(MustParse("-2.5e-3")), -0.0025);
  EXPECT_EQ(NumberOf(MustParse("12e2")), 1200);
  EXPECT_EQ(NumberOf(MustParse("0e0")), 0);
  // Beyond 2^53 integers round to the nearest double, here a multiple of 16.
  const double big = NumberOf(MustParse("123456789012345678"));
  EXPECT_EQ(big, 123456789012345680.0);
  EXPECT_EQ(static_cast<std::int64_t>(big), INT64_C(123456789012345680));
  // Many digits are fine; the value is correctly rounded.
  EXPECT_EQ(NumberOf(MustParse("0." + std::string(1000, '3'))), 1.0 / 3);
}

TEST(JsonParseTest, InvalidNumbers) {
  EXPECT_EQ(ParseError("01"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("-01"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("[1.]"), "line 1, column 2: invalid number");
  EXPECT_EQ(ParseError("[.5]"), "line 1, column 2: invalid number");
  EXPECT_EQ(ParseError(".5"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("+1"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("[1e]"), "line 1, column 2: invalid number");
  EXPECT_EQ(ParseError("[1e+]"), "line 1, column 2: invalid number");
  EXPECT_EQ(ParseError("--1"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("[-]"), "line 1, column 2: invalid number");
  EXPECT_EQ(ParseError("1.5.3"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("1-2"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("1.e5"), "line 1, column 1: invalid number");
  EXPECT_EQ(ParseError("[1x]"), "line 1, column 3: expected ',' or ']' after an array element");
  // A number that stops at the end of the input is a cut-off one.
  EXPECT_EQ(ParseError("1."), "line 1, column 3: unexpected end of input (truncated?)");
  EXPECT_EQ(ParseError("1e"), "line 1, column 3: unexpected end of input (truncated?)");
  EXPECT_EQ(ParseError("-"), "line 1, column 2: unexpected end of input (truncated?)");
}

TEST(JsonParseTest, OutOfRangeNumbers) {
  EXPECT_EQ(ParseError("1e999"), "line 1, column 1: number out of range");
  EXPECT_EQ(ParseError("-1e999"), "line 1, column 1: number out of range");
  EXPECT_EQ(ParseError("1.7976931348623159e308"), "line 1, column 1: number out of range");
  EXPECT_EQ(ParseError("1e-400"), "line 1, column 1: number out of range");
  EXPECT_EQ(ParseError("1e99999999999999999999999"), "line 1, column 1: number out of range");
  EXPECT_EQ(ParseError("{\"x\":\n  1" + std::string(400, '0') + "}"),
            "line 2, column 3: number out of range");
}

TEST(JsonParseTest, DuplicateKeysKeepAllMembersAndFindTheLast) {
  const Value v = MustParse(R"({"a": 1, "b": 2, "a": 3})");
  ASSERT_EQ(MembersOf(v).size(), 3u);
  EXPECT_EQ(NumberOf(MembersOf(v)[0].second), 1);
  EXPECT_EQ(NumberOf(Field(v, "a")), 3);
  EXPECT_EQ(Serialize(v), R"({"a":1,"b":2,"a":3})");
}

TEST(JsonParseTest, FindOnMissingKeyOrNonObject) {
  const Value v = MustParse(R"({"a": {"b": []}})");
  EXPECT_EQ(v.Find("b"), nullptr);
  EXPECT_EQ(v.Find(""), nullptr);
  const Value* b = Field(v, "a").Find("b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->Find("c"), nullptr);
  EXPECT_EQ(MustParse("[1]").Find("a"), nullptr);
  EXPECT_EQ(MustParse(R"(["a"])").Find("a"), nullptr);
  EXPECT_EQ(Value().Find("a"), nullptr);
}

TEST(JsonParseTest, NestingUpTo256IsAccepted) {
  const std::string arrays = std::string(256, '[') + std::string(256, ']');
  const Value v = MustParse(arrays);
  EXPECT_EQ(Serialize(v), arrays);
  std::string objects;
  for (int i = 0; i < 255; ++i) objects += "{\"k\":";
  objects += "[1]" + std::string(255, '}');
  EXPECT_EQ(Serialize(MustParse(objects)), objects);
}

TEST(JsonParseTest, DeepNestingIsAnErrorNotAStackOverflow) {
  constexpr int kLevels = 10000;
  EXPECT_EQ(ParseError(std::string(kLevels, '[') + std::string(kLevels, ']')),
            "line 1, column 257: nesting deeper than 256");
  EXPECT_EQ(ParseError(std::string(257, '[') + std::string(257, ']')),
            "line 1, column 257: nesting deeper than 256");
  std::string objects;
  for (int i = 0; i < kLevels; ++i) objects += "{\"k\":";
  EXPECT_EQ(ParseError(objects), "line 1, column 1281: nesting deeper than 256");
  // Unclosed as well: the depth check must come before the truncation.
  EXPECT_EQ(ParseError(std::string(kLevels, '[')), "line 1, column 257: nesting deeper than 256");
}

// Cuts `doc` at every byte offset. Each prefix lives in its own exactly-sized
// heap buffer, so that AddressSanitizer catches a read of even one byte past
// the end, and must fail with "truncated" at exactly its end.
void ExpectEveryPrefixIsTruncated(std::string_view doc) {
  ASSERT_TRUE(Parse(doc).ok());
  for (std::size_t n = 0; n < doc.size(); ++n) {
    const std::vector<char> buffer(doc.begin(), doc.begin() + n);
    const std::string_view prefix(buffer.data(), n);
    const std::string expected = n == 0
                                     ? "line 1, column 1: empty input"
                                     : Position(doc, n) + ": unexpected end of input (truncated?)";
    EXPECT_EQ(ParseError(prefix), expected) << "prefix of " << n << " bytes: " << prefix;
  }
}

TEST(JsonParseTest, EveryPrefixOfABenchmarkDocumentIsTruncated) {
  ExpectEveryPrefixIsTruncated(kBenchmarkJson);
}

TEST(JsonParseTest, EveryPrefixOfAKitchenSinkDocumentIsTruncated) {
  ExpectEveryPrefixIsTruncated(kKitchenSinkJson);
}

// Random byte edits of valid documents: whatever comes out, the parser must
// return (no crash, hang or sanitizer report) and any error must be one line
// in the documented form. The seed is fixed so failures reproduce.
TEST(JsonParseTest, MutatedDocumentsNeverCrash) {
  std::mt19937 rng(20240611);
  // Structural bytes, plus a few that are always wrong: a control byte, NUL,
  // a UTF-8 lead byte and a byte that never occurs in UTF-8.
  constexpr char kAlphabet[] = "{}[]\",:\\u0123456789.eE+-tfnNI \n\t\x01\x00\xC3\xFF";
  const std::string_view alphabet(kAlphabet, sizeof(kAlphabet) - 1);
  int parsed = 0;
  for (std::string_view seed_doc : {kBenchmarkJson, kKitchenSinkJson}) {
    for (int round = 0; round < 3000; ++round) {
      std::string doc(seed_doc);
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = rng() % (doc.size() + 1);
        const char byte = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0:
            if (at < doc.size()) doc[at] = byte;
            break;
          case 1:
            doc.insert(doc.begin() + static_cast<std::ptrdiff_t>(at), byte);
            break;
          default:
            if (at < doc.size()) doc.erase(at, 1);
            break;
        }
      }
      const std::vector<char> buffer(doc.begin(), doc.end());
      const StatusOr<Value> v = Parse(std::string_view(buffer.data(), buffer.size()));
      if (v.ok()) {
        ++parsed;
        continue;
      }
      const std::string message = v.status().message();  // status() is a copy.
      EXPECT_EQ(message.rfind("line ", 0), 0u) << message;
      EXPECT_NE(message.find(", column "), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
  // Some edits (inside strings, whitespace) keep the document valid; if none
  // did, the mutations would not be exercising what they should.
  EXPECT_GT(parsed, 0);
}

TEST(JsonValueTest, WrongKindAccessorsAssertInDebugAndReturnEmptyInRelease) {
  const Value number = Value::MakeNumber(1);
  const Value string = Value::MakeString("x");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(number.as_string(), ""), "as_string");
  EXPECT_DEBUG_DEATH(EXPECT_TRUE(number.as_array().empty()), "as_array");
  EXPECT_DEBUG_DEATH(EXPECT_TRUE(number.members().empty()), "members");
  EXPECT_DEBUG_DEATH(EXPECT_FALSE(number.as_bool()), "as_bool");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(string.as_number(), 0), "as_number");
}

TEST(JsonValueTest, KindsAndNames) {
  EXPECT_EQ(Value().kind(), Kind::kNull);
  EXPECT_EQ(Value::MakeBool(true).kind(), Kind::kBool);
  EXPECT_EQ(Value::MakeNumber(1).kind(), Kind::kNumber);
  EXPECT_EQ(Value::MakeString("").kind(), Kind::kString);
  EXPECT_EQ(Value::MakeArray().kind(), Kind::kArray);
  EXPECT_EQ(Value::MakeObject().kind(), Kind::kObject);
  EXPECT_EQ(KindName(Kind::kNull), "null");
  EXPECT_EQ(KindName(Kind::kNumber), "number");
  EXPECT_EQ(KindName(Kind::kObject), "object");
}

TEST(JsonValueTest, Equality) {
  EXPECT_EQ(Value(), Value::MakeNull());
  EXPECT_NE(Value(), Value::MakeBool(false));
  EXPECT_NE(Value::MakeNumber(0), Value::MakeBool(false));
  EXPECT_NE(Value::MakeString("1"), Value::MakeNumber(1));
  EXPECT_EQ(Value::MakeNumber(0), Value::MakeNumber(-0.0));
  const Value nan = Value::MakeNumber(std::numeric_limits<double>::quiet_NaN());
  EXPECT_NE(nan, nan);
  EXPECT_EQ(
      MustParse(R"({"a": [1, {"b": null}]})"),
      Value::MakeObject(
          {{"a", Value::MakeArray({Value::MakeNumber(1), Value::MakeObject({{"b", Value()}})})}}));
  // Member order is part of the value.
  EXPECT_NE(MustParse(R"({"a": 1, "b": 2})"), MustParse(R"({"b": 2, "a": 1})"));
  EXPECT_NE(MustParse("[1, 2]"), MustParse("[1, 2, 3]"));
}

TEST(AppendQuotedTest, EscapesQuotesBackslashesAndControlCharacters) {
  std::string out = "prefix ";
  AppendQuoted(out, "say \"hi\" C:\\dir");
  EXPECT_EQ(out, R"(prefix "say \"hi\" C:\\dir")");

  std::string controls;
  AppendQuoted(controls, std::string_view("\b\f\n\r\t\x01\x1F\0", 8));
  EXPECT_EQ(controls, R"("\b\f\n\r\t\u0001\u001f\u0000")");

  std::string empty;
  AppendQuoted(empty, "");
  EXPECT_EQ(empty, R"("")");
}

TEST(AppendQuotedTest, PassesOtherAsciiAndUtf8Through) {
  std::string out;
  AppendQuoted(out, "/caf\xC3\xA9 \xF0\x9F\x98\x80 #1 \xE2\x80\x8B");  // é, an emoji, ZWSP
  EXPECT_EQ(out, "\"/caf\xC3\xA9 \xF0\x9F\x98\x80 #1 \xE2\x80\x8B\"");
}

// JSON is printed in CI logs: nothing in a string may reorder the line or
// issue a workflow command there, and a reader still gets the string.
TEST(AppendQuotedTest, EscapesDelC1BidiLineSeparatorsAndCommandMarkers) {
  const std::string text =
      "a\x7F"
      "b\xC2\x85\xC2\x9B"
      "c\u202E"
      "d\u2066\u2069\u200E\u061C"
      "e\u2028\u2029"
      "f##[x]###";
  std::string out;
  AppendQuoted(out, text);
  EXPECT_EQ(out, R"("a\u007fb\u0085\u009bc\u202ed\u2066\u2069\u200e\u061c)"
                 R"(e\u2028\u2029f\u0023#[x]\u0023\u0023#")");
  EXPECT_EQ(StringOf(MustParse(out)), text);
}

TEST(AppendQuotedTest, EveryAsciiByteRoundTripsThroughParse) {
  std::string all_bytes;
  for (int b = 0; b < 128; ++b) all_bytes.push_back(static_cast<char>(b));
  std::string quoted;
  AppendQuoted(quoted, all_bytes);
  for (char c : quoted) EXPECT_GE(static_cast<unsigned char>(c), 0x20);
  EXPECT_EQ(StringOf(MustParse(quoted)), all_bytes);
}

TEST(SerializeTest, CompactOutput) {
  const Value v = MustParse(R"( { "a" : [ 1 , -0, 0.5 , "x\n" ] ,
      "b" : { "c" : null , "d" : true, "e": false } , "f" : NaN , "g" : -Infinity, "h": {}, "i": [] } )");
  EXPECT_EQ(Serialize(v),
            R"({"a":[1,-0,0.5,"x\n"],"b":{"c":null,"d":true,"e":false},"f":NaN,"g":-Infinity,)"
            R"("h":{},"i":[]})");
}

TEST(SerializeTest, Numbers) {
  const auto serialized = [](double d) { return Serialize(Value::MakeNumber(d)); };
  EXPECT_EQ(serialized(0), "0");
  EXPECT_EQ(serialized(-0.0), "-0");
  EXPECT_EQ(serialized(42), "42");
  EXPECT_EQ(serialized(-1565301), "-1565301");
  EXPECT_EQ(serialized(9007199254740992.0), "9007199254740992");
  EXPECT_EQ(serialized(0.1), "0.10000000000000001");
  EXPECT_EQ(serialized(29.600335654297925), "29.600335654297925");
  EXPECT_EQ(serialized(1e20), "1e+20");
  EXPECT_EQ(serialized(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(serialized(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(serialized(std::numeric_limits<double>::quiet_NaN()), "NaN");
}

TEST(AppendQuotedTest, KeepsUtf8AndReplacesEveryOtherByte) {
  std::string out;
  AppendQuoted(out, "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");  // é, €, an emoji
  EXPECT_EQ(out, "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
  std::string bad;
  // A lone continuation byte, a sequence cut short (at the end too), an
  // overlong '/', a surrogate, and a byte never used in UTF-8.
  AppendQuoted(bad, "a\x80" "b\xC3" "c\xC0\xAF\xED\xA0\x80\xFF\xE2\x82");
  EXPECT_EQ(bad,
            "\"a\\ufffdb\\ufffdc\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
  StatusOr<Value> parsed = Parse(bad);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
}

TEST(SerializeTest, NumbersRoundTripExactly) {
  const double values[] = {0.1,
                           0.1 + 0.2,
                           1.0 / 3,
                           -2.0 / 3,
                           1e-7,
                           123.456,
                           9007199254740993.0,
                           1e300,
                           -1e-300,
                           std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::lowest(),
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::epsilon()};
  for (double d : values) {
    const std::string text = Serialize(Value::MakeNumber(d));
    const Value back = MustParse(text);
    EXPECT_EQ(NumberOf(back), d) << text;
  }
}

TEST(SerializeTest, NestedDocumentRoundTrips) {
  const Value doc = Value::MakeObject({
      {"name", Value::MakeString("BM_Quote/\"x\"\\\t\xC3\xA9")},
      {"rows", Value::MakeArray({
                   Value::MakeObject({{"n", Value::MakeNumber(1)},
                                      {"t", Value::MakeNumber(2.9600335654297925e+01)},
                                      {"ok", Value::MakeBool(true)}}),
                   Value::MakeObject({{"n", Value::MakeNumber(-0.0)},
                                      {"t", Value::MakeNumber(1e-310)},
                                      {"none", Value()}}),
                   Value::MakeArray({Value::MakeArray(), Value::MakeObject(),
                                     Value::MakeNumber(-std::numeric_limits<double>::infinity())}),
               })},
      {"dup", Value::MakeNumber(1)},
      {"dup", Value::MakeString("")},
  });
  const std::string text = Serialize(doc);
  const Value back = MustParse(text);
  EXPECT_EQ(back, doc);
  EXPECT_EQ(Serialize(back), text);
  EXPECT_EQ(StringOf(Field(back, "dup")), "");
  EXPECT_EQ(StringOf(Field(back, "name")), "BM_Quote/\"x\"\\\t\xC3\xA9");
}

TEST(SerializeTest, BenchmarkDocumentRoundTripsThroughText) {
  // It holds NaN, so compare the text rather than the values.
  const std::string once = Serialize(MustParse(kBenchmarkJson));
  EXPECT_EQ(Serialize(MustParse(once)), once);
  EXPECT_NE(once.find(R"("allocs/op":NaN)"), std::string::npos);
  EXPECT_NE(once.find(R"("real_time":29.600335654297925,)"), std::string::npos);
}

}  // namespace
}  // namespace benchprof::json
