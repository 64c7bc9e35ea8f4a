// The event parser decodes events straight from the tokens, so it is held
// to an independent statement of the same rules: a small decoder over the
// json::Value of json::Parse, written from docs/trace-format.md. Both must
// agree (same fields, or the same message) on the fixture's events and on
// every single-byte mutation of them, read whole and (some) one byte per
// read.
#include "tools/trace_summary/trace_event_parser.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "common/json_byte_source.h"
#include "common/json_tokenizer.h"
#include "common/json_value.h"

namespace benchprof::trace_summary {
namespace {

struct Decoded {
  bool ok = false;
  std::string message;
  char phase = 0;
  std::string name, category, id, kind, arg_name;
  int64_t pid = 0, tid = 0;
  std::optional<int64_t> ts_ns, dur_ns;
  std::optional<double> busy, count;

  bool operator==(const Decoded&) const = default;
};

Decoded Failed(std::string message) {
  Decoded d;
  d.message = std::move(message);
  return d;
}

// `text`, one JSON value, through the parser: the tokenizer's message if it
// is not JSON (anything after the event included, as json::Parse sees it),
// else the parser's.
Decoded Streamed(std::string_view text, size_t bytes_per_read) {
  json::TokenizerOptions options;
  options.chunk_bytes = bytes_per_read;
  json::Tokenizer tokens(json::TextSource(text, bytes_per_read), options);
  const json::Token first = tokens.Next();
  if (first != json::Token::kBeginObject) {
    if (first != json::Token::kError && tokens.SkipValue() && tokens.Next() == json::Token::kEnd) {
      return Failed("not an object");
    }
    return Failed(tokens.status().message());
  }
  TraceEventParser parser;
  TraceEvent e;
  const Status s = parser.Parse(tokens, e);
  Decoded d{s.ok(),
            s.message(),
            e.phase,
            std::string(e.name),
            std::string(e.category),
            std::string(e.id),
            std::string(e.kind),
            std::string(e.arg_name),
            e.pid,
            e.tid,
            e.ts_ns,
            e.dur_ns,
            e.busy,
            e.count};
  if (tokens.failure() != json::Failure::kNone) return Failed(tokens.status().message());
  if (tokens.Next() != json::Token::kEnd) return Failed(tokens.status().message());
  return s.ok() ? d : Failed(s.message());
}

// The reference: the rules of docs/trace-format.md over a whole document.
class ReferenceDecoder {
 public:
  Decoded Decode(std::string_view text) {
    StatusOr<json::Value> doc = json::Parse(text);
    if (!doc.ok()) return Failed(doc.status().message());
    if (!doc->is_object()) return Failed("not an object");
    bool has_phase = false;
    for (const auto& [key, value] : doc->members()) {
      if (key == "ph" && Expect(key, value, json::Kind::kString, "a string")) {
        d_.phase = value.as_string().size() == 1 ? value.as_string()[0] : 0;
        has_phase = true;
      } else if ((key == "name" || key == "cat") &&
                 Expect(key, value, json::Kind::kString, "a string")) {
        (key == "name" ? d_.name : d_.category) = value.as_string();
      } else if (key == "ts" || key == "dur") {
        Micros(key, value, key == "ts" ? d_.ts_ns : d_.dur_ns);
      } else if (key == "pid" || key == "tid") {
        Integer(key, value, key == "pid" ? d_.pid : d_.tid);
      } else if (key == "id") {
        Id(value);
      } else if (key == "args" && Expect(key, value, json::Kind::kObject, "an object")) {
        for (const auto& [arg, v] : value.members()) Arg(arg, v);
      }
    }
    if (problem_.empty() && !has_phase) problem_ = "event without \"ph\"";
    if (problem_.empty() && d_.phase != 'M' && !d_.ts_ns) problem_ = "event without \"ts\"";
    if (!problem_.empty()) return Failed(problem_);
    d_.ok = true;
    return d_;
  }

 private:
  void Arg(const std::string& key, const json::Value& v) {
    if ((key == "busy" || key == "count") &&
        Expect("args." + key, v, json::Kind::kNumber, "a number")) {
      (key == "busy" ? d_.busy : d_.count) = v.as_number();
    } else if ((key == "kind" || key == "name") &&
               Expect("args." + key, v, json::Kind::kString, "a string")) {
      (key == "kind" ? d_.kind : d_.arg_name) = v.as_string();
    }
  }

  void Id(const json::Value& v) {
    if (v.is_string()) {
      d_.id = v.as_string();
    } else if (v.is_number()) {
      char digits[32];
      d_.id.assign(digits, std::to_chars(digits, digits + sizeof digits, v.as_number()).ptr);
    } else {
      Expect("id", v, json::Kind::kString, "a string or a number");
    }
  }

  void Micros(const std::string& key, const json::Value& v, std::optional<int64_t>& out) {
    if (!Expect(key, v, json::Kind::kNumber, "a number")) return;
    const double ns = v.as_number() * 1000.0;
    if (!std::isfinite(ns) || std::fabs(ns) > 2.3e18)
      return Note("\"" + key + "\" is out of range");
    out = std::llround(ns);
  }

  void Integer(const std::string& key, const json::Value& v, int64_t& out) {
    if (!Expect(key, v, json::Kind::kNumber, "a number")) return;
    const double n = v.as_number();
    if (!std::isfinite(n) || std::fabs(n) > 9.2e18) return Note("\"" + key + "\" is out of range");
    out = std::llround(n);
  }

  bool Expect(const std::string& key, const json::Value& v, json::Kind kind, const char* phrase) {
    if (v.kind() == kind) return true;
    const char* article = v.is_null() ? "" : v.is_array() || v.is_object() ? "an " : "a ";
    Note("\"" + key + "\" is " + article + std::string(json::KindName(v.kind())) + ", expected " +
         phrase);
    return false;
  }

  void Note(std::string problem) {
    if (problem_.empty()) problem_ = std::move(problem);
  }

  Decoded d_;
  std::string problem_;
};

// The events of testdata/trace_pool.json, one per line there.
std::vector<std::string> FixtureEvents() {
  std::ifstream in(std::string(COMPARE_TESTDATA_DIR) + "/trace_pool.json");
  std::vector<std::string> events;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("{\"ph\"", 0) != 0) continue;
    if (line.back() == ',') line.pop_back();
    events.push_back(line);
  }
  return events;
}

TEST(TraceEventParserTest, WriterShapedEvents) {
  const std::vector<std::string> events = FixtureEvents();
  ASSERT_EQ(events.size(), 53u);
  for (const std::string& text : events) {
    const Decoded d = Streamed(text, text.size());
    EXPECT_TRUE(d.ok) << text << ": " << d.message;
    EXPECT_EQ(d, ReferenceDecoder().Decode(text)) << text;
  }
  const Decoded d =
      Streamed(R"( {"ph":"C", "cat":"cpu","name":"CPU w [8]","pid":7,"tid":9,)"
               R"("ts":1.0005e3,"id":31,"args":{"busy":0.25,"kind":"x","other":null}} )",
               1000);
  ASSERT_TRUE(d.ok) << d.message;
  EXPECT_EQ(d.phase, 'C');
  EXPECT_EQ(d.name, "CPU w [8]");
  EXPECT_EQ(d.ts_ns, 1000500);
  EXPECT_EQ(d.id, "31");
  EXPECT_EQ(d.busy, 0.25);
  EXPECT_EQ(d.kind, "x");
}

TEST(TraceEventParserTest, EscapesNestingAndFieldProblems) {
  const Decoded escaped = Streamed(R"({"ph":"B","name":"a\"b\u00e9","ts":1,"cat":"c\n"})", 3);
  ASSERT_TRUE(escaped.ok) << escaped.message;
  EXPECT_EQ(escaped.name, "a\"b\xC3\xA9");
  EXPECT_EQ(escaped.category, "c\n");
  const Decoded nested =
      Streamed(R"({"ph":"B","ts":1,"stack":[1,[2]],"args":{"data":{"x":[]},"name":"n"}})", 5);
  ASSERT_TRUE(nested.ok) << nested.message;
  EXPECT_EQ(nested.arg_name, "n");
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {R"({"ph":"B","ts":1,})", "line 1, column 18: expected a string key"},
      {R"({"ph":"B","ts":"1"})", "\"ts\" is a string, expected a number"},
      {R"({"ph":"B","ts":NaN})", "\"ts\" is out of range"},
      {R"({"ph":"B","ts":1e999})", "line 1, column 16: number out of range"},
      {R"({"ph":"B","ts":1,"args":[]})", "\"args\" is an array, expected an object"},
      {R"({"ph":"B","ts":1,"args":{"busy":null}})", "\"args.busy\" is null, expected a number"},
      {R"({"ph":1,"ts":"x"})", "\"ph\" is a number, expected a string"},
      {R"({"ph":"B","id":true,"ts":1})", "\"id\" is a bool, expected a string or a number"},
      {R"({"ph":"B"})", "event without \"ts\""},
      {R"({"ts":1})", "event without \"ph\""},
      {R"({"ph":"B","ts":1}x)", "line 1, column 18: trailing characters after the JSON value"},
      {"[1]", "not an object"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Streamed(c.text, 1).message, c.message) << c.text;
    EXPECT_EQ(ReferenceDecoder().Decode(c.text).message, c.message) << c.text;
  }
}

TEST(TraceEventParserTest, EverySingleByteMutationDecodesAsTheReference) {
  // Bytes that matter to JSON, plus ordinary and control ones.
  const std::string replacements = std::string("\"\\{}[],:0-+.eE \n\tx") + '\x01' + '\0';
  // The fixture's events, and a few with what the writer does not emit but
  // other producers do: "dur", a numeric id, escapes, nested args.
  std::vector<std::string> events = FixtureEvents();
  events.push_back(
      R"({"ph":"X","name":"r\"x","pid":1,"tid":2,"ts":1.5,"dur":2e3,"args":{"count":4}})");
  events.push_back(
      R"({"ph":"e","id":42,"cat":"t","ts":3,"args":{"kind":"task","deep":[{"a":null}]}})");
  int compared = 0, accepted = 0;
  for (const std::string& event : events) {
    for (size_t i = 0; i < event.size(); ++i) {
      std::vector<std::string> variants = {event.substr(0, i) + event.substr(i + 1)};  // deleted
      for (const char c : replacements) {
        std::string replaced = event;
        replaced[i] = c;
        variants.push_back(replaced);
        variants.push_back(event.substr(0, i) + c + event.substr(i));  // inserted
      }
      for (const std::string& text : variants) {
        const Decoded want = ReferenceDecoder().Decode(text);
        const Decoded whole = Streamed(text, text.size() + 1);
        ASSERT_EQ(whole, want) << "text: " << text << "\nparser: " << whole.message
                               << "\nreference: " << want.message;
        // Reads of one byte cost a call each: at every 8th offset only.
        if (i % 8 == 0) {
          ASSERT_EQ(Streamed(text, 1), want) << "one byte per read: " << text;
        }
        ++compared;
        accepted += want.ok;
      }
    }
  }
  // Most mutations break the event; enough keep it valid that decoded
  // fields were compared too.
  EXPECT_GT(compared, 100000);
  EXPECT_GT(accepted, 10000);
  std::printf("%d texts compared, %d decoded\n", compared, accepted);
}

}  // namespace
}  // namespace benchprof::trace_summary
