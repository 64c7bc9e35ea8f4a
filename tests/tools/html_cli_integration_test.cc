// `benchprof flamegraph`, `benchprof report` and `benchprof compare
// --format=html` on what bench writes for
// the stream workload: each graph's frames sum to the profile's total for
// the chosen sample type and label, a profile re-encoded by `go tool pprof`
// (another writer) draws the same graph, the report's table and trace
// summary say what the files say, the comparison page has a differential
// graph per regressed benchmark with samples, and bad input is one line,
// exit code 3 and no file. Every page is well-formed HTML (CheckHtml).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "encode/gzip.h"
#include "encode/pprof_reader.h"
#include "support/flamegraph_test_data.h"
#include "support/go_pprof.h"
#include "support/html_document.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using encode::ProfileData;
using testing::GraphsOnPage;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::ShownGraph;
using testing::TempDir;

class HtmlCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const ProcessResult bench = RunProcess(
        {BENCH_PATH, "--benchmark_filter=BM_Algorithm", "--benchmem", "--benchmark_min_time=0.2",
         "--cpuprofilerate=250", "--cpuprofile=" + dir_->File("cpu.pprof"), "--memprofilerate=1",
         "--memprofile=" + dir_->File("mem.pprof"), "--benchmark_out=" + dir_->File("results.json"),
         "--benchmark_out_format=json", "--trace=" + dir_->File("trace.json")});
    ASSERT_EQ(bench.exit_code, 0) << bench.stderr_text;
  }
  static void TearDownTestSuite() { delete dir_; }

  static ProcessResult Flamegraph(const std::vector<std::string>& args) {
    return Benchprof("flamegraph", args);
  }

  static ProcessResult Benchprof(const std::string& command, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {BENCHPROF_PATH, command};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProcess(argv);
  }

  // The one graph of a flamegraph page.
  static ShownGraph Graph(const std::string& path) {
    const std::vector<ShownGraph> graphs = GraphsOnPage(ReadFile(path));
    EXPECT_EQ(graphs.size(), 1u) << path;
    return graphs.empty() ? ShownGraph{} : graphs[0];
  }

  static ProfileData Profile(const std::string& name) {
    StatusOr<ProfileData> p = encode::ReadProfile(ReadFile(dir_->File(name)));
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? *p : ProfileData{};
  }

  static TempDir* dir_;
};

TempDir* HtmlCliTest::dir_ = nullptr;

// The sum of sample_types[index] over the samples whose benchmark label is
// `benchmark` (any when empty), computed from the profile directly.
double Total(const ProfileData& p, size_t index, const std::string& benchmark = "") {
  double total = 0;
  for (const auto& s : p.samples) {
    const bool kept =
        benchmark.empty() ||
        std::any_of(s.labels.begin(), s.labels.end(), [&](const encode::ProfileLabel& l) {
          return l.key == "benchmark" && l.str == benchmark;
        });
    if (kept) total += static_cast<double>(s.values[index]);
  }
  return total;
}

bool HasFunction(const ShownGraph& graph, const std::string& function) {
  return std::any_of(graph.frames.begin(), graph.frames.end(),
                     [&](const testing::ShownFrame& f) { return f.function == function; });
}

TEST_F(HtmlCliTest, CpuGraphSumsToTheProfileTotal) {
  const std::string out = dir_->File("cpu.html");
  const ProcessResult r = Flamegraph({dir_->File("cpu.pprof"), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stderr_text, "");
  const ShownGraph graph = Graph(out);
  EXPECT_EQ(graph.type, "cpu");  // the last type: a CPU profile names no default
  EXPECT_EQ(graph.unit, "nanoseconds");
  const ProfileData p = Profile("cpu.pprof");
  EXPECT_GT(Total(p, 1), 0);
  EXPECT_EQ(testing::CheckNestedWidths(graph), Total(p, 1));
  for (const char* function : {"benchprof::stream::algOne", "benchprof::stream::algTwo"}) {
    EXPECT_TRUE(HasFunction(graph, function)) << function;
  }
  const auto alg_one = std::find_if(graph.frames.begin(), graph.frames.end(), [](const auto& f) {
    return f.function == "benchprof::stream::algOne";
  });
  ASSERT_NE(alg_one, graph.frames.end());
  EXPECT_NE(alg_one->location.find("stream"), std::string::npos) << alg_one->location;
  EXPECT_NE(alg_one->location.find(".cc:"), std::string::npos) << alg_one->location;
  const std::string page = ReadFile(out);
  EXPECT_EQ(testing::CheckHtml(page), "") << out;
  // Self-contained: nothing on the page is fetched.
  for (const char* fetch : {"http:", "https:", " src=", " href=", "url(", "@import"}) {
    EXPECT_EQ(page.find(fetch), std::string::npos) << fetch;
  }
}

TEST_F(HtmlCliTest, SampleIndexAndTagFocusChooseWhatIsSummed) {
  const ProfileData p = Profile("mem.pprof");
  const std::string out = dir_->File("alg1.html");
  ProcessResult r = Flamegraph({"--tagfocus=benchmark=BM_AlgorithmOne", dir_->File("mem.pprof"),
                                "--sample_index=alloc_space", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  ShownGraph graph = Graph(out);
  EXPECT_EQ(graph.type, "alloc_space");
  EXPECT_GT(Total(p, 1, "BM_AlgorithmOne"), 0);
  EXPECT_EQ(testing::CheckNestedWidths(graph), Total(p, 1, "BM_AlgorithmOne"));
  EXPECT_TRUE(HasFunction(graph, "benchprof::stream::algOne"));
  EXPECT_FALSE(HasFunction(graph, "benchprof::stream::algTwo"));

  r = Flamegraph({"--sample_index=0", dir_->File("mem.pprof"), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  graph = Graph(out);
  EXPECT_EQ(graph.type, "alloc_objects");
  EXPECT_EQ(testing::CheckNestedWidths(graph), Total(p, 0));
  // The default is the profile's default_sample_type.
  r = Flamegraph({dir_->File("mem.pprof"), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(Graph(out).type, p.default_sample_type);
}

TEST_F(HtmlCliTest, OtherWritersProfilesDrawTheSameGraph) {
  // Uncompressed protobuf.
  StatusOr<std::string> raw = encode::GzipDecompress(ReadFile(dir_->File("cpu.pprof")));
  ASSERT_TRUE(raw.ok());
  std::ofstream(dir_->File("cpu.pb"), std::ios::binary) << *raw;
  ProcessResult r = Flamegraph({dir_->File("cpu.pprof"), "-o", dir_->File("a.html")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  r = Flamegraph({dir_->File("cpu.pb"), "-o", dir_->File("b.html")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::vector<ShownGraph> ours = GraphsOnPage(ReadFile(dir_->File("a.html")));
  ASSERT_EQ(ours.size(), 1u);
  ASSERT_EQ(GraphsOnPage(ReadFile(dir_->File("b.html"))).size(), 1u);
  EXPECT_EQ(GraphsOnPage(ReadFile(dir_->File("b.html")))[0].frames.size(), ours[0].frames.size());

  // Re-encoded by Go's pprof: its own string table, ids and gzip.
  if (std::string(GO_PATH).empty()) GTEST_SKIP() << "no go binary (ci/setup-debian)";
  TempDir home;
  const ProcessResult go = testing::RunGoPprof(
      GO_PATH, {"-proto", "-output=" + dir_->File("go.pb.gz"), dir_->File("cpu.pprof")}, home);
  ASSERT_EQ(go.exit_code, 0) << go.stderr_text;
  r = Flamegraph({dir_->File("go.pb.gz"), "-o", dir_->File("c.html")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::vector<ShownGraph> theirs = GraphsOnPage(ReadFile(dir_->File("c.html")));
  ASSERT_EQ(theirs.size(), 1u);
  ASSERT_EQ(theirs[0].frames.size(), ours[0].frames.size());
  for (size_t i = 0; i < ours[0].frames.size(); ++i) {
    EXPECT_EQ(theirs[0].frames[i].function, ours[0].frames[i].function) << i;
    EXPECT_EQ(theirs[0].frames[i].value, ours[0].frames[i].value) << i;
  }
}

TEST_F(HtmlCliTest, DiffBaseCarriesTheBaseTotals) {
  const std::string out = dir_->File("diff.html");
  const ProcessResult r =
      Flamegraph({"--diff_base=" + dir_->File("mem.pprof"), "--tagfocus=benchmark=BM_Algorithm",
                  "--sample_index=alloc_objects", dir_->File("mem.pprof"), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(testing::CheckHtml(ReadFile(out)), "") << out;
  const ShownGraph graph = Graph(out);
  ASSERT_TRUE(graph.diff);
  const ProfileData p = Profile("mem.pprof");
  EXPECT_EQ(testing::CheckNestedWidths(graph), Total(p, 0));
  for (const auto& frame : graph.frames) EXPECT_EQ(frame.base, frame.value) << frame.function;
}

// -o FILE.svg (any case): a standalone SVG document, well-formed, whose
// frames nest and sum to the total of the chosen sample type; any other
// name: HTML.
TEST_F(HtmlCliTest, SvgNameGivesAnSvgDocumentOfTheChosenSampleType) {
  const ProfileData p = Profile("mem.pprof");
  const std::string out = dir_->File("mem.SVG");
  ProcessResult r =
      Flamegraph({dir_->File("mem.pprof"), "--sample_index=alloc_objects", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string svg = ReadFile(out);
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"", 0), 0u) << svg.substr(0, 200);
  const ShownGraph graph = testing::GraphOfSvg(svg);
  ASSERT_FALSE(graph.frames.empty());
  EXPECT_GT(Total(p, 0), 0);
  EXPECT_EQ(testing::CheckNestedWidths(graph), Total(p, 0));
  EXPECT_EQ(testing::CheckNestedRectangles(graph), 118000);
  EXPECT_TRUE(HasFunction(graph, "benchprof::stream::algOne"));
  EXPECT_NE(svg.find("alloc_objects"), std::string::npos) << "the subtitle names the type";

  r = Flamegraph({dir_->File("cpu.pprof"), "-o", dir_->File("cpu.svg.html")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(GraphsOnPage(ReadFile(dir_->File("cpu.svg.html"))).size(), 1u);
}

// --help says which formats there are and what a differential graph's
// colours mean, as docs/flamegraphs.md does.
TEST_F(HtmlCliTest, FlamegraphHelpNamesTheFormatsAndTheNormalisation) {
  const ProcessResult r = Flamegraph({"--help"});
  ASSERT_EQ(r.exit_code, 0);
  std::string help = r.stdout_text;
  std::replace(help.begin(), help.end(), '\n', ' ');
  for (const char* said :
       {"ends in .svg", "SVG", "HTML", "grey did not change", "head - base x (head total /",
        "-diff_base -normalize", "plain -diff_base scales nothing"}) {
    EXPECT_NE(help.find(said), std::string::npos) << said;
  }
  EXPECT_EQ(help.find("white"), std::string::npos);
}

struct BadCase {
  std::vector<std::string> args;
  std::string message;
};

// Each case: exit code 3, one line naming the command, nothing new in `dir`.
void ExpectBadInput(const std::string& command, const std::vector<BadCase>& cases,
                    const TempDir& dir) {
  std::vector<std::string> before = testing::ListDirectory(dir.path());
  std::sort(before.begin(), before.end());
  for (const BadCase& c : cases) {
    std::vector<std::string> argv = {BENCHPROF_PATH, command};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const ProcessResult r = RunProcess(argv);
    EXPECT_EQ(r.exit_code, 3) << c.message;
    EXPECT_EQ(r.stdout_text, "") << c.message;
    EXPECT_EQ(r.stderr_text.rfind("benchprof " + command + ": ", 0), 0u) << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find(c.message), std::string::npos) << r.stderr_text;
    std::vector<std::string> after = testing::ListDirectory(dir.path());
    std::sort(after.begin(), after.end());
    EXPECT_EQ(after, before) << c.message;
  }
}

TEST_F(HtmlCliTest, FlamegraphBadInputIsOneLineExitCodeThreeAndNoFile) {
  TempDir scratch;
  std::ofstream(scratch.File("results.json")) << ReadFile(dir_->File("results.json"));
  const std::string cpu = ReadFile(dir_->File("cpu.pprof"));
  std::ofstream(scratch.File("truncated.pprof"), std::ios::binary) << cpu.substr(0, cpu.size() / 2);
  std::ofstream(scratch.File("cpu.pprof"), std::ios::binary) << cpu;
  const std::string out = scratch.File("out.html");
  ExpectBadInput(
      "flamegraph",
      {
          {{scratch.File("results.json"), "-o", out}, "not a readable pprof profile"},
          {{scratch.File("truncated.pprof"), "-o", out}, "gzip"},
          {{scratch.File("missing.pprof"), "-o", out}, "cannot open"},
          {{"--sample_index=alloc_space", scratch.File("cpu.pprof"), "-o", out},
           "no sample type \"alloc_space\" (the profile has 0=samples, 1=cpu)"},
          {{"--sample_index=7", scratch.File("cpu.pprof"), "-o", out}, "no sample type \"7\""},
          {{"--tagfocus=benchmark=BM_Nothing", scratch.File("cpu.pprof"), "-o", out},
           "--tagfocus=benchmark=BM_Nothing matches no sample"},
          {{"--tagfocus=benchmark=(", scratch.File("cpu.pprof"), "-o", out}, "invalid regex"},
          {{scratch.File("cpu.pprof"), "-o", scratch.File("no/such/dir/out.html")}, "-o:"},
          {{scratch.File("cpu.pprof"), "-o", scratch.path()}, "-o:"},
          {{scratch.File("cpu.pprof"), "-o", scratch.File("cpu.pprof")}, "same file"},
          {{scratch.File("cpu.pprof")}, "-o FILE is required"},
          {{"--diff_base=" + scratch.File("results.json"), scratch.File("cpu.pprof"), "-o", out},
           "not a readable pprof profile"},
          {{"--diff_base=" + dir_->File("mem.pprof"), scratch.File("cpu.pprof"), "-o", out},
           "no sample type \"cpu\""},
      },
      scratch);
}

// A write past `ulimit -f` fails (EFBIG) as on a full disk: one line, exit
// code 3, the previous file kept and no temporary left (the tool is not
// killed by SIGXFSZ mid-write).
TEST_F(HtmlCliTest, AFailedWriteKeepsThePreviousFileAndLeavesNoTemporary) {
  TempDir scratch;
  for (const char* name : {"out.html", "out.svg"}) {
    const std::string out = scratch.File(name);
    std::ofstream(out) << "previous";
    const ProcessResult r = RunProcess(
        {"/bin/sh", "-c", "ulimit -f 1 && exec \"$0\" flamegraph \"$1\" -o \"$2\"",
         BENCHPROF_PATH, dir_->File("cpu.pprof"), out});
    EXPECT_EQ(r.exit_code, 3) << name << ": " << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("File too large"), std::string::npos) << r.stderr_text;
    EXPECT_EQ(ReadFile(out), "previous") << name;
  }
  size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scratch.path())) {
    EXPECT_EQ(entry.path().filename().string().rfind("out.", 0), 0u) << entry.path();
    ++entries;
  }
  EXPECT_EQ(entries, 2u);
}

TEST_F(HtmlCliTest, ReportShowsResultsProfilesPerBenchmarkAndTheTrace) {
  const std::string out = dir_->File("report.html");
  const ProcessResult r =
      Benchprof("report", {dir_->File("results.json"), "--cpuprofile=" + dir_->File("cpu.pprof"),
                           "--memprofile=" + dir_->File("mem.pprof"),
                           "--trace=" + dir_->File("trace.json"), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string page = ReadFile(out);
  EXPECT_EQ(testing::CheckHtml(page), "") << out;

  // The table: a row per benchmark, its counters.
  for (const char* cell : {"<th>allocs/op</th>", "<th>B/op</th>", "<th>Iterations</th>",
                           ">BM_AlgorithmOne</a></td>", ">BM_AlgorithmTwo</a></td>"}) {
    EXPECT_NE(page.find(cell), std::string::npos) << cell;
  }
  // BM_AlgorithmOne's allocs/op and B/op, as the JSON has them.
  StatusOr<json::Value> results = json::Parse(ReadFile(dir_->File("results.json")));
  ASSERT_TRUE(results.ok());
  const json::Value& first = results->Find("benchmarks")->as_array().at(0);
  ASSERT_EQ(first.Find("name")->as_string(), "BM_AlgorithmOne");
  const std::string counters =
      "<td>" + std::to_string(std::lround(first.Find("allocs/op")->as_number())) + "</td><td>" +
      std::to_string(std::lround(first.Find("B/op")->as_number())) + "</td>";
  EXPECT_NE(page.find(counters), std::string::npos) << counters;

  // Graphs: per benchmark in file order, CPU then heap, each only with
  // samples, each summing to that benchmark's samples.
  const ProfileData cpu = Profile("cpu.pprof");
  const ProfileData mem = Profile("mem.pprof");
  std::vector<double> expected;
  for (const char* benchmark : {"BM_AlgorithmOne", "BM_AlgorithmTwo"}) {
    if (Total(cpu, 1, benchmark) > 0) expected.push_back(Total(cpu, 1, benchmark));
    if (Total(mem, 1, benchmark) > 0) expected.push_back(Total(mem, 1, benchmark));
  }
  EXPECT_GE(expected.size(), 3u) << "CPU samples for both, heap samples for BM_AlgorithmOne";
  std::vector<double> shown;
  for (const ShownGraph& graph : GraphsOnPage(page)) {
    shown.push_back(testing::CheckNestedWidths(graph));
  }
  EXPECT_EQ(shown, expected);

  // The trace summary is trace-summary's.
  const ProcessResult summary = Benchprof("trace-summary", {dir_->File("trace.json")});
  ASSERT_EQ(summary.exit_code, 0) << summary.stderr_text;
  std::string escaped;
  for (const char c : summary.stdout_text) {
    escaped += c == '<'    ? "&lt;"
               : c == '>'  ? "&gt;"
               : c == '&'  ? "&amp;"
               : c == '"'  ? "&quot;"
               : c == '\'' ? "&#39;"
                           : std::string(1, c);
  }
  EXPECT_NE(page.find("<pre>" + escaped + "</pre>"), std::string::npos);

  // Self-contained, printable, narrow-screen ready.
  for (const char* fetch : {"http:", "https:", " src=", "url(", "@import"}) {
    EXPECT_EQ(page.find(fetch), std::string::npos) << fetch;
  }
  EXPECT_EQ(page.find(" href=\"#bench-"), page.find(" href=")) << "only links within the page";
  EXPECT_NE(page.find("@media print"), std::string::npos);
  EXPECT_NE(page.find("name=\"viewport\""), std::string::npos);
}

TEST_F(HtmlCliTest, ReportBadInputIsOneLineExitCodeThreeAndNoFile) {
  TempDir scratch;
  std::ofstream(scratch.File("results.json")) << ReadFile(dir_->File("results.json"));
  std::ofstream(scratch.File("cpu.pprof"), std::ios::binary) << ReadFile(dir_->File("cpu.pprof"));
  std::ofstream(scratch.File("broken.json")) << "{\"benchmarks\": [";
  const std::string results = scratch.File("results.json");
  const std::string out = scratch.File("out.html");
  ExpectBadInput(
      "report",
      {
          {{scratch.File("cpu.pprof"), "-o", out}, "cpu.pprof"},
          {{scratch.File("broken.json"), "-o", out}, "broken.json"},
          {{results, "--cpuprofile=" + results, "-o", out}, "not a readable pprof profile"},
          {{results, "--memprofile=" + scratch.File("none.pprof"), "-o", out}, "cannot open"},
          {{results, "--trace=" + scratch.File("cpu.pprof"), "-o", out}, "cpu.pprof"},
          {{results, "-o", scratch.File("no/dir/out.html")}, "-o:"},
          {{results, "-o", results}, "same file"},
          {{results}, "-o FILE is required"},
      },
      scratch);
}

TEST_F(HtmlCliTest, ComparePageHasTheTablesAndTheRegressionsDiffs) {
  // The test data's head regresses BM_AlgorithmOne (time) and BM_Vector/8
  // (allocations); the profiles have samples of BM_AlgorithmOne only.
  const std::string out = dir_->File("compare.html");
  const ProcessResult r = Benchprof(
      "compare", {"--format=html", "--base-cpuprofile=" + dir_->File("cpu.pprof"),
                  "--head-cpuprofile=" + dir_->File("cpu.pprof"),
                  "--base-memprofile=" + dir_->File("mem.pprof"),
                  "--head-memprofile=" + dir_->File("mem.pprof"), COMPARE_TESTDATA_DIR "/base.json",
                  COMPARE_TESTDATA_DIR "/head.json", "-o", out});
  EXPECT_EQ(r.exit_code, 1) << "the verdict is the exit code: " << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "");
  const std::string page = ReadFile(out);
  EXPECT_EQ(testing::CheckHtml(page), "") << out;
  EXPECT_NE(page.find("<tr class=\"regression\"><td>BM_AlgorithmOne</td>"), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"regression\"><td>BM_Vector/8</td>"), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"improvement\"><td>BM_Parse/real_time</td>"), std::string::npos);
  EXPECT_NE(page.find("Verdict: regression (exit code 1)"), std::string::npos);
  EXPECT_NE(page.find("<h3>BM_Vector/8</h3>\n<p class=\"meta\">No samples of this benchmark in "
                      "both profiles"),
            std::string::npos);

  const ProfileData cpu = Profile("cpu.pprof");
  const ProfileData mem = Profile("mem.pprof");
  const std::vector<ShownGraph> graphs = GraphsOnPage(page);
  ASSERT_EQ(graphs.size(), 2u) << "BM_AlgorithmOne: CPU and heap";
  const double totals[] = {Total(cpu, 1, "BM_AlgorithmOne"), Total(mem, 1, "BM_AlgorithmOne")};
  for (size_t i = 0; i < graphs.size(); ++i) {
    EXPECT_TRUE(graphs[i].diff);
    EXPECT_EQ(testing::CheckNestedWidths(graphs[i]), totals[i]);
    EXPECT_EQ(graphs[i].frames[0].base, totals[i]);
  }

  // Repeated profile flags pool their samples: the head twice over.
  const ProcessResult pooled = Benchprof(
      "compare", {"--format=html", "--base-cpuprofile=" + dir_->File("cpu.pprof"),
                  "--head-cpuprofile=" + dir_->File("cpu.pprof"),
                  "--head-cpuprofile=" + dir_->File("cpu.pprof"), COMPARE_TESTDATA_DIR "/base.json",
                  COMPARE_TESTDATA_DIR "/head.json", "-o", out});
  EXPECT_EQ(pooled.exit_code, 1) << pooled.stderr_text;
  const std::vector<ShownGraph> pooled_graphs = GraphsOnPage(ReadFile(out));
  ASSERT_EQ(pooled_graphs.size(), 1u);
  EXPECT_EQ(pooled_graphs[0].frames[0].value, 2 * totals[0]);
  EXPECT_EQ(pooled_graphs[0].frames[0].base, totals[0]);

  // A base that never allocated in the regressed benchmark (BM_AlgorithmTwo
  // allocates nothing): the head's heap graph, all of it new.
  const ProcessResult two =
      RunProcess({BENCH_PATH, "--benchmark_filter=BM_AlgorithmTwo", "--benchmark_min_time=0.01",
                  "--memprofilerate=1", "--memprofile=" + dir_->File("mem-two.pprof"),
                  "--cpuprofile=" + dir_->File("cpu-two.pprof")});
  ASSERT_EQ(two.exit_code, 0) << two.stderr_text;
  const ProcessResult no_base = Benchprof(
      "compare", {"--format=html", "--base-memprofile=" + dir_->File("mem-two.pprof"),
                  "--head-memprofile=" + dir_->File("mem.pprof"), COMPARE_TESTDATA_DIR "/base.json",
                  COMPARE_TESTDATA_DIR "/head.json", "-o", out});
  EXPECT_EQ(no_base.exit_code, 1) << no_base.stderr_text;
  const std::vector<ShownGraph> new_graphs = GraphsOnPage(ReadFile(out));
  ASSERT_EQ(new_graphs.size(), 1u) << "BM_AlgorithmOne: heap";
  EXPECT_TRUE(new_graphs[0].diff);
  EXPECT_EQ(new_graphs[0].frames[0].value, totals[1]);
  EXPECT_EQ(new_graphs[0].frames[0].base, 0);
  // Not so for CPU profiles: no samples of a benchmark there say nothing.
  const ProcessResult no_cpu_base = Benchprof(
      "compare", {"--format=html", "--base-cpuprofile=" + dir_->File("cpu-two.pprof"),
                  "--head-cpuprofile=" + dir_->File("cpu.pprof"), COMPARE_TESTDATA_DIR "/base.json",
                  COMPARE_TESTDATA_DIR "/head.json", "-o", out});
  EXPECT_EQ(no_cpu_base.exit_code, 1) << no_cpu_base.stderr_text;
  EXPECT_TRUE(GraphsOnPage(ReadFile(out)).empty());

  // Without -o, the page goes to standard output.
  const ProcessResult stdout_page = Benchprof(
      "compare",
      {"--format=html", COMPARE_TESTDATA_DIR "/base.json", COMPARE_TESTDATA_DIR "/head.json"});
  EXPECT_EQ(stdout_page.exit_code, 1);
  EXPECT_EQ(testing::CheckHtml(stdout_page.stdout_text), "");
}

TEST_F(HtmlCliTest, CompareHtmlBadInputIsOneLineExitCodeThreeAndNoFile) {
  TempDir scratch;
  std::ofstream(scratch.File("base.json")) << ReadFile(COMPARE_TESTDATA_DIR "/base.json");
  std::ofstream(scratch.File("head.json")) << ReadFile(COMPARE_TESTDATA_DIR "/head.json");
  std::ofstream(scratch.File("cpu.pprof"), std::ios::binary) << ReadFile(dir_->File("cpu.pprof"));
  const std::string base = scratch.File("base.json"), head = scratch.File("head.json");
  const std::string cpu = scratch.File("cpu.pprof"), out = scratch.File("out.html");
  ExpectBadInput(
      "compare",
      {
          {{"--base-cpuprofile=" + cpu, "--head-cpuprofile=" + cpu, base, head, "-o", out},
           "the profile flags need --format=html"},
          {{"--format=html", "--base-cpuprofile=" + cpu, base, head, "-o", out},
           "profiles come in pairs"},
          {{"--format=html", "--base-cpuprofile=" + base, "--head-cpuprofile=" + cpu, base, head,
            "-o", out},
           "not a readable pprof profile"},
          {{"--format=html", base, head, "-o", scratch.File("no/dir/x.html")}, "-o:"},
          {{"--format=html", base, head, "-o", head}, "same file"},
          {{"--format=html", base, scratch.File("missing.json"), "-o", out}, "missing.json"},
      },
      scratch);
}

}  // namespace
}  // namespace benchprof
