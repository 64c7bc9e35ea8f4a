// The event decoder: its in-place scan must decode exactly what json::Parse
// decodes and decline everything else, so the two paths are compared on
// the hand-written fixture's events and on every single-byte mutation of
// them (about 100,000 texts, most of them malformed).
#include "tools/trace_summary/trace_event_decoder.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace benchprof::trace_summary {
namespace {

struct Decoded {
  bool ok;
  std::string message;
  char phase;
  std::string name, category, id, kind, arg_name;
  int64_t pid, tid;
  std::optional<int64_t> ts_ns, dur_ns;
  std::optional<double> busy, count;

  bool operator==(const Decoded&) const = default;
};

Decoded DecodeWith(TraceEventDecoder& decoder, std::string_view text) {
  TraceEvent e;
  const Status s = decoder.Decode(text, e);
  return {s.ok(),
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
}

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

TEST(TraceEventDecoderTest, WriterShapedEventsTakeTheFastPath) {
  TraceEventDecoder decoder;
  const std::vector<std::string> events = FixtureEvents();
  ASSERT_EQ(events.size(), 52u);
  for (const std::string& text : events) {
    const Decoded d = DecodeWith(decoder, text);
    EXPECT_TRUE(d.ok) << text << ": " << d.message;
  }
  EXPECT_EQ(decoder.slow_decodes(), 0u);

  TraceEvent e;
  ASSERT_TRUE(decoder
                  .Decode(R"( {"ph":"C", "cat":"cpu","name":"CPU w [8]","pid":7,"tid":9,)"
                          R"("ts":1.0005e3,"id":31,"args":{"busy":0.25,"kind":"x","other":null}} )",
                          e)
                  .ok());
  EXPECT_EQ(decoder.slow_decodes(), 0u);
  EXPECT_EQ(e.phase, 'C');
  EXPECT_EQ(e.name, "CPU w [8]");
  EXPECT_EQ(e.ts_ns, 1000500);
  EXPECT_EQ(e.id, "31");
  EXPECT_EQ(e.busy, 0.25);
  EXPECT_EQ(e.kind, "x");
}

TEST(TraceEventDecoderTest, OtherShapesTakeTheSlowPathWithTheSameResult) {
  for (const char* text : {
           R"({"ph":"B","name":"a\"b","ts":1})",            // escape
           R"({"ph":"B","ts":1,"stack":[1,2]})",            // array
           R"({"ph":"B","ts":1,"args":{"data":{"x":1}}})",  // nested args
           R"({"ph":"B","ts":NaN})",                        // NaN: a wrong value
           R"({"ph":"B","ts":1e999})",                      // out of range
           R"({"ph":"B","ts":"1"})",                        // wrong type
           R"({"ph":"B"})",                                 // no ts
           R"({"ph":"B","ts":01})",                         // invalid number
           R"({"ph":"B","ts":1,})",                         // trailing comma
           R"({"ph":"B","ts":1}x)",                         // trailing byte
           R"({"ph":"B","ts":1,"args":[]})",                // args not an object
       }) {
    TraceEventDecoder fast;
    TraceEventDecoder slow(false);
    EXPECT_EQ(DecodeWith(fast, text), DecodeWith(slow, text)) << text;
    EXPECT_EQ(fast.slow_decodes(), 1u) << text;
  }
  TraceEventDecoder decoder;
  TraceEvent e;
  ASSERT_TRUE(decoder.Decode(R"({"ph":"B","name":"a\"b\u00e9","ts":1})", e).ok());
  EXPECT_EQ(e.name, "a\"b\xC3\xA9");
  EXPECT_EQ(decoder.Decode(R"({"ph":"B","ts":1,})", e).message(),
            "line 1, column 18: expected a string key");
  EXPECT_EQ(decoder.Decode(R"({"ph":"B","ts":"1"})", e).message(),
            "\"ts\" is a string, expected a number");
  EXPECT_EQ(decoder.Decode(R"({"ph":"B","ts":1,"args":[]})", e).message(),
            "\"args\" is an array, expected an object");
  EXPECT_EQ(decoder.Decode(R"({"ph":"B","ts":1,"args":{"busy":null}})", e).message(),
            "\"args.busy\" is null, expected a number");
  EXPECT_EQ(decoder.Decode("[1]", e).message(), "line 1, column 1: expected an event object");
}

TEST(TraceEventDecoderTest, EverySingleByteMutationDecodesAlikeOnBothPaths) {
  // Bytes that matter to JSON, plus ordinary and control ones.
  const std::string replacements = std::string("\"\\{}[],:0-+.eE \n\tx") + '\x01' + '\0';
  TraceEventDecoder fast;
  TraceEventDecoder slow(false);
  int compared = 0, accepted = 0;
  for (const std::string& event : FixtureEvents()) {
    for (size_t i = 0; i < event.size(); ++i) {
      std::vector<std::string> variants = {event.substr(0, i) + event.substr(i + 1)};  // deleted
      for (const char c : replacements) {
        std::string replaced = event;
        replaced[i] = c;
        variants.push_back(replaced);
        variants.push_back(event.substr(0, i) + c + event.substr(i));  // inserted
      }
      for (const std::string& text : variants) {
        const Decoded a = DecodeWith(fast, text);
        const Decoded b = DecodeWith(slow, text);
        ASSERT_EQ(a, b) << "text: " << text << "\nfast: " << a.message << "\nslow: " << b.message;
        ++compared;
        accepted += a.ok;
      }
    }
  }
  // Most mutations break the event; enough of them keep it valid that the
  // fast path's acceptances were compared too.
  EXPECT_GT(compared, 100000);
  EXPECT_GT(accepted, 10000);
  std::printf("%d texts compared, %d decoded\n", compared, accepted);
}

}  // namespace
}  // namespace benchprof::trace_summary
