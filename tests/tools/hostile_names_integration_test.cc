// Names that attack whoever reads the output, through every output of the
// benchprof tool. Benchmark names, counter names, context fields, error and
// skip messages, profile function and file names, trace thread, task,
// region and log names hold a newline followed by a GitHub workflow command
// ("::warning::"), CR, an ESC colour sequence, U+202E and U+2066 (bidi
// overrides and isolates), C1 controls, DEL, line separators, '|', a
// Markdown image, <script>, an HTML entity of U+202E, backticks, math and a
// mention, and a leading "::" or an inline "##[" (commands that need no
// newline). For each output, whatever the format: valid UTF-8 without a
// raw control, C1 or bidirectional formatting character; no line that a
// CI runner reads as a command; Markdown tables with as many cells on every
// row as in the header and no markup outside code spans; JSON that parses
// back to exactly the names that went in; well-formed HTML.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/json_value.h"
#include "encode/pprof_writer.h"
#include "support/html_document.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

// Benchmark names (each regresses, so each reaches every section).
const std::vector<std::string> kNames = {
    "BM_nl\n::warning::injected",
    "\n::stop-commands::token",
    "::error::leading",
    "\xE3\x80\x80::warning::after-ideographic-space",
    "BM_cr\r::notice::cr",
    "BM_esc\x1b[31mred\x1b[0m",
    "BM_rlo\u202Eevil",
    "BM_lri\u2066isolated\u2069",
    "BM_pipe|a|b",
    "BM_backslash\\|pipe",
    "BM_img![x](http://e/x.png)",
    "BM_<script>alert(1)</script>",
    "BM_tab\tx",
    "BM_c1\u0085\u009b",
    "BM_del\x7f",
    "BM_v1##[warning]inline",
    "BM_entity&#x202E;",
    "BM_tick`a``b",
    "BM_math$x$ @team",
    "BM_line\u2028para\u2029",
};
const std::string kCounter = "ctr\n::warning::counter\u202E";
const std::string kOnlyInHead = "BM_only\n::warning::only";
const std::string kSkipped = "BM_skip\n::warning::skip";
const std::string kSkipMessage = "no\n::warning::gpu\u202E";
const std::string kErrorMessage = "boom\r\n::error::err\u2066";
const std::vector<std::string> kFunctions = {
    "main",
    "fn\n::warning::func",
    "fn\u202Eevil",
    "<img src=x onerror=alert(1)>",
    "fn\xff\xfe malformed",
    "fn\u2028separator",
    "fn##[error]inline",
};
const std::vector<std::string> kFiles = {"/src/main.cc", "/src/\u202Efile.cc",
                                         "/src/a\n::error::b.cc"};
const std::vector<std::string> kThreads = {"worker\n::warning::thread\u202E", "::error::thread"};

// ---- what the checks know, independently of the code under test ----

// The code point of the well-formed UTF-8 sequence at s[i] and its length;
// length 0 when there is none.
std::pair<uint32_t, size_t> Decode(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return i + k < s.size() ? static_cast<uint8_t>(s[i + k]) : 0u; };
  const auto cont = [&](size_t k) { return (b(k) & 0xC0) == 0x80; };
  const uint32_t lead = b(0);
  if (lead < 0x80) return {lead, 1};
  if (lead >= 0xC2 && lead <= 0xDF && cont(1)) return {((lead & 0x1F) << 6) | (b(1) & 0x3F), 2};
  if (lead >= 0xE0 && lead <= 0xEF && cont(1) && cont(2)) {
    const uint32_t cp = ((lead & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
    return {cp, 3};
  }
  if (lead >= 0xF0 && lead <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    const uint32_t cp =
        ((lead & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    if (cp < 0x10000 || cp > 0x10FFFF) return {0, 0};
    return {cp, 4};
  }
  return {0, 0};
}

bool Hidden(uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
         cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
         cp == 0x2028 || cp == 0x2029;
}

// What .NET's char.IsWhiteSpace accepts: the GitHub runner trims it from a
// line before it looks for "::".
bool RunnerWhiteSpace(uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
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

// "" if `text` is safe to print where people and CI runners read it; else
// each problem on a line. `tab` says whether TAB separates fields in this
// format (Go benchmark text, --regressions-file).
std::string Unsafe(const std::string& text, bool tab = false) {
  std::string problems;
  const auto problem = [&](size_t at, const std::string& what) {
    problems += "byte " + std::to_string(at) + ": " + what + " near \"" +
                text.substr(at < 20 ? 0 : at - 20, 40) + "\"\n";
  };
  for (size_t i = 0; i < text.size();) {
    const auto [cp, length] = Decode(text, i);
    if (length == 0) {
      problem(i, "malformed UTF-8");
      ++i;
      continue;
    }
    if (Hidden(cp) && cp != '\n' && !(tab && cp == '\t')) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "U+%04X", cp);
      problem(i, std::string("raw ") + hex);
    }
    i += length;
  }
  if (!problems.empty()) return problems;  // the rest needs valid UTF-8
  size_t offset = 0;
  for (const std::string& line : Lines(text)) {
    size_t i = 0;
    while (i < line.size()) {
      const auto [cp, length] = Decode(line, i);
      if (!RunnerWhiteSpace(cp)) break;
      i += length;
    }
    if (line.compare(i, 2, "::") == 0) problem(offset, "a line starts with \"::\"");
    if (line.find("##[") != std::string::npos) problem(offset, "\"##[\" in a line");
    if (line.find("##vso[") != std::string::npos) problem(offset, "\"##vso[\" in a line");
    offset += line.size() + 1;
  }
  return problems;
}

bool AsciiPunctuation(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}

// The cells of a GFM table row as github/cmark's table extension splits it:
// a backslash and an ASCII punctuation character are one unit, so only a
// bare '|' ends a cell.
size_t CellCount(const std::string& row) {
  size_t pipes = 0;
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && AsciiPunctuation(row[i + 1])) {
      ++i;
    } else if (row[i] == '|') {
      ++pipes;
    }
  }
  return pipes - 1;  // rows start and end with '|'
}

// `line` without its code spans (CommonMark: a backtick run opens one that
// the next run of the same length closes), and `escaped[i]` for each byte
// left: whether a backslash escapes it.
std::string OutsideCode(const std::string& line) {
  std::string out;
  for (size_t i = 0; i < line.size();) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      out += line.substr(i, 2);
      i += 2;
      continue;
    }
    if (line[i] != '`') {
      out += line[i++];
      continue;
    }
    size_t n = 0;
    while (i + n < line.size() && line[i + n] == '`') ++n;
    size_t close = std::string::npos;
    for (size_t j = i + n; j < line.size();) {
      if (line[j] != '`') {
        ++j;
        continue;
      }
      size_t m = 0;
      while (j + m < line.size() && line[j + m] == '`') ++m;
      if (m == n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close == std::string::npos) {
      out += line.substr(i, n);  // no code span: literal backticks
      i += n;
    } else {
      out += "CODE";
      i = close + n;
    }
  }
  return out;
}

// Whether `fragment` occurs in `text` with its first character not
// escaped by a backslash.
bool HasUnescaped(const std::string& text, const std::string& fragment) {
  for (size_t at = text.find(fragment); at != std::string::npos; at = text.find(fragment, at + 1)) {
    size_t backslashes = 0;
    while (backslashes < at && text[at - 1 - backslashes] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return true;
  }
  return false;
}

// "" if the Markdown keeps its tables and injects nothing; else the problems.
std::string MarkdownProblems(const std::string& md) {
  std::string problems;
  const std::vector<std::string> lines = Lines(md);
  size_t header_cells = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.empty() || line[0] != '|') {
      header_cells = 0;
    } else if (header_cells == 0) {
      header_cells = CellCount(line);
    } else if (CellCount(line) != header_cells) {
      problems += "line " + std::to_string(i + 1) + ": " + std::to_string(CellCount(line)) +
                  " cells, the header has " + std::to_string(header_cells) + ": " + line + "\n";
    }
    const std::string text = OutsideCode(line);
    for (const char* fragment : {"`", "<script", "<img", "![", "](", "&#", "$x$", "@team"}) {
      if (HasUnescaped(text, fragment)) {
        problems += "line " + std::to_string(i + 1) + ": \"" + fragment +
                    "\" outside a code span: " + line + "\n";
      }
    }
    if (HasUnescaped(text, "<") && text.find("<br>") == std::string::npos) {
      problems += "line " + std::to_string(i + 1) + ": '<' outside a code span: " + line + "\n";
    }
  }
  return problems;
}

// "" if the names a page's script shows (its fg-names JSON: function and
// file of each frame, decoded as the script decodes them) are safe; else
// the problems.
std::string PageNamesProblems(const std::string& page) {
  const std::string open = "<script type=\"application/json\" class=\"fg-names\">";
  const size_t start = page.find(open);
  if (start == std::string::npos) return "no fg-names on the page\n";
  const size_t end = page.find("</script>", start);
  StatusOr<json::Value> names =
      json::Parse(page.substr(start + open.size(), end - start - open.size()));
  if (!names.ok()) return names.status().message() + "\n";
  std::string problems;
  for (const json::Value& pair : names->as_array()) {
    for (const json::Value& name : pair.as_array()) problems += Unsafe(name.as_string());
  }
  return problems;
}

// ---- inputs ----

std::string Quoted(const std::string& s) {
  std::string out;
  json::AppendQuoted(out, s);
  return out;
}

void Write(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
}

std::string Row(const std::string& name, int repetition, double time, double bytes) {
  return "{\"name\": " + Quoted(name) + ", \"run_name\": " + Quoted(name) +
         ", \"run_type\": \"iteration\", \"repetitions\": 6, \"repetition_index\": " +
         std::to_string(repetition) +
         ", \"threads\": 1, \"iterations\": 1000, \"real_time\": " + std::to_string(time) +
         ", \"cpu_time\": " + std::to_string(time) +
         ", \"time_unit\": \"ns\", \"B/op\": " + std::to_string(bytes) + ", " + Quoted(kCounter) +
         ": " + std::to_string(bytes) + "}";
}

// A Google Benchmark file: every name, 6 repetitions; head is twice as slow
// and allocates twice as much, and adds a failed repetition, a skipped
// benchmark and one of its own.
std::string Results(bool head) {
  std::string rows;
  for (const std::string& name : kNames) {
    for (int r = 0; r < 6; ++r) {
      if (!rows.empty()) rows += ",\n";
      rows += Row(name, r, (head ? 200 : 100) + r * 0.5, head ? 16 : 8);
    }
  }
  if (head) {
    rows += ",\n" + Row(kOnlyInHead, 0, 50, 1);
    rows += ",\n{\"name\": " + Quoted(kNames[0]) + ", \"run_name\": " + Quoted(kNames[0]) +
            ", \"run_type\": \"iteration\", \"repetitions\": 6, \"repetition_index\": 6, "
            "\"threads\": 1, \"iterations\": 0, \"real_time\": 0, \"cpu_time\": 0, "
            "\"time_unit\": \"ns\", \"error_occurred\": true, \"error_message\": " +
            Quoted(kErrorMessage) + "}";
    rows += ",\n{\"name\": " + Quoted(kSkipped) + ", \"run_name\": " + Quoted(kSkipped) +
            ", \"run_type\": \"iteration\", \"repetitions\": 1, \"repetition_index\": 0, "
            "\"threads\": 1, \"iterations\": 0, \"real_time\": 0, \"cpu_time\": 0, "
            "\"time_unit\": \"ns\", \"skipped\": true, \"skip_message\": " +
            Quoted(kSkipMessage) + "}";
  }
  const std::string host = head ? "host\u202Ehead" : "host\n::warning::base";
  return "{\"context\": {\"date\": \"2026-01-01T00:00:00+00:00\", \"host_name\": " + Quoted(host) +
         ", \"executable\": " + Quoted("/bin/bench\n::warning::exe\u202E") +
         ", \"num_cpus\": 2, \"library_build_type\": \"release\", \"library_version\": " +
         Quoted(head ? "v1.9.1\n::warning::version" : "v1.9.1") +
         ", \"commit\": " + Quoted("c\u202Ex\n::warning::context") + "},\n\"benchmarks\": [\n" +
         rows + "\n]}\n";
}

// A CPU profile: each function (with hostile names and files) under main,
// sampled for every benchmark; head has twice the samples.
encode::ProfileData Profile(bool head) {
  encode::ProfileData p;
  p.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  p.period_type = {"cpu", "nanoseconds"};
  p.period = 10'000'000;
  for (size_t i = 0; i < kFunctions.size(); ++i) {
    p.functions.push_back({kFunctions[i], "_Z" + std::to_string(i), kFiles[i % kFiles.size()],
                           static_cast<int64_t>(i + 1)});
    p.locations.push_back({0x1000 + 16 * i, std::nullopt, {{i, static_cast<int64_t>(i + 2)}}});
  }
  std::vector<std::string> labels = kNames;
  labels.push_back(kOnlyInHead);
  for (const std::string& benchmark : labels) {
    for (size_t f = 1; f < kFunctions.size(); ++f) {
      const int64_t count = head ? 20 : 10;
      p.samples.push_back({{f, 0}, {count, count * p.period}, {{"benchmark", benchmark, 0, ""}}});
    }
  }
  return p;
}

// A Chrome trace with hostile process, thread, task, region and log names.
std::string Trace() {
  std::string events =
      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":" +
      Quoted("bench\n::warning::process\u202E") + "}}";
  for (size_t t = 0; t < kThreads.size(); ++t) {
    events +=
        ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":" + std::to_string(t + 1) +
        ",\"args\":{\"name\":" + Quoted(kThreads[t]) + "}}";
  }
  double ts = 1000;
  for (size_t i = 0; i < kNames.size(); ++i) {
    const std::string tid = std::to_string(1 + i % kThreads.size());
    const std::string name = Quoted(kNames[i]);
    const std::string id = "\"0x" + std::to_string(i + 1) + "\"";
    events += ",\n{\"ph\":\"b\",\"cat\":\"task\",\"name\":" + name + ",\"id\":" + id +
              ",\"pid\":1,\"tid\":" + tid + ",\"ts\":" + std::to_string(ts) +
              ",\"args\":{\"kind\":\"task\",\"parent\":\"0x0\"}}";
    events += ",\n{\"ph\":\"B\",\"cat\":\"region\",\"name\":" + name + ",\"pid\":1,\"tid\":" + tid +
              ",\"ts\":" + std::to_string(ts + 10) +
              ",\"args\":{\"task\":" + std::to_string(i + 1) + "}}";
    events += ",\n{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"log\",\"name\":" + name +
              ",\"pid\":1,\"tid\":" + tid + ",\"ts\":" + std::to_string(ts + 20) +
              ",\"args\":{\"message\":" + name + ",\"task\":" + std::to_string(i + 1) + "}}";
    events += ",\n{\"ph\":\"E\",\"cat\":\"region\",\"name\":" + name + ",\"pid\":1,\"tid\":" + tid +
              ",\"ts\":" + std::to_string(ts + 50) + "}";
    events += ",\n{\"ph\":\"e\",\"cat\":\"task\",\"name\":" + name + ",\"id\":" + id +
              ",\"pid\":1,\"tid\":" + tid + ",\"ts\":" + std::to_string(ts + 100) +
              ",\"args\":{\"kind\":\"task\"}}";
    ts += 200;
  }
  return "{\"traceEvents\":[\n" + events + "\n]}\n";
}

class HostileNamesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    Write(dir_->File("base.json"), Results(false));
    Write(dir_->File("head.json"), Results(true));
    Write(dir_->File("trace.json"), Trace());
    ASSERT_TRUE(encode::WriteProfileFile(Profile(false), dir_->File("base.pprof")).ok());
    ASSERT_TRUE(encode::WriteProfileFile(Profile(true), dir_->File("head.pprof")).ok());
  }
  static void TearDownTestSuite() { delete dir_; }

  static ProcessResult Benchprof(std::vector<std::string> args) {
    args.insert(args.begin(), BENCHPROF_PATH);
    return RunProcess(args);
  }
  static std::string File(const std::string& name) { return dir_->File(name); }

  // The compare command on the two result files with `flags` first.
  static ProcessResult Compare(std::vector<std::string> flags) {
    flags.insert(flags.begin(), "compare");
    flags.push_back(File("base.json"));
    flags.push_back(File("head.json"));
    return Benchprof(flags);
  }

  static TempDir* dir_;
};

TempDir* HostileNamesTest::dir_ = nullptr;

// Every warning and message on the error stream is one safe line each.
void ExpectSafeErrors(const ProcessResult& r) {
  EXPECT_EQ(Unsafe(r.stderr_text), "") << r.stderr_text;
  for (const std::string& line : Lines(r.stderr_text)) {
    EXPECT_TRUE(line.starts_with("benchprof")) << line;
  }
}

TEST_F(HostileNamesTest, CompareText) {
  const ProcessResult r = Compare({});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  EXPECT_EQ(Unsafe(r.stdout_text), "") << r.stdout_text;
  ExpectSafeErrors(r);
  // Each benchmark is one row in each table: its name did not split it.
  EXPECT_NE(r.stdout_text.find("BM_rlo\xEF\xBF\xBD"
                               "evil"),
            std::string::npos)
      << r.stdout_text;
}

TEST_F(HostileNamesTest, CompareMarkdown) {
  const ProcessResult r = Compare({"--format=markdown"});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  EXPECT_EQ(Unsafe(r.stdout_text), "") << r.stdout_text;
  EXPECT_EQ(MarkdownProblems(r.stdout_text), "") << r.stdout_text;
  ExpectSafeErrors(r);
  // Every name is a row of the cpu_time table (the first).
  const std::vector<std::string> lines = Lines(r.stdout_text);
  const auto table = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.starts_with("| `cpu_time`");
  });
  ASSERT_NE(table, lines.end()) << r.stdout_text;
  size_t rows = 0;
  for (auto it = table + 2; it != lines.end() && it->starts_with("| `"); ++it) ++rows;
  EXPECT_EQ(rows, kNames.size()) << r.stdout_text;
}

TEST_F(HostileNamesTest, CompareJsonKeepsEveryNameExactly) {
  const ProcessResult r = Compare({"--format=json"});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  EXPECT_EQ(Unsafe(r.stdout_text), "") << r.stdout_text;
  ExpectSafeErrors(r);
  StatusOr<json::Value> doc = json::Parse(r.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  std::set<std::string> benchmarks, metrics;
  for (const json::Value& row : doc->Find("rows")->as_array()) {
    benchmarks.insert(row.Find("benchmark")->as_string());
    metrics.insert(row.Find("metric")->as_string());
  }
  EXPECT_EQ(benchmarks, std::set<std::string>(kNames.begin(), kNames.end()));
  EXPECT_EQ(metrics.count(kCounter), 1u);
  ASSERT_EQ(doc->Find("only_in_head")->as_array().size(), 1u);
  EXPECT_EQ(doc->Find("only_in_head")->as_array()[0].as_string(), kOnlyInHead);
  const json::Value& skipped = doc->Find("skipped_in_head")->as_array().at(0);
  EXPECT_EQ(skipped.Find("benchmark")->as_string(), kSkipped);
  EXPECT_EQ(skipped.Find("message")->as_string(), kSkipMessage);
  std::string warnings;
  for (const json::Value& w : doc->Find("warnings")->as_array()) warnings += w.as_string() + "\n";
  EXPECT_NE(warnings.find("host\u202Ehead"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find(kErrorMessage), std::string::npos) << warnings;
}

TEST_F(HostileNamesTest, CompareHtmlWithProfiles) {
  const std::string out = File("compare.html");
  const ProcessResult r = Compare({"--format=html", "--base-cpuprofile=" + File("base.pprof"),
                                   "--head-cpuprofile=" + File("head.pprof"), "-o", out});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  ExpectSafeErrors(r);
  const std::string page = ReadFile(out);
  EXPECT_EQ(testing::CheckHtml(page), "");
  EXPECT_EQ(Unsafe(page), "");
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<img src=x"), std::string::npos);
  EXPECT_EQ(PageNamesProblems(page), "");
}

TEST_F(HostileNamesTest, RegressionsFile) {
  const std::string out = File("regressions.txt");
  const ProcessResult r = Compare({"--regressions-file=" + out});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  const std::string text = ReadFile(out);
  EXPECT_EQ(Unsafe(text, /*tab=*/true), "") << text;
  const std::vector<std::string> lines = Lines(text);
  EXPECT_EQ(lines.size(), kNames.size()) << text;
  for (const std::string& line : lines) {
    EXPECT_EQ(std::count(line.begin(), line.end(), '\t'), 2) << line;
  }
}

TEST_F(HostileNamesTest, ConvertToGoText) {
  const ProcessResult r = Benchprof({"convert", "--to=go", File("head.json")});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(Unsafe(r.stdout_text, /*tab=*/true), "") << r.stdout_text;
  ExpectSafeErrors(r);
  EXPECT_NE(r.stderr_text, "");  // the failed and the skipped repetition
  // One result line per repetition: no name started a line of its own.
  size_t results = 0;
  for (const std::string& line : Lines(r.stdout_text)) results += line.starts_with("Benchmark");
  EXPECT_EQ(results, kNames.size() * 6 + 1) << r.stdout_text;
}

TEST_F(HostileNamesTest, TraceSummaryTextAndJson) {
  const ProcessResult text = Benchprof({"trace-summary", File("trace.json")});
  EXPECT_EQ(text.exit_code, 0) << text.stderr_text;
  EXPECT_EQ(Unsafe(text.stdout_text), "") << text.stdout_text;
  ExpectSafeErrors(text);

  const ProcessResult r = Benchprof({"trace-summary", "--format=json", File("trace.json")});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(Unsafe(r.stdout_text), "") << r.stdout_text;
  StatusOr<json::Value> doc = json::Parse(r.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  std::set<std::string> tasks, regions, threads;
  for (const json::Value& t : doc->Find("tasks")->as_array())
    tasks.insert(t.Find("name")->as_string());
  for (const json::Value& t : doc->Find("regions")->as_array()) {
    regions.insert(t.Find("name")->as_string());
  }
  for (const json::Value& t : doc->Find("threads")->as_array()) {
    threads.insert(t.Find("name")->as_string());
  }
  const std::set<std::string> names(kNames.begin(), kNames.end());
  EXPECT_EQ(tasks, names);
  EXPECT_EQ(regions, names);
  EXPECT_EQ(threads, std::set<std::string>(kThreads.begin(), kThreads.end()));
}

TEST_F(HostileNamesTest, RunReport) {
  const std::string out = File("report.html");
  const ProcessResult r =
      Benchprof({"report", File("head.json"), "--cpuprofile=" + File("head.pprof"),
                 "--trace=" + File("trace.json"), "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  ExpectSafeErrors(r);
  const std::string page = ReadFile(out);
  EXPECT_EQ(testing::CheckHtml(page), "");
  EXPECT_EQ(Unsafe(page), "");
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(PageNamesProblems(page), "");
  // The trace summary keeps its lines: one per thread, task and region.
  const size_t pre = page.find("<pre>");
  ASSERT_NE(pre, std::string::npos);
  const std::string summary = page.substr(pre, page.find("</pre>", pre) - pre);
  EXPECT_GE(static_cast<size_t>(std::count(summary.begin(), summary.end(), '\n')),
            2 * kNames.size() + kThreads.size())
      << summary;
}

TEST_F(HostileNamesTest, FlameGraphPages) {
  for (const char* name : {"flame.html", "flame.svg"}) {
    const std::string out = File(name);
    const ProcessResult r = Benchprof({"flamegraph", File("head.pprof"), "-o", out});
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    ExpectSafeErrors(r);
    const std::string page = ReadFile(out);
    EXPECT_EQ(Unsafe(page), "") << name;
    EXPECT_EQ(page.find("<img src=x"), std::string::npos) << name;
    if (std::string(name).ends_with(".html")) {
      EXPECT_EQ(PageNamesProblems(page), "");
    }
  }
}

TEST_F(HostileNamesTest, ErrorsAreOneSafeLine) {
  const std::string missing = File("no\n::warning::such\u202E.json");
  const ProcessResult r = Benchprof({"compare", missing, File("head.json")});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(Unsafe(r.stderr_text), "") << r.stderr_text;
  EXPECT_EQ(Lines(r.stderr_text).size(), 1u) << r.stderr_text;

  // A malformed row named by a hostile benchmark.
  Write(File("bad.json"), "{\"benchmarks\": [{\"name\": " + Quoted(kNames[0]) +
                              ", \"run_type\": \"iteration\", \"iterations\": \"many\", "
                              "\"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"ns\"}]}\n");
  for (const char* command : {"compare", "convert"}) {
    std::vector<std::string> args = {command, File("bad.json")};
    if (std::string(command) == "compare") args.push_back(File("head.json"));
    const ProcessResult bad = Benchprof(args);
    EXPECT_EQ(bad.exit_code, 3) << command;
    EXPECT_EQ(Unsafe(bad.stderr_text), "") << bad.stderr_text;
    EXPECT_EQ(Lines(bad.stderr_text).size(), 1u) << bad.stderr_text;
  }
}

}  // namespace
}  // namespace benchprof
