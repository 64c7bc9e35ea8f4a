// `benchprof trace-summary` as a user runs it: the golden report through
// the binary, warnings on the error stream, and for every kind of bad input
// exit code 3 with exactly one line naming the file and the problem.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

const std::string kTestData = COMPARE_TESTDATA_DIR;
const std::string kGolden = COMPARE_GOLDEN_DIR;

ProcessResult Benchprof(std::vector<std::string> args, const std::string& cwd = "") {
  args.insert(args.begin(), BENCHPROF_PATH);
  return RunProcess(args, {}, cwd);
}

void Write(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Exactly one line on stderr, nothing on stdout, exit 3.
void ExpectBadInput(const ProcessResult& r, const std::string& must_contain) {
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "");
  ASSERT_FALSE(r.stderr_text.empty());
  EXPECT_EQ(r.stderr_text.find('\n'), r.stderr_text.size() - 1) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.rfind("benchprof trace-summary: ", 0), 0u) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find(must_contain), std::string::npos) << r.stderr_text;
}

TEST(TraceSummaryCliTest, HelpAndUsage) {
  ProcessResult r = Benchprof({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.stdout_text.find("trace-summary"), std::string::npos);
  r = Benchprof({"trace-summary", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.stdout_text.rfind("Usage: benchprof trace-summary", 0), 0u);
  EXPECT_NE(r.stdout_text.find("nearest-rank"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("memory grows with the number of tasks and regions"),
            std::string::npos);
  r = Benchprof({"help", "trace-summary"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.stdout_text.rfind("Usage: benchprof trace-summary", 0), 0u);
  r = Benchprof({"trace-sumary"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.stderr_text.find("commands: compare, convert, gate, history, flamegraph, report, trace-summary"),
            std::string::npos);
}

TEST(TraceSummaryCliTest, GoldenTextAndJsonWithWarningsOnStderr) {
  ProcessResult r = Benchprof({"trace-summary", "trace_pool.json"}, kTestData);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, ReadFile(kGolden + "/trace_summary.txt"));
  const std::vector<std::string> warnings = Lines(r.stderr_text);
  ASSERT_EQ(warnings.size(), 2u) << r.stderr_text;
  EXPECT_EQ(warnings[0],
            "benchprof trace-summary: warning: trace_pool.json: 3 events were dropped because the "
            "recorder's buffers were full: counts, durations and busy shares may be incomplete");
  EXPECT_EQ(warnings[1].rfind("benchprof trace-summary: warning: trace_pool.json: unmatched "
                              "events, left out of the durations: 1 span begin (B) without an end",
                              0),
            0u)
      << warnings[1];

  r = Benchprof({"trace-summary", "-format", "json", "trace_pool.json"}, kTestData);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, ReadFile(kGolden + "/trace_summary.json"));
  StatusOr<json::Value> doc = json::Parse(r.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(doc->Find("dropped_events")->as_number(), 3);
  EXPECT_EQ(doc->Find("warnings")->as_array().size(), 2u);
}

TEST(TraceSummaryCliTest, TruncatedTraceIsSummarizedWithAWarning) {
  // The fixture cut in the middle of an event, as when bench is killed.
  TempDir dir;
  const std::string full = ReadFile(kTestData + "/trace_pool.json");
  const size_t cut = full.find("\"ts\":4000.042");
  ASSERT_NE(cut, std::string::npos);
  Write(dir.File("killed.json"), full.substr(0, cut));
  const ProcessResult r = Benchprof({"trace-summary", "--format=json", dir.File("killed.json")});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::vector<std::string> warnings = Lines(r.stderr_text);
  ASSERT_GE(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "benchprof trace-summary: warning: " + dir.File("killed.json") +
                             ": line 31: the file ends inside an event: the trace was cut short "
                             "(was the bench process killed?); summarizing the 29 complete events");
  StatusOr<json::Value> doc = json::Parse(r.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_TRUE(doc->Find("truncated")->as_bool());
  EXPECT_EQ(doc->Find("events")->as_number(), 29);
  // The Search region whose end was cut off (thread 3) and the one never
  // ended (thread 2) are unmatched.
  EXPECT_EQ(doc->Find("unmatched")->Find("span_begins")->as_number(), 2);
}

TEST(TraceSummaryCliTest, ArrayFormatIsAccepted) {
  TempDir dir;
  Write(dir.File("array.json"),
        "[\n{\"ph\":\"B\",\"cat\":\"region\",\"name\":\"Parse\",\"pid\":1,\"tid\":1,\"ts\":0},\n"
        "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":1.5},\n");
  const ProcessResult r = Benchprof({"trace-summary", dir.File("array.json")});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stderr_text, "");
  EXPECT_NE(r.stdout_text.find("Parse       1  1.500µs  1.500µs"), std::string::npos)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("interval:  1.500µs (from 0ns to 1.500µs)"), std::string::npos)
      << r.stdout_text;
}

TEST(TraceSummaryCliTest, EveryBadInputIsExitThreeWithOneLine) {
  TempDir dir;
  Write(dir.File("empty.json"), "");
  Write(dir.File("results.json"), ReadFile(kTestData + "/base.json"));
  Write(dir.File("bad.json"),
        "{\"traceEvents\":[\n{\"ph\":\"B\",\"ts\":1,\"tid\":1},\n{\"ph\":\"E\" \"ts\":2}\n]}\n");
  Write(dir.File("cut.json"), "{\"traceEvents\":[{\"ph\":\"B\",\"ts\":");
  Write(dir.File("garbage.bin"), std::string("\x7f"
                                             "ELF\x02\x01\x01\0\0\0",
                                             10));

  ExpectBadInput(Benchprof({"trace-summary", dir.File("missing.json")}),
                 dir.File("missing.json") + ": cannot open: No such file or directory");
  ExpectBadInput(Benchprof({"trace-summary", dir.path()}), dir.path() + ": is a directory");
  ExpectBadInput(Benchprof({"trace-summary", dir.File("empty.json")}),
                 dir.File("empty.json") + ": empty file");
  ExpectBadInput(Benchprof({"trace-summary", dir.File("results.json")}),
                 dir.File("results.json") + ": not a trace: no \"traceEvents\" array");
  ExpectBadInput(
      Benchprof({"trace-summary", dir.File("bad.json")}),
      dir.File("bad.json") + ": line 3, column 11: expected ',' or '}' after an object member");
  ExpectBadInput(
      Benchprof({"trace-summary", dir.File("cut.json")}),
      dir.File("cut.json") + ": line 1: the file ends inside an event before any complete event");
  ExpectBadInput(Benchprof({"trace-summary", dir.File("garbage.bin")}),
                 dir.File("garbage.bin") + ": not a trace: binary file");
  ExpectBadInput(Benchprof({"trace-summary"}), "expected one trace file (got 0;");
  ExpectBadInput(Benchprof({"trace-summary", "a.json", "b.json"}),
                 "expected one trace file (got 2;");
  ExpectBadInput(Benchprof({"trace-summary", "--format=xml", dir.File("bad.json")}),
                 "--format=xml: expected text or json");
  ExpectBadInput(Benchprof({"trace-summary", "--top=3", dir.File("bad.json")}),
                 "unknown flag --top=3");
  ExpectBadInput(Benchprof({"trace-summary", dir.File("bad.json"), "--format"}),
                 "benchprof trace-summary: --format: needs a value, as --format=text|json");
}

}  // namespace
}  // namespace benchprof
