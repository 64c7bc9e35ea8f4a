// The JSON tokenizer: token sequences, every problem it reports with its
// kind and position, that where the reads end never matters (each document
// fed one to nine bytes per read, and split at every offset, gives the same
// tokens, positions and errors), that the SSE2 and scalar byte scans agree,
// and the limits: nesting, number range, surrogates, buffered bytes.
// json_value_test holds json::Parse, which is this tokenizer, to the
// documented messages; this file holds the streaming.
#include "common/json_tokenizer.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "common/json_byte_scan.h"
#include "common/json_byte_source.h"
#include "common/json_document.h"
#include "support/subprocess.h"

namespace benchprof::json {
namespace {

using std::string_literals::operator""s;

const char* TokenName(Token t) {
  static const char* const kNames[] = {"{",      "}",    "[",     "]",    "key", "string",
                                       "number", "true", "false", "null", "end", "error"};
  return kNames[static_cast<int>(t)];
}

const char* FailureName(Failure f) {
  static const char* const kNames[] = {"none",  "syntax",    "nul",   "truncated",
                                       "empty", "too large", "source"};
  return kNames[static_cast<int>(f)];
}

// Every token with its position and contents, then the end or the error
// with its kind and position: what must not depend on how the input is read.
std::string Describe(Tokenizer& t) {
  std::string out;
  for (;;) {
    const Token tok = t.Next();
    out += std::string(TokenName(tok)) + "@" + std::to_string(t.line()) + ":" +
           std::to_string(t.column()) + "/" + std::to_string(t.offset());
    if (tok == Token::kKey || tok == Token::kString) {
      out += "(" + std::string(t.string()) + (t.escaped() ? ")e" : ")");
    } else if (tok == Token::kNumber) {
      char digits[32];
      out += "(" + std::string(digits, std::to_chars(digits, digits + 32, t.number()).ptr) + ")";
    }
    out += " ";
    if (tok == Token::kEnd) return out;
    if (tok == Token::kError) {
      return out + FailureName(t.failure()) + " " + t.status().message() + " [" +
             std::to_string(t.error_line()) + ":" + std::to_string(t.error_column()) + "/" +
             std::to_string(t.error_offset()) + " " + std::string(t.problem()) + "]";
    }
  }
}

std::string DescribeText(std::string_view text) {
  Tokenizer t(text);
  return Describe(t);
}

// The same, reading at most `bytes_per_read` at a time.
std::string DescribeChunked(std::string_view text, size_t bytes_per_read) {
  TokenizerOptions options;
  options.chunk_bytes = bytes_per_read;
  Tokenizer t(TextSource(text, bytes_per_read), options);
  return Describe(t);
}

// The first read ends at `split`, the second at the end.
std::string DescribeSplit(std::string_view text, size_t split) {
  ByteSource source = [text, split, at = size_t{0}](char* dst, size_t capacity) mutable {
    const size_t segment_end = at < split ? split : text.size();
    const size_t n = std::min(capacity, segment_end - at);
    std::memcpy(dst, text.data() + at, n);
    at += n;
    return StatusOr<size_t>(n);
  };
  TokenizerOptions options;
  options.chunk_bytes = text.size() + 1;
  Tokenizer t(std::move(source), options);
  return Describe(t);
}

TEST(JsonTokenizerTest, TokenSequence) {
  EXPECT_EQ(DescribeText(" {\"a\": [1, -2.5e1, \"x\\ty\", true, false, null],\n \"b\": {}} "),
            "{@1:2/1 key@1:3/2(a) [@1:8/7 number@1:9/8(1) number@1:12/11(-25) "
            "string@1:20/19(x\ty)e true@1:28/27 false@1:34/33 null@1:41/40 ]@1:45/44 "
            "key@2:2/48(b) {@2:7/53 }@2:8/54 }@2:9/55 end@2:11/57 ");
  EXPECT_EQ(DescribeText("[NaN,Infinity,-Infinity,-0]"),
            "[@1:1/0 number@1:2/1(nan) number@1:6/5(inf) number@1:15/14(-inf) "
            "number@1:25/24(-0) ]@1:27/26 end@1:28/27 ");
  EXPECT_EQ(DescribeText("\"only\""), "string@1:1/0(only) end@1:7/6 ");
}

// Every problem, with its kind and where it is reported.
TEST(JsonTokenizerTest, EveryProblemWithItsKindAndPosition) {
  const struct {
    std::string text;
    std::string error;  // the tail of Describe()
  } cases[] = {
      {"", "empty line 1, column 1: empty input [1:1/0 empty input]"},
      {" \n ", "empty line 1, column 1: empty input [1:1/0 empty input]"},
      {"[1,\n",
       "truncated line 2, column 1: unexpected end of input (truncated?) "
       "[2:1/4 unexpected end of input (truncated?)]"},
      {"[1] x",
       "syntax line 1, column 5: trailing characters after the JSON value "
       "[1:5/4 trailing characters after the JSON value]"},
      {"[,", "syntax line 1, column 2: expected a value [1:2/1 expected a value]"},
      {"nul!", "syntax line 1, column 1: invalid literal [1:1/0 invalid literal]"},
      {"[01]", "syntax line 1, column 2: invalid number [1:2/1 invalid number]"},
      {"[1e400]", "syntax line 1, column 2: number out of range [1:2/1 number out of range]"},
      {"\"a\\qb\"", "syntax line 1, column 3: invalid escape [1:3/2 invalid escape]"},
      {"\"\\uDC00\"",
       "syntax line 1, column 2: invalid escape (lone surrogate) "
       "[1:2/1 invalid escape (lone surrogate)]"},
      {"\"a\x01\"",
       "syntax line 1, column 3: control character in string "
       "[1:3/2 control character in string]"},
      {"[1,\0]"s, "nul line 1, column 4: NUL byte in input [1:4/3 NUL byte in input]"},
      {"{1:2}", "syntax line 1, column 2: expected a string key [1:2/1 expected a string key]"},
      {"{\"a\" 1}",
       "syntax line 1, column 6: expected ':' after an object key "
       "[1:6/5 expected ':' after an object key]"},
      {"{\"a\":1 2}",
       "syntax line 1, column 8: expected ',' or '}' after an object member "
       "[1:8/7 expected ',' or '}' after an object member]"},
      {"[1 2]",
       "syntax line 1, column 4: expected ',' or ']' after an array element "
       "[1:4/3 expected ',' or ']' after an array element]"},
      {std::string(300, '['),
       "syntax line 1, column 257: nesting deeper than 256 "
       "[1:257/256 nesting deeper than 256]"},
  };
  for (const auto& c : cases) {
    const std::string d = DescribeText(c.text);
    const size_t error = d.find("error@");
    ASSERT_NE(error, std::string::npos) << c.text;
    EXPECT_EQ(d.substr(d.find(' ', error) + 1), c.error) << c.text;
    for (size_t k = 1; k <= 9; ++k)
      EXPECT_EQ(DescribeChunked(c.text, k), d) << c.text << " / " << k;
  }
}

// Documents with every construct, and every kind of error in them.
std::vector<std::string> Documents() {
  return {
      "{\"context\": {\"num_cpus\": 2, \"load_avg\": [1.00586, 0.360352]},\n"
      "  \"benchmarks\": [{\"name\": \"BM_A/8\", \"real_time\": 2.9600335654297925e+01,\n"
      "    \"B/op\": NaN, \"x\": -Infinity, \"ok\": true, \"no\": false, \"n\": null}]}\n",
      "{\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\\u0000 \xC3\xA9\"," +
          std::string(40, ' ') + "\"long\":\"" + std::string(100, 'x') + "\", \"k\\u0041\": 1}",
      "[123456789012345678901234567890, 0.1e-5, 1E+22, -0, 0, 1e23, \"\", [], {}, [[{}]]]",
      "[1, 2\r\n 3]",
      "{\"a\": [1, {\"b\": 1.}]}",
      "[\"abc\\uD800x\"]",
      "[1, \"a\0b\"]"s,
      "{\"a\":\n\n tru",
      "[\"" + std::string(50, 'y'),
  };
}

TEST(JsonTokenizerTest, BytesPerReadNeverMatter) {
  for (const std::string& doc : Documents()) {
    const std::string whole = DescribeText(doc);
    for (size_t k = 1; k <= 9; ++k) {
      EXPECT_EQ(DescribeChunked(doc, k), whole) << doc << "\n" << k << " bytes per read";
    }
  }
}

TEST(JsonTokenizerTest, ASplitAtEveryOffsetChangesNothing) {
  for (const std::string& doc : Documents()) {
    const std::string whole = DescribeText(doc);
    for (size_t split = 0; split <= doc.size(); ++split) {
      EXPECT_EQ(DescribeSplit(doc, split), whole) << doc << "\nsplit at " << split;
    }
  }
}

// Random edits of valid documents, read whole and in pieces of 1, 2, 3, 5
// and 9 bytes: the same tokens and the same error, whatever the edit.
TEST(JsonTokenizerTest, MutatedDocumentsReadAlikeInEveryChunking) {
  const std::vector<std::string> seeds = Documents();
  const std::string alphabet = "{}[]:,\"\\ \n\t0123456789.eE+-aetrunlfsINy\x01\x7f\xc3\0"s;
  std::mt19937 rng(20251125);
  for (int round = 0; round < 20000; ++round) {
    std::string s = seeds[rng() % 4];
    for (int e = 0, edits = 1 + static_cast<int>(rng() % 3); e < edits; ++e) {
      const size_t at = rng() % (s.size() + 1);
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        case 1:
          if (at < s.size()) s.erase(at, 1);
          break;
        default:
          if (at < s.size()) s[at] = c;
          break;
      }
    }
    const std::string whole = DescribeText(s);
    for (const size_t k : {1, 2, 3, 5, 9}) {
      ASSERT_EQ(DescribeChunked(s, k), whole) << s << "\n" << k << " bytes per read";
    }
    // The document builder agrees with the tokens: a value exactly when
    // they end with kEnd.
    EXPECT_EQ(Parse(s).ok(), whole.find("error@") == std::string::npos) << s;
  }
}

// A buffer holding `text`, the sentinel and the padding the scans may read.
std::vector<char> Padded(std::string_view text) {
  std::vector<char> buffer(text.begin(), text.end());
  buffer.resize(text.size() + 64, '\0');
  return buffer;
}

TEST(JsonByteScanTest, Sse2AndScalarStringScansAgree) {
  std::vector<char> specials = {'"', '\\', '\x7f', '\x80', '\xff', 'a'};
  for (int c = 0; c < 0x20; ++c) specials.push_back(static_cast<char>(c));
  for (size_t length = 0; length <= 64; ++length) {
    for (size_t at = 0; at < length; ++at) {
      for (const char special : specials) {
        std::string text(length, 'x');
        text[at] = special;
        const std::vector<char> buffer = Padded(text);
        const bool stops =
            special == '"' || special == '\\' || static_cast<unsigned char>(special) < 0x20;
        const char* expected = buffer.data() + (stops ? at : length);
        ASSERT_EQ(FindStringStopScalar(buffer.data()), expected) << length << " " << at;
#if defined(__SSE2__)
        ASSERT_EQ(FindStringStopSse2(buffer.data()), expected) << length << " " << at;
#endif
        ASSERT_EQ(FindStringStop(buffer.data()), expected);
      }
    }
  }
  if (!kHaveSse2Scans) GTEST_SKIP() << "no SSE2 on this target: only the scalar scan was checked";
}

TEST(JsonByteScanTest, Sse2AndScalarSpaceScansAgree) {
  for (size_t spaces = 0; spaces <= 64; ++spaces) {
    for (const char after : {'\0', '\n', '\t', 'x', '"', '\x80'}) {
      const std::vector<char> buffer = Padded(std::string(spaces, ' ') + after);
      ASSERT_EQ(SkipSpacesScalar(buffer.data()), buffer.data() + spaces);
#if defined(__SSE2__)
      ASSERT_EQ(SkipSpacesSse2(buffer.data()), buffer.data() + spaces);
#endif
      ASSERT_EQ(SkipSpaces(buffer.data()), buffer.data() + spaces);
    }
  }
  if (!kHaveSse2Scans) GTEST_SKIP() << "no SSE2 on this target: only the scalar scan was checked";
}

TEST(JsonTokenizerTest, NumbersAreCorrectlyRounded) {
  // Random numbers of every shape, against std::from_chars: the one-pass
  // fast path, the exact power-of-ten path and the fallback must all give
  // the correctly rounded double.
  std::mt19937_64 rng(7);
  const auto digits = [&rng](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s.push_back(static_cast<char>('0' + rng() % 10));
    return s;
  };
  for (int i = 0; i < 200000; ++i) {
    std::string text = rng() % 2 ? "-" : "";
    const std::string integer = digits(1 + static_cast<int>(rng() % 20));
    text += integer.size() > 1 && integer[0] == '0' ? "1" + integer.substr(1) : integer;
    if (rng() % 2) text += "." + digits(1 + static_cast<int>(rng() % 20));
    if (rng() % 3 == 0)
      text += "e" + std::string(rng() % 2 ? "-" : "") + std::to_string(rng() % 330);
    double want = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), want);
    // Alone, the number ends the input and takes the slow path; in an array
    // a byte follows it inside the buffer, and it takes the one-pass path.
    for (const std::string& document : {text, "[" + text + "]"}) {
      Tokenizer t(document);
      if (document[0] == '[') {
        ASSERT_EQ(t.Next(), Token::kBeginArray);
      }
      const Token tok = t.Next();
      if (r.ec == std::errc::result_out_of_range) {
        EXPECT_EQ(t.problem(), "number out of range") << document;
        continue;
      }
      ASSERT_EQ(tok, Token::kNumber) << document << ": " << t.status().message();
      ASSERT_EQ(t.number(), want) << document;
      ASSERT_EQ(std::signbit(t.number()), std::signbit(want)) << document;
    }
  }
}

TEST(JsonTokenizerTest, GoogleBenchmarkNumbersWithTrailingZerosAreCorrectlyRounded) {
  // Google Benchmark's form, 17 significant digits ("3.7000000000000000e+01"),
  // with the last 0 to 15 digits zeros: the trailing zeros are dropped before
  // the exact power-of-ten path, whose answer must still be from_chars'.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  for (int i = 0; i < 200000; ++i) {
    char text[64];
    const int exponent = static_cast<int>(rng() % 61) - 30;
    std::snprintf(text, sizeof text, "%.16e", mantissa(rng) * std::pow(10.0, exponent));
    std::string number = text;
    const size_t e = number.find('e');
    const size_t zeros = rng() % 17;
    for (size_t k = 0; k < zeros; ++k) number[e - 1 - k] = '0';
    double want = 0;
    const auto r = std::from_chars(number.data(), number.data() + number.size(), want);
    ASSERT_EQ(r.ec, std::errc()) << number;
    for (const std::string& document : {number, "[" + number + "]"}) {  // both paths
      Tokenizer t(document);
      if (document[0] == '[') {
        ASSERT_EQ(t.Next(), Token::kBeginArray);
      }
      ASSERT_EQ(t.Next(), Token::kNumber) << document << ": " << t.status().message();
      ASSERT_EQ(t.number(), want) << document;
    }
  }
}

TEST(JsonTokenizerTest, LoneSurrogatesAndNaNInfinity) {
  EXPECT_EQ(DescribeText(R"("\uD83D\uDE00")"), "string@1:1/0(\xF0\x9F\x98\x80)e end@1:15/14 ");
  for (const char* lone : {R"("\uD800")", R"("\uDFFF")", R"("\uD800\u0041")", R"("\uD800\\")"}) {
    Tokenizer t(lone);
    EXPECT_EQ(t.Next(), Token::kError) << lone;
    EXPECT_EQ(t.problem(), "invalid escape (lone surrogate)") << lone;
    EXPECT_EQ(t.error_column(), 2u) << lone;
  }
  EXPECT_EQ(DescribeText("[NaN, -Infinity]"),
            "[@1:1/0 number@1:2/1(nan) number@1:7/6(-inf) ]@1:16/15 end@1:17/16 ");
  for (const char* bad : {"nan", "-NaN", "+Infinity", "Inf", "-Inf"}) {
    Tokenizer t(bad);
    EXPECT_EQ(t.Next(), Token::kError) << bad;
  }
}

TEST(JsonTokenizerTest, HeldStringsSurviveRefills) {
  const std::string text =
      "[{\"name\":\"" + std::string(100, 'n') + "\",\"e\":\"a\\tb\",\"cat\":\"c\"}]";
  TokenizerOptions options;
  options.chunk_bytes = 3;
  Tokenizer t(TextSource(text, 3), options);
  ASSERT_EQ(t.Next(), Token::kBeginArray);
  ASSERT_EQ(t.Next(), Token::kBeginObject);
  t.Hold();
  std::vector<Tokenizer::HeldSpan> spans;
  std::string escaped;
  for (Token tok = t.Next(); tok != Token::kEndObject; tok = t.Next()) {
    ASSERT_EQ(tok, Token::kKey);
    ASSERT_EQ(t.Next(), Token::kString);
    if (t.escaped()) {
      escaped = t.string();  // views scratch, not the held input
    } else {
      spans.push_back(t.held_string());
    }
  }
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(t.held(spans[0]), std::string(100, 'n'));
  EXPECT_EQ(t.held(spans[1]), "c");
  EXPECT_EQ(escaped, "a\tb");
  t.Release();
  EXPECT_EQ(t.Next(), Token::kEndArray);
  EXPECT_EQ(t.Next(), Token::kEnd);
}

TEST(JsonTokenizerTest, BufferedBytesAreBounded) {
  TokenizerOptions options;
  options.chunk_bytes = 1000;
  options.max_buffered_bytes = size_t{1} << 20;
  // One string token longer than the bound.
  const std::string big = "[\"" + std::string(3 << 20, 'x') + "\"]";
  Tokenizer one(TextSource(big), options);
  EXPECT_EQ(one.Next(), Token::kBeginArray);
  EXPECT_EQ(one.Next(), Token::kError);
  EXPECT_EQ(one.failure(), Failure::kTooLarge);
  EXPECT_EQ(one.status().message(),
            "line 1, column 2: more than 1 MiB to buffer for one value (a string without its "
            "closing quote?)");
  // A held span of many small tokens, and the same without holding.
  std::string many = "[";
  for (int i = 0; i < 1000000; ++i) many += "1,";
  many += "1]";
  Tokenizer held(TextSource(many), options);
  ASSERT_EQ(held.Next(), Token::kBeginArray);
  held.Hold();
  EXPECT_FALSE(held.SkipValue());
  EXPECT_EQ(held.failure(), Failure::kTooLarge);
  Tokenizer streamed(TextSource(many), options);
  ASSERT_EQ(streamed.Next(), Token::kBeginArray);
  EXPECT_TRUE(streamed.SkipValue());
  EXPECT_EQ(streamed.Next(), Token::kEnd);
  EXPECT_EQ(streamed.bytes_read(), many.size());
}

TEST(JsonTokenizerTest, SkipValueAndTrailingComma) {
  Tokenizer t(R"({"a": [1, {"b": [[]]}], "c": 2, "d": [3,], "e": [[4,],]})");
  ASSERT_EQ(t.Next(), Token::kBeginObject);
  ASSERT_EQ(t.Next(), Token::kKey);
  ASSERT_EQ(t.Next(), Token::kBeginArray);
  EXPECT_TRUE(t.SkipValue());
  EXPECT_EQ(t.depth(), 1);
  ASSERT_EQ(t.Next(), Token::kKey);
  EXPECT_EQ(t.string(), "c");
  ASSERT_EQ(t.Next(), Token::kNumber);
  EXPECT_TRUE(t.SkipValue());  // a scalar: nothing to skip
  ASSERT_EQ(t.Next(), Token::kKey);
  ASSERT_EQ(t.Next(), Token::kBeginArray);
  t.AllowTrailingComma();
  EXPECT_EQ(t.Next(), Token::kNumber);
  EXPECT_EQ(t.Next(), Token::kEndArray);
  ASSERT_EQ(t.Next(), Token::kKey);
  ASSERT_EQ(t.Next(), Token::kBeginArray);
  t.AllowTrailingComma();  // the outer array only
  ASSERT_EQ(t.Next(), Token::kBeginArray);
  EXPECT_EQ(t.Next(), Token::kNumber);
  EXPECT_EQ(t.Next(), Token::kError);
  EXPECT_EQ(t.status().message(), "line 1, column 53: expected a value");
  EXPECT_EQ(t.Next(), Token::kError);  // and stays failed
}

TEST(JsonTokenizerTest, ByteOrderMarkOnlyWhenAsked) {
  TokenizerOptions options;
  options.skip_bom = true;
  const std::string text = "\xEF\xBB\xBF {\"a\" 1}";
  for (const size_t k : {1, 2, 100}) {
    options.chunk_bytes = k;
    Tokenizer t(TextSource(text, k), options);
    ASSERT_EQ(t.Next(), Token::kBeginObject) << k;
    EXPECT_EQ(t.column(), 5u);  // the mark's bytes still count
    ASSERT_EQ(t.Next(), Token::kKey);
    EXPECT_EQ(t.Next(), Token::kError);
    EXPECT_EQ(t.status().message(), "line 1, column 10: expected ':' after an object key");
  }
  EXPECT_EQ(Parse(text).status().message(), "line 1, column 1: expected a value");
  Tokenizer only(TextSource("\xEF\xBB\xBF"), options);
  EXPECT_EQ(only.Next(), Token::kError);
  EXPECT_EQ(only.failure(), Failure::kEmpty);
}

TEST(JsonTokenizerTest, TruncationInsideATokenOrBetweenTwo) {
  Tokenizer inside("[1, \"ab");
  ASSERT_EQ(inside.Next(), Token::kBeginArray);
  ASSERT_EQ(inside.Next(), Token::kNumber);
  EXPECT_EQ(inside.Next(), Token::kError);
  EXPECT_TRUE(inside.truncated());
  EXPECT_EQ(inside.offset(), 4u);  // where the cut token starts
  EXPECT_EQ(inside.bytes_read(), 7u);
  EXPECT_EQ(inside.error_column(), 8u);  // truncation is reported at the end
  Tokenizer between("[1, ");
  ASSERT_EQ(between.Next(), Token::kBeginArray);
  ASSERT_EQ(between.Next(), Token::kNumber);
  EXPECT_EQ(between.Next(), Token::kError);
  EXPECT_TRUE(between.truncated());
  EXPECT_EQ(between.offset(), between.bytes_read());
}

TEST(JsonTokenizerTest, SourceErrorsAreReportedAsTheyAre) {
  ByteSource failing = [calls = 0](char* dst, size_t) mutable -> StatusOr<size_t> {
    if (calls++ > 0) return Status::Error("cannot read: Input/output error");
    std::memcpy(dst, "[1, 2", 5);
    return size_t{5};
  };
  Tokenizer t(std::move(failing));
  ASSERT_EQ(t.Next(), Token::kBeginArray);
  ASSERT_EQ(t.Next(), Token::kNumber);
  EXPECT_EQ(t.Next(), Token::kError);  // the read fails inside "2"
  EXPECT_EQ(t.failure(), Failure::kSource);
  EXPECT_EQ(t.status().message(), "cannot read: Input/output error");
}

}  // namespace
}  // namespace benchprof::json
