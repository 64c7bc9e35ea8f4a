// The benchprof binary as CI uses it: exit codes, one-line errors for every
// kind of bad input, output formats, several files per side, convert, and
// real output of the `bench` binary.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "common/json_value.h"
#include "support/subprocess.h"
#include "tools/results/benchfmt_reader.h"

namespace benchprof {
namespace {

using testing::FileExists;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

const std::string kTestData = COMPARE_TESTDATA_DIR;
const std::string kBase = kTestData + "/base.json";
const std::string kHead = kTestData + "/head.json";
const std::string kUpgradeBase = kTestData + "/upgrade_base_1.7.1.json";
const std::string kUpgradeHead = kTestData + "/upgrade_head_1.9.1.json";

ProcessResult Benchprof(std::vector<std::string> args) {
  args.insert(args.begin(), BENCHPROF_PATH);
  return RunProcess(args);
}

void Write(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
}

std::string LastLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') + 1);
}

// Exactly one line on stderr, nothing on stdout, exit 3.
void ExpectBadInput(const ProcessResult& r, const std::string& must_contain) {
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "");
  ASSERT_FALSE(r.stderr_text.empty());
  EXPECT_EQ(r.stderr_text.find('\n'), r.stderr_text.size() - 1) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find(must_contain), std::string::npos) << r.stderr_text;
}

TEST(CompareCliTest, HelpAndUsage) {
  ProcessResult r = Benchprof({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.stdout_text.find("compare"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("convert"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("Exit codes:\n  0  --help, --version\n  3  no command"),
            std::string::npos)
      << r.stdout_text;
  r = Benchprof({"compare", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  // The flags and exit codes are generated from the declarations.
  EXPECT_NE(r.stdout_text.find("Flags:\n  --format=text|markdown|json\n"), std::string::npos)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("  --help "), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("Exit codes:\n  0  no regression\n  1  regression"),
            std::string::npos)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("3  bad input"), std::string::npos);
  r = Benchprof({"help", "convert"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.stdout_text.find("Usage: benchprof convert"), std::string::npos);
  r = Benchprof({});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.stderr_text.find("Usage: benchprof"), std::string::npos);
  ExpectBadInput(Benchprof({"frobnicate"}), "benchprof: unknown command \"frobnicate\"");
}

TEST(CompareCliTest, RegressionExitsOneAndSaysWhy) {
  TempDir dir;
  const ProcessResult r =
      Benchprof({"compare", "--regressions-file=" + dir.File("regressed"), kBase, kHead});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  EXPECT_EQ(r.stderr_text, "");
  EXPECT_EQ(LastLine(r.stdout_text), "verdict: regression (exit code 1)");
  EXPECT_NE(r.stdout_text.find("BM_AlgorithmOne"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("REGRESSION"), std::string::npos);
  EXPECT_EQ(ReadFile(dir.File("regressed")), "BM_AlgorithmOne\t1.2024\ttime\nBM_Vector/8\t1.002\tallocs/op,B/op\n");
}

TEST(CompareCliTest, NoRegressionAndInconclusive) {
  ProcessResult r = Benchprof({"compare", "--filter=BM_Algorithm", kBase, kBase});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text;
  EXPECT_EQ(LastLine(r.stdout_text), "verdict: no regression (exit code 0)");

  // BM_Rare has 3 repetitions per side.
  r = Benchprof({"compare", kBase, kBase});
  EXPECT_EQ(r.exit_code, 2) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("Inconclusive:"), std::string::npos);

  TempDir dir;
  Write(dir.File("other.txt"), "BenchmarkOther 1 5 ns/op\n");
  Write(dir.File("mine.txt"), "BenchmarkMine 1 5 ns/op\n");
  r = Benchprof({"compare", dir.File("mine.txt"), dir.File("other.txt")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stdout_text.find("base and head share no benchmark"), std::string::npos);
}

TEST(CompareCliTest, SeveralFilesPerSide) {
  const ProcessResult r = Benchprof({"compare", "--format=json", kBase, kBase, "--", kHead, kHead});
  EXPECT_EQ(r.exit_code, 1);
  StatusOr<json::Value> doc = json::Parse(r.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(doc->Find("exit_code")->as_number(), 1);
  EXPECT_EQ(doc->Find("verdict")->as_string(), "regression");
  EXPECT_EQ(doc->Find("base_files")->as_array().size(), 2u);
  const json::Value& first = doc->Find("rows")->as_array().front();
  EXPECT_EQ(first.Find("base")->Find("n")->as_number(), 20);
}

TEST(CompareCliTest, OutputFormats) {
  ProcessResult r = Benchprof({"compare", "--format=markdown", kBase, kHead});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.stdout_text.rfind("### benchprof compare: regression", 0), 0u);
  EXPECT_NE(
      r.stdout_text.find("| `BM_Vector/8` | 1 | 2 | +100.00% | exact n=10 | **REGRESSION** |"),
      std::string::npos)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("Verdict: **regression (exit code 1)**"), std::string::npos);
}

TEST(CompareCliTest, EveryBadInputIsExitThreeWithOneLine) {
  TempDir dir;
  const std::string json = ReadFile(kBase);
  Write(dir.File("empty.json"), "");
  Write(dir.File("truncated.json"), json.substr(0, json.size() / 2));
  Write(dir.File("garbage.bin"), std::string("\x7f"
                                             "ELF\x02\x01\x01\0\0\0",
                                             10));
  Write(dir.File("other.json"), "{\"results\": []}");
  Write(dir.File("text.txt"), "BenchmarkBM_AlgorithmOne 1 5 ns/op\n");
  Write(dir.File("bad.txt"), "BenchmarkA 10 5\n");

  ExpectBadInput(Benchprof({"compare", dir.File("missing.json"), kHead}),
                 dir.File("missing.json") + ": cannot open: No such file or directory");
  ExpectBadInput(Benchprof({"compare", kBase, dir.File("empty.json")}),
                 dir.File("empty.json") + ": empty file");
  ExpectBadInput(Benchprof({"compare", kBase, dir.File("truncated.json")}),
                 "unexpected end of input (truncated?)");
  ExpectBadInput(Benchprof({"compare", dir.File("garbage.bin"), kHead}),
                 dir.File("garbage.bin") + ": binary file");
  ExpectBadInput(Benchprof({"compare", kBase, dir.File("other.json")}),
                 "other.json: not Google Benchmark JSON: no \"benchmarks\" array");
  ExpectBadInput(Benchprof({"compare", kBase, dir.File("text.txt")}),
                 "text.txt: is Go benchmark text but " + kBase + " is Google Benchmark JSON");
  ExpectBadInput(Benchprof({"compare", dir.File("bad.txt"), dir.File("text.txt")}),
                 "bad.txt: line 1: missing unit after 5");
  ExpectBadInput(Benchprof({"compare", kBase, kBase, "--", kHead, dir.File("text.txt")}),
                 "text.txt: is Go benchmark text");
  ExpectBadInput(Benchprof({"compare", dir.File("")}), "expected two files");
  ExpectBadInput(Benchprof({"compare", kBase}), "expected two files, BASE and HEAD");
  ExpectBadInput(Benchprof({"compare", kBase, kHead, kHead}), "(got 3;");
  ExpectBadInput(Benchprof({"compare", kBase, "--"}), "no head file");
  ExpectBadInput(Benchprof({"compare", "--bogus", kBase, kHead}), "unknown flag --bogus");
  ExpectBadInput(Benchprof({"compare", "--format=xml", kBase, kHead}),
                 "--format=xml: expected text, markdown, json or html");
  ExpectBadInput(Benchprof({"compare", "--alpha=1.5", kBase, kHead}), "--alpha=1.5");
  ExpectBadInput(Benchprof({"compare", "--confidence=x", kBase, kHead}), "--confidence=x");
  ExpectBadInput(Benchprof({"compare", "--threshold=time:fast", kBase, kHead}),
                 "--threshold=time:fast");
  ExpectBadInput(Benchprof({"compare", "--threshold=BM_(=time:5%", kBase, kHead}),
                 "invalid regular expression");
  ExpectBadInput(Benchprof({"compare", "--filter=(", kBase, kHead}), "--filter=(");
  ExpectBadInput(Benchprof({"compare", kBase, kHead, "--format"}),
                 "benchprof compare: --format: needs a value, as --format=text|markdown|json");
  ExpectBadInput(Benchprof({"compare", "--regressions-file=/nonexistent/dir/x", kBase, kHead}),
                 "--regressions-file");
  ExpectBadInput(Benchprof({"compare", kBase, dir.path()}), ": is a directory");
}

TEST(CompareCliTest, GoogleBenchmarkUpgrade) {
  // A 1.7.1 base against a 1.9.1 head: BM_AlgorithmOne regressed; BM_Gpu
  // skipped itself in head, which is listed and does not change the code.
  ProcessResult r = Benchprof({"compare", kUpgradeBase, kUpgradeHead});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(r.stderr_text, "");
  EXPECT_EQ(r.stdout_text.rfind("base: " + kUpgradeBase +
                                    " (Google Benchmark 1.7.1)\nhead: " + kUpgradeHead +
                                    " (Google Benchmark 1.9.1)\nnote: base and head were written "
                                    "by different Google Benchmark versions (base 1.7.1, head "
                                    "1.9.1); differences may come from the library\n",
                                0),
            0u)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("\nSkipped (not compared):\n  " + kUpgradeHead +
                               ": BM_Gpu: skipped (no GPU on this machine)\n"),
            std::string::npos)
      << r.stdout_text;
  EXPECT_EQ(r.stdout_text.find("only in"), std::string::npos) << r.stdout_text;

  r = Benchprof({"compare", "--filter=BM_AlgorithmTwo|BM_Gpu", kUpgradeBase, kUpgradeHead});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text;
  EXPECT_EQ(LastLine(r.stdout_text), "verdict: no regression (exit code 0)");
  EXPECT_NE(r.stdout_text.find("BM_Gpu: skipped (no GPU on this machine)"), std::string::npos);

  r = Benchprof({"compare", "--format=json", kUpgradeBase, kUpgradeHead});
  EXPECT_EQ(r.exit_code, 1);
  StatusOr<json::Value> doc = json::Parse(r.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(doc->Find("base_google_benchmark_versions")->as_array().front().as_string(), "1.7.1");
  EXPECT_EQ(doc->Find("head_google_benchmark_versions")->as_array().front().as_string(), "1.9.1");
  const json::Value& skipped = doc->Find("skipped_in_head")->as_array().at(0);
  EXPECT_EQ(skipped.Find("benchmark")->as_string(), "BM_Gpu");
  EXPECT_EQ(skipped.Find("message")->as_string(), "no GPU on this machine");
  EXPECT_EQ(skipped.Find("repetitions_skipped")->as_number(), 6);
}

TEST(CompareCliTest, UnknownSchemaVersionIsBadInput) {
  TempDir dir;
  std::string v2 = ReadFile(kUpgradeHead);
  const std::string v1 = "\"json_schema_version\": 1";
  ASSERT_NE(v2.find(v1), std::string::npos);
  v2.replace(v2.find(v1), v1.size(), "\"json_schema_version\": 2");
  Write(dir.File("v2.json"), v2);
  ExpectBadInput(Benchprof({"compare", kUpgradeBase, dir.File("v2.json")}),
                 "benchprof compare: " + dir.File("v2.json") +
                     ": unsupported json_schema_version 2 (this benchprof reads 1)");
  ExpectBadInput(Benchprof({"convert", dir.File("v2.json")}),
                 "benchprof convert: " + dir.File("v2.json") +
                     ": unsupported json_schema_version 2 (this benchprof reads 1)");
}

TEST(CompareCliTest, FlagsTakeTheirValueFromTheNextArgumentToo) {
  const ProcessResult r = Benchprof({"compare", "-format", "json", "-alpha", "0.01", kBase, kHead});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  StatusOr<json::Value> doc = json::Parse(r.stdout_text);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->Find("alpha")->as_number(), 0.01);
}

TEST(ConvertCliTest, ConvertsToGoText) {
  ProcessResult r = Benchprof({"convert", "--to=go", kBase});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, ReadFile(std::string(COMPARE_GOLDEN_DIR) + "/base.go.txt"));

  TempDir dir;
  r = Benchprof({"convert", "--out=" + dir.File("head.txt"), "--assume-exact", kHead});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.stdout_text, "");
  EXPECT_EQ(r.stderr_text, "benchprof convert: warning: " + kHead +
                               ": BM_Broken: 1 of 1 repetitions failed (boom); they are ignored\n");
  const std::string text = ReadFile(dir.File("head.txt"));
  EXPECT_EQ(text.rfind("Unit allocs/op assume=exact\nUnit B/op assume=exact\n", 0), 0u);

  // The converted files compare like the JSON they came from.
  Write(dir.File("base.txt"), ReadFile(std::string(COMPARE_GOLDEN_DIR) + "/base.go.txt"));
  r = Benchprof({"compare", dir.File("base.txt"), dir.File("head.txt")});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
}

TEST(ConvertCliTest, SkippedAndFailedBenchmarksAreLeftOutWithWarnings) {
  const ProcessResult r = Benchprof({"convert", kUpgradeHead});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stderr_text, "benchprof convert: warning: " + kUpgradeHead +
                               ": BM_Broken: 6 of 6 repetitions failed (boom); they are ignored\n"
                               "benchprof convert: warning: " +
                               kUpgradeHead + ": BM_Gpu: skipped (no GPU on this machine)\n");
  EXPECT_EQ(r.stdout_text,
            ReadFile(std::string(COMPARE_GOLDEN_DIR) + "/upgrade_head_1.9.1.go.txt"));
  EXPECT_EQ(r.stdout_text.find("BM_Gpu"), std::string::npos);
  EXPECT_EQ(r.stdout_text.find("BM_Broken"), std::string::npos);
}

TEST(ConvertCliTest, BadInputIsExitThree) {
  TempDir dir;
  Write(dir.File("text.txt"), "BenchmarkA 1 5 ns/op\n");
  Write(dir.File("bad.json"), "{\"benchmarks\": [{\"name\": 1}]}");
  ExpectBadInput(Benchprof({"convert", "--to=csv", kBase}), "the only output format is go");
  ExpectBadInput(Benchprof({"convert"}), "no input file");
  ExpectBadInput(Benchprof({"convert", dir.File("text.txt")}), "not Google Benchmark JSON");
  ExpectBadInput(Benchprof({"convert", dir.File("bad.json")}),
                 "bad.json: benchmarks[0]: \"name\" is a number, expected a string");
  ExpectBadInput(Benchprof({"convert", "--out=/nonexistent/x.txt", kBase}), "--out");
  ExpectBadInput(Benchprof({"convert", "--frob", kBase}),
                 "benchprof convert: unknown flag --frob (see benchprof convert --help)");
  ExpectBadInput(Benchprof({"convert", kBase, "--out"}),
                 "benchprof convert: --out: needs a value, as --out=FILE");
  EXPECT_FALSE(FileExists("/nonexistent/x.txt"));
}

// /dev/zero never ends; a NUL byte ends the reading at once.
TEST(CompareCliTest, BinaryInputStopsAtItsFirstNulByte) {
  ExpectBadInput(Benchprof({"compare", "/dev/zero", kBase}),
                 "benchprof compare: /dev/zero: binary file (NUL byte at offset 0)");
  ExpectBadInput(Benchprof({"convert", "/dev/zero"}),
                 "benchprof convert: /dev/zero: binary file (NUL byte at offset 0)");
  TempDir dir;
  Write(dir.File("late.txt"), std::string(70'000, ' ') + std::string(1, '\0'));
  ExpectBadInput(Benchprof({"compare", dir.File("late.txt"), kBase}),
                 "binary file (NUL byte at offset 70000)");
}

// Writes a Google Benchmark JSON file of `rows` rows as 1.7.1 writes them
// (about 450 bytes each), a row at a time.
void WriteLargeResults(const std::string& path, int rows) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << "{\n  \"context\": {\"host_name\": \"vm\", \"num_cpus\": 2},\n  \"benchmarks\": [\n";
  char row[1024];
  for (int i = 0; i < rows; ++i) {
    const int b = i % 2000;
    std::snprintf(row, sizeof row,
                  "%s    {\n      \"name\": \"BM_Workload%d/size:%d/threads:1\",\n"
                  "      \"family_index\": %d,\n      \"per_family_instance_index\": 0,\n"
                  "      \"run_name\": \"BM_Workload%d/size:%d/threads:1\",\n"
                  "      \"run_type\": \"iteration\",\n      \"repetitions\": 1000,\n"
                  "      \"repetition_index\": %d,\n      \"threads\": 1,\n"
                  "      \"iterations\": 123456,\n      \"real_time\": %.10e,\n"
                  "      \"cpu_time\": %.10e,\n      \"time_unit\": \"ns\",\n"
                  "      \"B/op\": 4.8000000000000000e+01,\n"
                  "      \"allocs/op\": 3.0000000000000000e+00\n    }",
                  i == 0 ? "" : ",\n", b, b * 8, b, b, b * 8, i / 2000, 1000.0 + b + i % 7,
                  990.0 + b + i % 5);
    out << row;
  }
  out << "\n  ]\n}\n";
}

// Reading a result file costs memory in proportion to what is kept of it,
// not to its text or a document tree: at most twice the file's size
// beyond what reading a small file costs (it was 3.7 times).
TEST(CompareCliTest, ALargeResultFileTakesAtMostTwiceItsSizeInMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer build: the sanitizer's shadow memory and quarantine set the peak";
#endif
  TempDir dir;
  const std::string large = dir.File("large.json");
  WriteLargeResults(large, 90'000);  // ~40 MB
  struct stat info;
  ASSERT_EQ(stat(large.c_str(), &info), 0);
  const long file_kb = static_cast<long>(info.st_size / 1024);
  ASSERT_GT(file_kb, 30 * 1024);
  // What a run costs that reads next to nothing (the test's own memory
  // included: the child's peak counts its parent's pages before exec).
  const ProcessResult small = Benchprof({"compare", kBase, kHead});
  ASSERT_NE(small.exit_code, 3) << small.stderr_text;
  const ProcessResult compared = Benchprof({"compare", large, kHead});
  EXPECT_NE(compared.exit_code, 3) << compared.stderr_text;
  EXPECT_LE(compared.max_rss_kb - small.max_rss_kb, 2 * file_kb)
      << "peak " << compared.max_rss_kb << " KB for a " << file_kb << " KB file";
  const ProcessResult converted = Benchprof({"convert", "--out=" + dir.File("large.txt"), large});
  EXPECT_EQ(converted.exit_code, 0) << converted.stderr_text;
  EXPECT_LE(converted.max_rss_kb - small.max_rss_kb, 2 * file_kb)
      << "peak " << converted.max_rss_kb << " KB for a " << file_kb << " KB file";
}

// A pipe or device might never end: it is read up to a bound, then bad
// input (was: an endless read, memory growing by GBs). /dev/urandom is
// binary and stops at once.
TEST(CompareCliTest, EndlessInputIsBadInputNotAnEndlessRead) {
  const std::string row =
      "{\"name\": \"BM_A/size:64/threads:1\", \"run_name\": \"BM_A/size:64/threads:1\", "
      "\"run_type\": \"iteration\", \"repetitions\": 1, \"repetition_index\": 0, \"threads\": "
      "1, \"iterations\": 100000, \"real_time\": 1.2345678901234567e+03, \"cpu_time\": "
      "1.2345678901234567e+03, \"time_unit\": \"ns\", \"B/op\": 48, \"allocs/op\": 3},";
  const std::vector<std::pair<std::string, std::string>> endless = {
      {"compare", "yes 'BenchmarkA 10 5 ns/op' 2>/dev/null | \"$0\" compare /dev/stdin \"$1\""},
      {"convert", "(printf '{\"benchmarks\": [\\n'; yes '" + row +
                      "') 2>/dev/null | \"$0\" convert /dev/stdin"}};
  for (const auto& [command, script] : endless) {
    SCOPED_TRACE(command);
    const ProcessResult result = RunProcess({"/bin/sh", "-c", script, BENCHPROF_PATH, kBase});
    ExpectBadInput(result, "benchprof " + command +
                               ": /dev/stdin: not a regular file, and more than 64 MiB long: "
                               "stopped reading");
    // Bounded memory: about what was read, not more (a sanitizer's shadow
    // memory sets the peak in its builds).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    EXPECT_LT(result.max_rss_kb, 400 * 1024);
#endif
    std::vector<std::string> random = {command, "/dev/urandom"};
    if (command == "compare") random.push_back(kBase);
    ExpectBadInput(Benchprof(random), "benchprof " + command + ": /dev/urandom: ");
  }
  // A result file through a pipe is read as usual (base against head: a
  // regression).
  const ProcessResult piped =
      RunProcess({"/bin/sh", "-c", "cat \"$1\" | \"$0\" compare /dev/stdin \"$2\"", BENCHPROF_PATH,
                  kBase, kHead});
  EXPECT_EQ(piped.exit_code, 1) << piped.stderr_text;
}

// Go text cut inside its last unit ("339 allo") would read as a metric of
// its own: a last result line without its newline is bad input.
TEST(CompareCliTest, GoTextCutInsideItsLastLineIsBadInput) {
  TempDir dir;
  const std::string whole = "BenchmarkA 10 5 ns/op 48 B/op 339 allocs/op\n";
  Write(dir.File("base.txt"), whole + whole);
  Write(dir.File("cut.txt"), whole + "BenchmarkA 10 5 ns/op 48 B/op 339 allo");
  ExpectBadInput(Benchprof({"compare", dir.File("base.txt"), dir.File("cut.txt")}),
                 "benchprof compare: " + dir.File("cut.txt") +
                     ": line 2: the text ends inside this result line (after \"allo\", no "
                     "newline): the file looks cut short");
  EXPECT_NE(Benchprof({"compare", dir.File("base.txt"), dir.File("base.txt")}).exit_code, 3);
}

// A --out that cannot be written says why.
TEST(ConvertCliTest, AFailedWriteSaysWhy) {
  TempDir dir;
  const std::string out = dir.File("out.txt");
  Write(out, "old");
  // A file size limit of 512 bytes, less than the output (as a full disk:
  // writes fail, EFBIG), SIGXFSZ ignored so that the write fails instead of
  // killing the process.
  const ProcessResult limited =
      RunProcess({"/bin/sh", "-c", "trap '' XFSZ; ulimit -f 1; exec \"$@\"", "sh", BENCHPROF_PATH,
                  "convert", "--out=" + out, kBase});
  ExpectBadInput(limited, "benchprof convert: " + out +
                              ": write failed (File too large); the file is unchanged");
  EXPECT_EQ(ReadFile(out), "old");
  EXPECT_EQ(testing::ListDirectory(dir.path()), std::vector<std::string>{"out.txt"});
  const ProcessResult full = Benchprof({"convert", "--out=/dev/full", kBase});
  ExpectBadInput(full, "benchprof convert: /dev/full: write failed (No space left on device)\n");
}

// A threshold for a metric the files do not have would change nothing
// silently; time, allocs/op and the default rules raise no warning.
TEST(CompareCliTest, AThresholdForNoMetricIsAWarning) {
  const ProcessResult typo = Benchprof({"compare", "--threshold=nosuch:5%,time:10%", kBase, kHead});
  EXPECT_EQ(typo.exit_code, 1) << typo.stderr_text;
  EXPECT_NE(typo.stdout_text.find("--threshold names metric \"nosuch\", which no compared "
                                  "benchmark has; the rule changes nothing"),
            std::string::npos)
      << typo.stdout_text;
  EXPECT_EQ(typo.stdout_text.find("metric \"time\""), std::string::npos) << typo.stdout_text;
  const ProcessResult fine = Benchprof({"compare", "--threshold=allocs/op:1", kBase, kHead});
  EXPECT_EQ(fine.stdout_text.find("--threshold names metric"), std::string::npos)
      << fine.stdout_text;
}

// A --regressions-file that cannot be written is reported, but does not
// hide the regression's exit code, nor pass for success.
TEST(CompareCliTest, AFailedRegressionsFileKeepsTheVerdict) {
  const ProcessResult regressed =
      Benchprof({"compare", "--regressions-file=/dev/full", kBase, kHead});
  EXPECT_EQ(regressed.exit_code, 1);
  EXPECT_EQ(regressed.stderr_text,
            "benchprof compare: --regressions-file: /dev/full: write failed (No space left on "
            "device)\n");
  EXPECT_NE(regressed.stdout_text.find("BM_AlgorithmOne"), std::string::npos);
  const ProcessResult same = Benchprof({"compare", "--regressions-file=/dev/full", kBase, kBase});
  EXPECT_EQ(same.exit_code, 3) << same.stderr_text;
}

// An output that is one of the inputs would overwrite it.
TEST(CompareCliTest, AnOutputThatIsAnInputIsRefused) {
  TempDir dir;
  const std::string base = dir.File("base.json");
  const std::string head = dir.File("head.json");
  Write(base, ReadFile(kBase));
  Write(head, ReadFile(kHead));
  ExpectBadInput(Benchprof({"convert", "--out=" + base, base}),
                 "--out=" + base + " and input " + base + " are the same file");
  ExpectBadInput(
      Benchprof({"compare", "--regressions-file=" + dir.path() + "/./head.json", base, head}),
      "and input " + head + " are the same file");
  EXPECT_EQ(ReadFile(base), ReadFile(kBase));
  EXPECT_EQ(ReadFile(head), ReadFile(kHead));
}

TEST(CompareCliTest, RealBenchOutput) {
  // What `bench --benchmem --benchmark_repetitions=N --benchmark_out=...`
  // writes is read as is; comparing a run with itself is never a regression.
  // Sanitizer builds count no allocations, so --benchmem is refused there.
  TempDir dir;
  const std::string out = dir.File("run.json");
  std::vector<std::string> argv = {BENCH_PATH,
                                   "--benchmark_filter=BM_Algorithm",
                                   "--benchmark_repetitions=5",
                                   "--benchmark_min_time=0.01",
                                   "--benchmark_out=" + out,
                                   "--benchmark_out_format=json"};
  if (ALLOC_HOOKS_ENABLED) argv.push_back("--benchmem");
  const ProcessResult bench = RunProcess(argv);
  ASSERT_EQ(bench.exit_code, 0) << bench.stderr_text;
  ProcessResult r = Benchprof({"compare", out, out});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("BM_AlgorithmOne"), std::string::npos) << r.stdout_text;
  if (ALLOC_HOOKS_ENABLED) {
    EXPECT_NE(r.stdout_text.find("allocs/op"), std::string::npos) << r.stdout_text;
    EXPECT_NE(r.stdout_text.find("exact n=5"), std::string::npos) << r.stdout_text;
  }

  r = Benchprof({"convert", "--to=go", out});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const StatusOr<results::GoBenchText> text = results::ParseGoBenchText(r.stdout_text);
  ASSERT_TRUE(text.ok()) << text.status().message();
  ASSERT_GE(text->results.size(), 10u);  // 2+ benchmarks x 5 repetitions
  for (const results::GoBenchResult& result : text->results) {
    EXPECT_EQ(result.name.rfind("BM_Algorithm", 0), 0u) << result.name;
    EXPECT_EQ(result.values.front().first, "ns/op");
    if (ALLOC_HOOKS_ENABLED) {
      EXPECT_EQ(result.values.back().first, "allocs/op");
    }
  }
}

}  // namespace
}  // namespace benchprof

namespace benchprof {
namespace {

// A result file as bench --instructions writes it: one run per benchmark,
// times measured under Valgrind (`cpu_ns` differs wildly between files).
std::string InstructionsResult(double instructions_a, double instructions_b, double cpu_ns) {
  auto row = [&](const char* name, double instructions) {
    return std::string(R"({"name": ")") + name + R"(", "run_name": ")" + name +
           R"(", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
        "threads": 1, "iterations": 5000, "real_time": )" +
           std::to_string(cpu_ns * 3) + R"(, "cpu_time": )" + std::to_string(cpu_ns) +
           R"(, "time_unit": "ns", "allocs/op": 2, "B/op": 37, "instructions/op": )" +
           std::to_string(instructions) + "}";
  };
  return R"json({"context": {"date": "2026-11-26T16:00:00+00:00", "host_name": "ci",
      "executable": "bench", "num_cpus": 2, "mhz_per_cpu": 2300,
      "cpu_scaling_enabled": false, "caches": [], "load_avg": [],
      "library_build_type": "release", "benchprof_instructions": "callgrind",
      "benchprof_timings": "not comparable: measured under Valgrind's callgrind (--instructions)",
      "google_benchmark_version": "1.7.1"},
    "benchmarks": [)json" +
         row("BM_A", instructions_a) + ",\n" + row("BM_B", instructions_b) + "]}\n";
}

TEST(CompareCliTest, InstructionsAreAnExactMetricAndValgrindTimesAreIgnored) {
  TempDir dir;
  const std::string base = dir.File("base.json");
  Write(base, InstructionsResult(10000, 2000, 50000));
  struct Case {
    const char* name;
    double a;
    std::vector<std::string> flags;
    int exit_code;
  };
  const Case cases[] = {
      {"identical", 10000, {}, 0},
      {"0.5% more: within the default 1%", 10050, {}, 0},
      {"2% more: a regression", 10200, {}, 1},
      {"2% fewer: an improvement", 9800, {}, 0},
      {"2% more, allowed for BM_A by a regex", 10200, {"--threshold=BM_A=instructions/op:3%"}, 0},
      {"0.5% more, gated at 0.1%", 10050, {"--threshold=instructions/op:0.1%"}, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string head = dir.File("head.json");
    // Head's times are 10x base's: they must not count.
    Write(head, InstructionsResult(c.a, 2000, 500000));
    std::vector<std::string> args = {"compare"};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    args.push_back(base);
    args.push_back(head);
    const ProcessResult r = Benchprof(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.stdout_text << r.stderr_text;
    EXPECT_EQ(r.stdout_text.find("cpu_time"), std::string::npos) << r.stdout_text;
    EXPECT_NE(r.stdout_text.find("instructions/op"), std::string::npos) << r.stdout_text;
    EXPECT_NE(r.stdout_text.find("times measured under Valgrind"), std::string::npos)
        << r.stdout_text << r.stderr_text;
    if (c.exit_code == 1) {
      EXPECT_NE(r.stdout_text.find("exact rule"), std::string::npos) << r.stdout_text;
    }
  }
}

}  // namespace
}  // namespace benchprof
