// The streaming trace reader: what it decodes, that chunk boundaries do not
// matter (every chunk size from 1 byte on gives the same events and line
// numbers), that any prefix of a trace is either summarized as truncated or
// rejected with one line, the messages for malformed files, and the bound
// on what "otherData" keeps.
#include "tools/trace_summary/trace_file_reader.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "support/subprocess.h"

namespace benchprof::trace_summary {
namespace {

// What a test keeps of an event (the views die with the callback).
struct Seen {
  char phase;
  std::string name, category, id, kind, arg_name;
  int64_t pid, tid;
  std::optional<int64_t> ts_ns, dur_ns;
  std::optional<double> busy, count;
  uint64_t line;

  bool operator==(const Seen&) const = default;
};

struct Result {
  StatusOr<TraceFileInfo> info = Status::Error("not run");
  std::vector<Seen> events;
};

Result Read(std::string_view text, size_t chunk = kDefaultTraceChunkBytes) {
  Result r;
  TraceReadOptions options;
  options.chunk_bytes = chunk;
  r.info = ReadTraceText(
      text, "t.json",
      [&r](const TraceEvent& e) {
        r.events.push_back({e.phase, std::string(e.name), std::string(e.category),
                            std::string(e.id), std::string(e.kind), std::string(e.arg_name), e.pid,
                            e.tid, e.ts_ns, e.dur_ns, e.busy, e.count, e.line});
      },
      options);
  return r;
}

std::string ErrorOf(std::string_view text, size_t chunk = kDefaultTraceChunkBytes) {
  const Result r = Read(text, chunk);
  // Where the reads end must not matter: one byte at a time says the same.
  const Result bytewise = Read(text, 1);
  EXPECT_EQ(r.info.ok(), bytewise.info.ok()) << text.substr(0, 200);
  if (!r.info.ok() && !bytewise.info.ok()) {
    EXPECT_EQ(r.info.status().message(), bytewise.info.status().message()) << text.substr(0, 200);
  }
  return r.info.ok() ? "(no error)" : r.info.status().message();
}

// Strings with brackets, quotes, escapes and a multi-byte character, an
// unknown member with nested containers before the events, otherData
// first, events spread over several lines.
const char kTrace[] =
    "{\"otherData\":{\"producer\":\"benchprof 0.1.0\",\"dropped_events\":2},\n"
    " \"metadata\":{\"nested\":[{\"a\":\"]}\"},[[]]],\"s\":\"\\\"{\"},\n"
    " \"traceEvents\":[\n"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":8,\"args\":{\"name\":\"w\\u00e9 "
    "]}\"}},\n"
    "{\"ph\":\"B\",\"cat\":\"region\",\"name\":\"a \\\"quoted\\\" }{ "
    "name\\\\\",\"pid\":7,\"tid\":8,"
    "\"ts\":12345.678,\"args\":{\"task\":3}},\n"
    "  {\"ph\":\"E\",\"pid\":7,\"tid\":8,\n"
    "   \"ts\":12346.0004},\n"
    "{\"ph\":\"b\",\"cat\":\"task\",\"name\":\"doc\",\"id\":\"0x1f\",\"pid\":7,\"tid\":8,\"ts\":0."
    "001,"
    "\"args\":{\"kind\":\"task\",\"parent\":\"0x0\"}},\n"
    "{\"ph\":\"e\",\"cat\":\"task\",\"name\":\"doc\",\"id\":31,\"pid\":7,\"tid\":8,\"ts\":2,"
    "\"args\":{\"kind\":\"region\"}},\n"
    "{\"ph\":\"C\",\"cat\":\"cpu\",\"name\":\"CPU w [8]\",\"pid\":7,\"tid\":9,\"ts\":1e3,"
    "\"args\":{\"busy\":0.25}},\n"
    "{\"ph\":\"X\",\"name\":\"x\",\"pid\":7,\"tid\":8,\"ts\":3,\"dur\":1.5,\"args\":{\"count\":4}}"
    "\n"
    "],\n"
    "\"displayTimeUnit\":\"ns\"}\n";

TEST(TraceEventReaderTest, DecodesEventsAndOtherData) {
  const Result r = Read(kTrace);
  ASSERT_TRUE(r.info.ok()) << r.info.status().message();
  EXPECT_EQ(r.info->layout, TraceLayout::kObject);
  EXPECT_EQ(r.info->events, 7u);
  EXPECT_FALSE(r.info->truncated);
  EXPECT_EQ(r.info->bytes, sizeof kTrace - 1);
  ASSERT_TRUE(r.info->other_data.is_object());
  EXPECT_EQ(r.info->other_data.Find("dropped_events")->as_number(), 2);
  ASSERT_EQ(r.events.size(), 7u);

  const Seen& m = r.events[0];
  EXPECT_EQ(m.phase, 'M');
  EXPECT_EQ(m.arg_name, "w\xC3\xA9 ]}");
  EXPECT_FALSE(m.ts_ns.has_value());
  EXPECT_EQ(m.line, 4u);

  const Seen& b = r.events[1];
  EXPECT_EQ(b.phase, 'B');
  EXPECT_EQ(b.name, "a \"quoted\" }{ name\\");
  EXPECT_EQ(b.category, "region");
  EXPECT_EQ(b.pid, 7);
  EXPECT_EQ(b.tid, 8);
  EXPECT_EQ(b.ts_ns, 12345678);  // microseconds with three decimals, exactly
  EXPECT_EQ(b.line, 5u);

  EXPECT_EQ(r.events[2].ts_ns, 12346000);  // 0.4 ns rounds away
  EXPECT_EQ(r.events[2].line, 6u);         // where the event starts

  EXPECT_EQ(r.events[3].id, "0x1f");
  EXPECT_EQ(r.events[3].kind, "task");
  EXPECT_EQ(r.events[3].ts_ns, 1);
  EXPECT_EQ(r.events[4].id, "31");  // a numeric id, as digits
  EXPECT_EQ(r.events[4].kind, "region");
  EXPECT_EQ(r.events[5].busy, 0.25);
  EXPECT_EQ(r.events[5].ts_ns, 1000000);
  EXPECT_EQ(r.events[6].dur_ns, 1500);
  EXPECT_EQ(r.events[6].count, 4);
}

TEST(TraceEventReaderTest, ChunkBoundariesDoNotMatter) {
  const Result whole = Read(kTrace);
  ASSERT_TRUE(whole.info.ok());
  for (size_t chunk = 1; chunk <= 97; chunk += chunk < 8 ? 1 : 13) {
    const Result r = Read(kTrace, chunk);
    ASSERT_TRUE(r.info.ok()) << "chunk " << chunk << ": " << r.info.status().message();
    EXPECT_EQ(r.events, whole.events) << "chunk " << chunk;
    EXPECT_EQ(r.info->bytes, whole.info->bytes);
    EXPECT_TRUE(r.info->other_data == whole.info->other_data);
  }
  // Errors point at the same place too.
  const std::string bad =
      std::string(kTrace).replace(std::string(kTrace).find("\"ts\":2,"), 7, "\"ts\":2 ");
  const std::string expected = ErrorOf(bad);
  EXPECT_EQ(expected, "t.json: line 9, column 68: expected ',' or '}' after an object member");
  for (size_t chunk = 1; chunk <= 9; ++chunk) EXPECT_EQ(ErrorOf(bad, chunk), expected);
}

TEST(TraceEventReaderTest, ArrayFormatWithOrWithoutItsClosingBracket) {
  const std::string events =
      "[{\"ph\":\"B\",\"ts\":1,\"tid\":1},\n{\"ph\":\"E\",\"ts\":2,\"tid\":1}";
  for (const std::string& text :
       {events + "]", events + "]\n", events + ",\n]", events, events + ",", events + ",\n"}) {
    const Result r = Read(text);
    ASSERT_TRUE(r.info.ok()) << text << ": " << r.info.status().message();
    EXPECT_EQ(r.info->layout, TraceLayout::kArray);
    EXPECT_EQ(r.events.size(), 2u) << text;
    EXPECT_FALSE(r.info->truncated) << text;  // Chrome's streaming convention
  }
  // Cut inside the last event: the first one is summarized, with a warning.
  const Result cut = Read(events.substr(0, events.size() - 3));
  ASSERT_TRUE(cut.info.ok());
  EXPECT_EQ(cut.events.size(), 1u);
  EXPECT_TRUE(cut.info->truncated);
  EXPECT_EQ(cut.info->truncation, "line 2: the file ends inside an event");
  EXPECT_TRUE(Read("[]").info.ok());
}

TEST(TraceEventReaderTest, EveryPrefixIsTruncatedOrOneLineError) {
  // A prefix that holds k complete events yields exactly those k (when k > 0)
  // and says it is truncated; the whole file is not.
  const std::string text = kTrace;
  // In kTrace every event, and nothing else in the array, ends with a '}'
  // followed by ",\n" or "\n]".
  std::vector<size_t> event_ends;  // offset just past each event's '}'
  for (size_t i = text.find("\"traceEvents\""); i + 2 < text.size(); ++i) {
    const std::string_view next = std::string_view(text).substr(i + 1, 2);
    if (text[i] == '}' && (next == ",\n" || next == "\n]")) event_ends.push_back(i + 1);
  }
  ASSERT_EQ(event_ends.size(), 7u);
  // Every prefix that lacks the final '}' (beyond it is whitespace).
  for (size_t n = 0; n <= text.rfind('}'); ++n) {
    const std::string prefix = text.substr(0, n);
    const Result r = Read(prefix, 16);
    size_t complete = 0;
    while (complete < event_ends.size() && event_ends[complete] <= n) ++complete;
    if (!r.info.ok()) {
      const std::string& m = r.info.status().message();
      EXPECT_EQ(m.find('\n'), std::string::npos);
      EXPECT_EQ(m.rfind("t.json: ", 0), 0u) << m;
      EXPECT_EQ(complete, 0u) << "prefix of " << n << " bytes: " << m;
      continue;
    }
    EXPECT_TRUE(r.info->truncated) << "prefix of " << n << " bytes";
    EXPECT_EQ(r.events.size(), complete) << "prefix of " << n << " bytes";
  }
  const Result whole = Read(text);
  ASSERT_TRUE(whole.info.ok());
  EXPECT_FALSE(whole.info->truncated);

  EXPECT_EQ(ErrorOf("{\"traceEvents\":[{\"ph\":\"B\""),
            "t.json: line 1: the file ends inside an event before any complete event");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[\n"),
            "t.json: line 2: the file ends inside the \"traceEvents\" array before any complete "
            "event");
  EXPECT_EQ(ErrorOf("{\"otherData\":{}"),
            "t.json: line 1: the file ends before the \"traceEvents\" array (truncated?)");
  const Result after_events = Read("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1}],\"otherDa");
  ASSERT_TRUE(after_events.info.ok());
  EXPECT_TRUE(after_events.info->truncated);
  EXPECT_EQ(after_events.info->truncation,
            "line 1: the file ends after the events, inside the top-level object");
}

TEST(TraceEventReaderTest, MalformedFilesGetOneLineNamingTheProblem) {
  EXPECT_EQ(ErrorOf(""), "t.json: empty file");
  EXPECT_EQ(ErrorOf(" \n\t "), "t.json: empty file");
  // Compressed traces are read (perfetto_trace_reader_test.cc); a broken
  // gzip stream is one line.
  EXPECT_EQ(ErrorOf(std::string("\x1f\x8b\x08\0\0\0", 6)), "t.json: gzip: truncated data");
  // A JSON trace that starts with a newline is JSON, not a Perfetto packet.
  EXPECT_EQ(Read("\n\n[{\"ph\":\"i\",\"ts\":1}]").info->layout, TraceLayout::kArray);
  EXPECT_EQ(Read("\n {\"traceEvents\":[]}").info->layout, TraceLayout::kObject);
  EXPECT_EQ(ErrorOf(std::string("\x7f"
                                "ELF\x02\x01\0\0",
                                8)),
            "t.json: not a trace: binary file");
  EXPECT_EQ(ErrorOf("BenchmarkFoo 1 2 ns/op\n"),
            "t.json: not a trace: expected a JSON object with a \"traceEvents\" array, or an "
            "array of events");
  EXPECT_EQ(ErrorOf("{\"benchmarks\":[]}"), "t.json: not a trace: no \"traceEvents\" array");
  EXPECT_EQ(ErrorOf("{}"), "t.json: not a trace: no \"traceEvents\" array");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":{}}"),
            "t.json: line 1, column 16: not a trace: \"traceEvents\" is an object, expected an "
            "array");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[\n{\"ph\":\"B\",\"ts\":1}\n{\"ph\":\"E\",\"ts\":2}]}"),
            "t.json: line 3, column 1: expected ',' or ']' after an event");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[1]}"),
            "t.json: line 1, column 17: expected an event object");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[\n{\"ph\":\"B\",\"ts\":1},\n  {\"ph\":\"E\" \"ts\":2}]}"),
            "t.json: line 3, column 13: expected ',' or '}' after an object member");
  // An error on an event's second line keeps the column of that line.
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[{\"ph\":\"B\",\n\"ts\":1,,\"tid\":1}]}"),
            "t.json: line 2, column 8: expected a string key");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[\n{\"name\":\"x\",\"ts\":1}]}"),
            "t.json: line 2: event without \"ph\"");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[\n{\"ph\":\"B\"}]}"),
            "t.json: line 2: event without \"ts\"");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[{\"ph\":\"B\",\"ts\":\"1\"}]}"),
            "t.json: line 1: \"ts\" is a string, expected a number");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[{\"ph\":\"C\",\"ts\":1,\"args\":{\"busy\":true}}]}"),
            "t.json: line 1: \"args.busy\" is a bool, expected a number");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[{\"ph\":\"B\",\"ts\":1e300}]}"),
            "t.json: line 1: \"ts\" is out of range");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[{\"ph\":\"B\",\"ts\":1,\"id\":[]}]}"),
            "t.json: line 1: \"id\" is an array, expected a string or a number");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[]} x"),
            "t.json: line 1, column 20: trailing characters after the trace");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[]\"x\":1}"),
            "t.json: line 1, column 18: expected ',' or '}' after an object member");
  EXPECT_EQ(ErrorOf(std::string("{\"traceEvents\":[{\"ph\":\"B\",\"ts\":1},\n\0]}", 37)),
            "t.json: line 2, column 1: NUL byte (binary data)");
}

TEST(TraceEventReaderTest, BracketMismatchAndDeepNestingAreReportedWhereTheyAre) {
  // A mismatched '}' is reported where it is, not after the rest of the
  // file was swallowed looking for a ']'.
  EXPECT_EQ(
      ErrorOf("{\"traceEvents\":[{\"ph\":\"B\",\"ts\":1,\"args\":{\"a\":[1}}, {\"ph\":\"E\"}]}"),
      "t.json: line 1, column 48: expected ',' or ']' after an array element");
  // The cap is on the whole document: the top-level object, the events
  // array, the event and "args" are 4 of the 256 levels, so the 253rd '['
  // (column 45 + 253) is one too many.
  std::string deep = "{\"traceEvents\":[{\"ph\":\"B\",\"ts\":1,\"args\":{\"a\":";
  deep += std::string(300, '[') + std::string(300, ']') + "}}]}";
  EXPECT_EQ(ErrorOf(deep), "t.json: line 1, column 298: nesting deeper than 256");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[{\"ph\":\"B\\x\",\"ts\":1}]}"),
            "t.json: line 1, column 25: invalid escape");
}

TEST(TraceEventReaderTest, ErrorsBetweenEventsAreWordedForATrace) {
  // Whatever the element is, if it is not an object it is not an event,
  // even when it is cut off or is not JSON.
  for (const char* element : {"x", "-", "\"ab", "tru", "1e", "[1]", ",", "\"a\\q\""}) {
    const std::string text = std::string("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1},\n ") + element;
    EXPECT_EQ(ErrorOf(text), "t.json: line 2, column 2: expected an event object") << text;
  }
  EXPECT_EQ(ErrorOf("[{\"ph\":\"i\",\"ts\":1}\n {\"ph\":\"i\",\"ts\":2}]"),
            "t.json: line 2, column 2: expected ',' or ']' after an event");
  EXPECT_EQ(ErrorOf(std::string("[{\"ph\":\"i\",\"ts\":1}\0]", 20)),
            "t.json: line 1, column 19: NUL byte (binary data)");
  EXPECT_EQ(ErrorOf(std::string("{\"traceEvents\":[]}\n\0", 21)),
            "t.json: line 2, column 1: NUL byte (binary data)");
  // Inside an event or "otherData" the JSON wording stands.
  EXPECT_EQ(ErrorOf(std::string("[{\"ph\":\"i\0\"}]", 13)),
            "t.json: line 1, column 10: NUL byte in input");
  EXPECT_EQ(ErrorOf("[{\"ph\":\"i\",\"ts\":1}] ]"),
            "t.json: line 1, column 21: trailing characters after the trace");
}

TEST(TraceEventReaderTest, TheWholeFileMustBeJson) {
  // Members nobody reads are checked too, and a file cut inside one after
  // the events is still a truncated trace.
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[],\"metadata\":{\"a\":[1,]}}"),
            "t.json: line 1, column 38: expected a value");
  EXPECT_EQ(ErrorOf("{\"traceEvents\":[],\"otherData\":{\"a\" 1}}"),
            "t.json: line 1, column 36: expected ':' after an object key");
  const Result cut = Read("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1}],\"metadata\":{\"a\":[1,");
  ASSERT_TRUE(cut.info.ok()) << cut.info.status().message();
  EXPECT_TRUE(cut.info->truncated);
  EXPECT_EQ(cut.events.size(), 1u);
  // A syntax error before the cut is an error, not a truncation: the reader
  // never delivers an event it has not checked.
  const Result bad_then_cut = Read("[{\"ph\":\"i\",\"ts\":1},\n{\"ph\":i\"");
  ASSERT_FALSE(bad_then_cut.info.ok());
  EXPECT_EQ(bad_then_cut.info.status().message(), "t.json: line 2, column 7: expected a value");
  EXPECT_EQ(bad_then_cut.events.size(), 1u);
  // More whitespace than the reader looks at before parsing is still empty.
  EXPECT_EQ(ErrorOf(std::string(2000, ' ')), "t.json: empty file");
}

TEST(TraceEventReaderTest, LargeValuesAreErrorsNotUnboundedBuffers) {
  // The bound is checked before each read, so a value passes it by up to a
  // chunk before it is refused.
  const std::string big(kMaxTraceEventBytes + (size_t{2} << 20), 'x');
  const auto error_of = [](const std::string& text) {
    const Result r = Read(text);
    return r.info.ok() ? "(no error)" : r.info.status().message();
  };
  EXPECT_EQ(error_of("{\"traceEvents\":[\n{\"ph\":\"i\",\"ts\":1,\"name\":\"" + big + "\"}]}"),
            "t.json: line 2: event larger than 64 MiB (a string without its closing quote?)");
  EXPECT_EQ(error_of("{\"otherData\":{\"a\":\"" + big + "\"},\"traceEvents\":[]}"),
            "t.json: line 1, column 14: \"otherData\" larger than 64 MiB");
  EXPECT_EQ(error_of("{\"" + big + "\":1,\"traceEvents\":[]}"),
            "t.json: line 1, column 2: object key larger than 64 MiB");
  // Many events of any total size are fine: only one is held at a time.
  std::string many = "[";
  const std::string event = "{\"ph\":\"i\",\"ts\":1,\"name\":\"" + std::string(1000, 'n') + "\"},";
  while (many.size() < 3 * (size_t{1} << 20)) many += event;
  TraceReadOptions options;
  options.chunk_bytes = 4096;
  uint64_t events = 0;
  const StatusOr<TraceFileInfo> info = ReadTraceText(
      many, "t.json", [&events](const TraceEvent&) { ++events; }, options);
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->events, events);
  EXPECT_GT(events, 3000u);
}

// "otherData" keeps its scalar members, the first kMaxOtherDataMembers;
// nested arrays and objects are checked and skipped.
TEST(TraceEventReaderTest, OtherDataKeepsItsFirstScalarMembers) {
  std::string other = "{\"nested\":{\"a\":[1,2,{\"b\":3}]},\"list\":[0,0,0]";
  for (size_t i = 0; i < kMaxOtherDataMembers + 5; ++i) {
    other += ",\"m" + std::to_string(i) + "\":" + std::to_string(i);
  }
  other += ",\"s\":\"after\"}";
  const Result r = Read("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1}],\"otherData\":" + other + "}");
  ASSERT_TRUE(r.info.ok()) << r.info.status().message();
  const auto& members = r.info->other_data.members();
  ASSERT_EQ(members.size(), kMaxOtherDataMembers);
  EXPECT_EQ(members.front().first, "m0");
  EXPECT_EQ(members.back().first, "m" + std::to_string(kMaxOtherDataMembers - 1));
  EXPECT_EQ(r.info->other_data.Find("nested"), nullptr);
  // Nested values are still checked.
  EXPECT_EQ(ErrorOf("{\"otherData\":{\"a\":[1,]},\"traceEvents\":[]}"),
            "t.json: line 1, column 22: expected a value");
  // An otherData that is not an object is kept if it is a scalar.
  const Result scalar = Read("{\"otherData\":7,\"traceEvents\":[{\"ph\":\"i\",\"ts\":1}]}");
  ASSERT_TRUE(scalar.info.ok());
  EXPECT_EQ(scalar.info->other_data.as_number(), 7);
}

// 60 MB of "otherData" that is 30 million zeros in an array: the reader's
// memory stays a small multiple of it (a json::Value of it took 1.37 GB).
// Measured in a child process, whose peak alone getrusage reports.
TEST(TraceEventReaderTest, AHugeOtherDataTakesBoundedMemory) {
  testing::TempDir dir;
  {
    std::ofstream out(dir.File("t.json"));
    out << "{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1}],\"otherData\":{\"x\":[";
    const std::string zeros(1 << 20, '0');
    std::string chunk;
    for (char c : zeros) chunk += std::string(1, c) + ",";
    for (int i = 0; i < 30; ++i) out << chunk;
    out << "0]}}\n";
  }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const StatusOr<TraceFileInfo> info =
        ReadTraceFile(dir.File("t.json"), [](const TraceEvent&) {});
    _exit(info.ok() && info->events == 1 ? 0 : 1);
  }
  int status = 0;
  rusage usage{};
  ASSERT_EQ(wait4(child, &status, 0, &usage), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  std::printf("60 MB of otherData: peak RSS %ld MB\n", usage.ru_maxrss / 1000);
  EXPECT_LT(usage.ru_maxrss, 400'000);  // KB
}

TEST(TraceEventReaderTest, ByteOrderMarkAndEscapedKeys) {
  const Result bom = Read("\xEF\xBB\xBF{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1}]}", 1);
  ASSERT_TRUE(bom.info.ok()) << bom.info.status().message();
  EXPECT_EQ(bom.events.size(), 1u);
  // "trac\u0065Events" is "traceEvents".
  const Result escaped = Read("{\"trac\\u0065Events\":[{\"ph\":\"i\",\"ts\":1}]}");
  ASSERT_TRUE(escaped.info.ok()) << escaped.info.status().message();
  EXPECT_EQ(escaped.events.size(), 1u);
}

TEST(TraceEventReaderTest, FilesThatCannotBeRead) {
  testing::TempDir dir;
  StatusOr<TraceFileInfo> r = ReadTraceFile(dir.File("missing.json"), [](const TraceEvent&) {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            dir.File("missing.json") + ": cannot open: No such file or directory");
  r = ReadTraceFile(dir.path(), [](const TraceEvent&) {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), dir.path() + ": is a directory");
}

}  // namespace
}  // namespace benchprof::trace_summary
