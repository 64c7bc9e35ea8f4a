// benchprof's HTML pages and SVG flame graphs in headless Chromium (as the
// speedscope test runs it), loaded from file URLs with networking disabled:
// the page draws the expected functions, a click zooms (the "#click=NAME"
// hook clicks the frame's element; the DOM after it is dumped), a search
// sums its matches, a differential graph's colours follow the normalised
// change, a bad fragment is ignored, a million-frame-deep profile draws,
// and a screenshot is not blank. The time a 10,000-stack page takes
// to become usable is printed, not asserted.
//
// ci/setup-debian installs Chromium. Without it the test skips, saying so,
// unless BENCHPROF_REQUIRE_VIEWERS is set (ci/test sets it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "encode/pprof_writer.h"
#include "png_pixels.h"
#include "support/flamegraph_test_data.h"
#include "support/subprocess.h"
#include "support/synthetic_profile.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::RunProcess;
using testing::TempDir;

class HtmlBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::FileExists(CHROMIUM_PATH)) {
      const std::string missing = "no Chromium at " CHROMIUM_PATH " (ci/setup-debian)";
      ASSERT_EQ(std::getenv("BENCHPROF_REQUIRE_VIEWERS"), nullptr) << missing;
      GTEST_SKIP() << missing;
    }
  }

  // Chromium with no network: proxies to a closed port, names resolve to nothing.
  ProcessResult Browse(const std::vector<std::string>& what, const std::string& url) {
    std::vector<std::string> argv = {"/usr/bin/timeout",
                                     "120",
                                     CHROMIUM_PATH,
                                     "--headless",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--user-data-dir=" + dir_.File("chromium"),
                                     "--proxy-server=127.0.0.1:9",
                                     "--host-resolver-rules=MAP * ~NOTFOUND",
                                     "--window-size=1200,800"};
    argv.insert(argv.end(), what.begin(), what.end());
    argv.push_back(url);
    return RunProcess(argv);
  }

  std::string Dom(const std::string& url) {
    const ProcessResult r = Browse({"--virtual-time-budget=5000", "--dump-dom"}, url);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return r.stdout_text;
  }

  // The file URL of `benchprof flamegraph` of `profile` into NAME.html (or
  // NAME`extension`), with any `flags`.
  std::string Flamegraph(const encode::ProfileData& profile, const std::string& name,
                         const std::string& extension = ".html",
                         const std::vector<std::string>& flags = {}) {
    EXPECT_TRUE(encode::WriteProfileFile(profile, dir_.File(name + ".pprof")).ok());
    std::vector<std::string> argv = {BENCHPROF_PATH, "flamegraph", dir_.File(name + ".pprof"), "-o",
                                     dir_.File(name + extension)};
    argv.insert(argv.end(), flags.begin(), flags.end());
    const ProcessResult r = RunProcess(argv);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return "file://" + dir_.File(name + extension);
  }

  // A screenshot of `url` shows more than a blank page: several colours
  // (a frame colour per function at least) over part of it.
  void ExpectScreenshotNotBlank(const std::string& url) {
    const ProcessResult r = Browse({"--screenshot=" + dir_.File("shot.png")}, url);
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    const testing::Pixels pixels = testing::DecodePng(testing::ReadFile(dir_.File("shot.png")));
    ASSERT_FALSE(pixels.rgb.empty()) << "not a PNG Chromium would write";
    std::set<uint32_t> colors;
    size_t not_white = 0;
    for (const uint32_t px : pixels.rgb) {
      colors.insert(px);
      if (px != 0xffffff) ++not_white;
    }
    EXPECT_GE(colors.size(), 6u) << url;
    EXPECT_GT(not_white, pixels.rgb.size() / 20) << url;
  }

  TempDir dir_;
};

// main -> run -> {work -> helper, idle}.
encode::ProfileData SmallProfile() {
  encode::ProfileData p;
  p.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  p.period_type = {"cpu", "nanoseconds"};
  p.period = 10'000'000;
  p.functions = {{"main", "main", "/src/main.cc", 3},
                 {"run", "run", "/src/run.cc", 10},
                 {"work", "work", "/src/work.cc", 20},
                 {"helper", "helper", "/src/work.cc", 5},
                 {"idle", "idle", "/src/run.cc", 30}};
  for (size_t i = 0; i < p.functions.size(); ++i) {
    p.locations.push_back({0x100 * (i + 1), std::nullopt, {{i, 1}}});
  }
  p.samples = {{{3, 2, 1, 0}, {3, 30'000'000}, {}},
               {{2, 1, 0}, {1, 10'000'000}, {}},
               {{4, 1, 0}, {4, 40'000'000}, {}}};
  return p;
}

struct DrawnFrame {
  std::string name;
  double left = 0, width = 0;
  int top = 0;
  bool ancestor = false;
  std::string background;  // as the script wrote it: "rgb(255,45,45)"
};

// The frames the script drew, by name.
std::map<std::string, DrawnFrame> DrawnFrames(const std::string& dom) {
  static const std::regex frame(
      R"re(<div class="fg-f( fg-a)?" data-i="\d+" style="left: ?([0-9.]+)%; ?width: ?([0-9.]+)%; ?top: ?(\d+)px; ?background: ?([^;"]*);?">([^<]*)</div>)re");
  std::map<std::string, DrawnFrame> frames;
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), frame); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    frames[m[6]] =
        DrawnFrame{m[6], std::stod(m[2]), std::stod(m[3]), std::stoi(m[4]), m[1].matched, m[5]};
  }
  return frames;
}

std::string Attribute(const std::string& dom, const std::string& name) {
  const std::regex attribute(name + "=\"([^\"]*)\"");
  std::smatch m;
  return std::regex_search(dom, m, attribute) ? std::string(m[1]) : "<absent>";
}

TEST_F(HtmlBrowserTest, FlamegraphShowsFunctionsWithWidthsOfTheirValues) {
  const std::string url = Flamegraph(SmallProfile(), "small");
  // "#draw": drawn at load, not when the observer first reports the graph
  // visible, which headless Chromium may do after the DOM is dumped. The
  // screenshot test covers that lazy path.
  const std::map<std::string, DrawnFrame> frames = DrawnFrames(Dom(url + "#draw"));
  ASSERT_EQ(frames.size(), 6u) << "all, main, run, work, helper, idle";
  EXPECT_DOUBLE_EQ(frames.at("all").width, 100);
  EXPECT_DOUBLE_EQ(frames.at("run").width, 100);
  EXPECT_DOUBLE_EQ(frames.at("idle").width, 50);  // 40 of 80 ms
  EXPECT_DOUBLE_EQ(frames.at("work").width, 50);
  EXPECT_DOUBLE_EQ(frames.at("helper").width, 37.5);
  EXPECT_LT(frames.at("idle").left, frames.at("work").left);  // children sorted by name
  EXPECT_GT(frames.at("helper").top, frames.at("work").top);  // callees below
}

TEST_F(HtmlBrowserTest, ClickZoomsToTheFrameAndSearchSumsMatches) {
  const std::string url = Flamegraph(SmallProfile(), "small");
  const std::string dom = Dom(url + "#search=^(helper|work)$&click=work");
  EXPECT_EQ(Attribute(dom, "data-zoom"), "work");
  EXPECT_EQ(Attribute(dom, "data-matched"), "40000000") << "work holds helper: counted once";
  const std::map<std::string, DrawnFrame> frames = DrawnFrames(dom);
  ASSERT_EQ(frames.count("work"), 1u);
  EXPECT_DOUBLE_EQ(frames.at("work").width, 100);
  EXPECT_DOUBLE_EQ(frames.at("helper").width, 75);
  EXPECT_TRUE(frames.at("run").ancestor);
  EXPECT_EQ(frames.count("idle"), 0u) << "outside the zoomed frame";
}

TEST_F(HtmlBrowserTest, ScreenshotIsNotBlank) {
  ExpectScreenshotNotBlank(Flamegraph(SmallProfile(), "small"));
}

// The SVG document in Chromium: every function drawn; a click on work's
// frame (dispatched by the "#click=" hook) makes it fill the width, keeps
// its ancestors, hides idle; a search sums its matches once per path.
TEST_F(HtmlBrowserTest, SvgZoomsOnClickAndSearches) {
  const std::string url = Flamegraph(SmallProfile(), "small", ".svg");
  testing::ShownGraph graph = testing::GraphOfSvg(Dom(url));
  std::map<std::string, testing::ShownFrame> frames;
  for (const auto& frame : graph.frames) frames[frame.function] = frame;
  ASSERT_EQ(frames.size(), 6u) << "all, main, run, work, helper, idle";
  EXPECT_EQ(frames.at("idle").width, 59000);  // 40 of 80 ms of 1180 px, in hundredths
  EXPECT_FALSE(frames.at("idle").hidden);
  EXPECT_EQ(frames.at("helper").label, "helper");

  const std::string dom = Dom(url + "#search=^(helper|work)$&click=work");
  EXPECT_EQ(Attribute(dom, "data-zoom"), "work");
  EXPECT_EQ(Attribute(dom, "data-matched"), "40000000") << "work holds helper: counted once";
  graph = testing::GraphOfSvg(dom);
  frames.clear();
  for (const auto& frame : graph.frames) frames[frame.function] = frame;
  ASSERT_EQ(frames.count("work"), 1u);
  EXPECT_TRUE(frames.at("idle").hidden) << "a sibling of the zoomed frame hides";
  EXPECT_FALSE(frames.at("run").hidden) << "ancestors stay";
  EXPECT_EQ(frames.at("work").left, 1000);
  EXPECT_EQ(frames.at("work").width, 118000) << "the zoomed frame fills the width";
  EXPECT_EQ(frames.at("helper").width, 88500);  // 30 of work's 40 ms
  ExpectScreenshotNotBlank(url);
}

// A differential page whose base has twice the head's total: the base is
// scaled to the head's total before the change is coloured, so the same
// shape is grey throughout, and a shifted one is red and blue by how much
// each frame's share moved (flame_tree.h, NormalisedChange).
TEST_F(HtmlBrowserTest, DifferentialColoursScaleTheBaseToTheHeadsTotal) {
  encode::ProfileData base = SmallProfile();
  for (auto& sample : base.samples) {
    for (int64_t& value : sample.values) value *= 2;
  }
  EXPECT_TRUE(encode::WriteProfileFile(base, dir_.File("base.pprof")).ok());
  std::string url =
      Flamegraph(SmallProfile(), "head", ".html", {"--diff_base=" + dir_.File("base.pprof")});
  std::map<std::string, DrawnFrame> frames = DrawnFrames(Dom(url + "#draw"));
  ASSERT_EQ(frames.size(), 6u);
  for (const auto& [name, frame] : frames) {
    EXPECT_EQ(frame.background, "rgb(235,235,235)") << name << ": same shape, twice the total";
  }
  // Base: helper's stack 20 ms (head 30); scaled by 80 / 120: helper +16.7,
  // work +13.3, idle -13.3, run 0.
  base.samples[0].values = {2, 20'000'000};
  EXPECT_TRUE(encode::WriteProfileFile(base, dir_.File("base.pprof")).ok());
  url = Flamegraph(SmallProfile(), "head", ".html", {"--diff_base=" + dir_.File("base.pprof")});
  frames = DrawnFrames(Dom(url + "#draw"));
  ASSERT_EQ(frames.size(), 6u);
  EXPECT_EQ(frames.at("helper").background, "rgb(255,45,45)");
  EXPECT_EQ(frames.at("work").background, "rgb(255,83,83)");
  EXPECT_EQ(frames.at("idle").background, "rgb(83,83,255)");
  EXPECT_EQ(frames.at("run").background, "rgb(235,235,235)");
}

// SmallProfile's samples split between two benchmarks of the compare
// tests' result files.
encode::ProfileData LabelledProfile() {
  encode::ProfileData p = SmallProfile();
  const char* benchmarks[] = {"BM_AlgorithmOne", "BM_AlgorithmOne", "BM_Vector/8"};
  for (size_t i = 0; i < p.samples.size(); ++i) {
    p.samples[i].labels = {{"benchmark", benchmarks[i], 0, ""}};
  }
  return p;
}

TEST_F(HtmlBrowserTest, ReportShowsTheTableAndEachBenchmarksGraph) {
  ASSERT_TRUE(encode::WriteProfileFile(LabelledProfile(), dir_.File("cpu.pprof")).ok());
  const ProcessResult r =
      RunProcess({BENCHPROF_PATH, "report", COMPARE_TESTDATA_DIR "/head.json",
                  "--cpuprofile=" + dir_.File("cpu.pprof"), "-o", dir_.File("report.html")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string url = "file://" + dir_.File("report.html");
  const std::string dom = Dom(url + "#click=work");
  // Two graphs, BM_AlgorithmOne's (work, helper) and BM_Vector/8's (idle),
  // drawn; the click zoomed the first.
  const std::regex graph_data(R"re(<div class="fg"[^>]*data-zoom="([^"]*)")re");
  std::vector<std::string> zooms;
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), graph_data);
       it != std::sregex_iterator(); ++it) {
    zooms.push_back((*it)[1]);
  }
  EXPECT_EQ(zooms, (std::vector<std::string>{"work", "all"}));
  EXPECT_NE(dom.find(">helper</div>"), std::string::npos);
  EXPECT_NE(dom.find(">idle</div>"), std::string::npos);
  EXPECT_NE(dom.find(">BM_Vector/8</a></td>"), std::string::npos);

  ExpectScreenshotNotBlank(url);
}

TEST_F(HtmlBrowserTest, ComparePageColoursTheRegressionsChange) {
  // BM_AlgorithmOne: helper grows from 10 to 30 ms, work's own time shrinks
  // from 30 to 10 ms; work as a whole is unchanged.
  const encode::ProfileData head = LabelledProfile();
  encode::ProfileData base = head;
  base.samples[0].values = {1, 10'000'000};
  base.samples[1].values = {3, 30'000'000};
  ASSERT_TRUE(encode::WriteProfileFile(head, dir_.File("head.pprof")).ok());
  ASSERT_TRUE(encode::WriteProfileFile(base, dir_.File("base.pprof")).ok());
  const ProcessResult r = RunProcess(
      {BENCHPROF_PATH, "compare", "--format=html", "--base-cpuprofile=" + dir_.File("base.pprof"),
       "--head-cpuprofile=" + dir_.File("head.pprof"), COMPARE_TESTDATA_DIR "/base.json",
       COMPARE_TESTDATA_DIR "/head.json", "-o", dir_.File("compare.html")});
  ASSERT_EQ(r.exit_code, 1) << r.stderr_text;
  const std::string dom = Dom("file://" + dir_.File("compare.html") + "#draw");
  const std::map<std::string, DrawnFrame> frames = DrawnFrames(dom);
  ASSERT_EQ(frames.count("helper"), 1u) << dom.substr(0, 3000);
  EXPECT_EQ(frames.at("helper").background.rfind("rgb(255,", 0), 0u) << "grew: red";
  EXPECT_EQ(frames.at("work").background, "rgb(235,235,235)") << "unchanged";
  EXPECT_DOUBLE_EQ(frames.at("helper").width, 75);  // head widths
  EXPECT_NE(dom.find("<tr class=\"regression\"><td>BM_AlgorithmOne</td>"), std::string::npos);
  ExpectScreenshotNotBlank("file://" + dir_.File("compare.html"));
}

// A fragment that is not valid percent encoding ("%", a UTF-8 sequence cut
// short) is ignored and the page draws, zoomed nowhere. It threw in the
// page's start-up, which then drew nothing. The SVG's script goes on to
// the next parameter, as the page does.
TEST_F(HtmlBrowserTest, ABadFragmentIsIgnored) {
  const std::string url = Flamegraph(SmallProfile(), "small");
  for (const std::string fragment : {"click=%", "click=%E0%A4%A", "search=%&click=%ZZ"}) {
    const std::string dom = Dom(url + "#draw&" + fragment);
    EXPECT_EQ(DrawnFrames(dom).size(), 6u) << fragment << ": all, main, run, work, helper, idle";
    EXPECT_EQ(Attribute(dom, "data-zoom"), "all") << fragment;
  }
  // Without #draw, as a link would open it: drawn when visible.
  ExpectScreenshotNotBlank(url + "#click=%");
  const std::string svg = Flamegraph(SmallProfile(), "small", ".svg");
  const std::string dom = Dom(svg + "#click=%E0%A4%A&search=^(helper|work)$");
  EXPECT_EQ(Attribute(dom, "data-matched"), "40000000");
}

// One sample a million frames deep (the reader's limit; a recursion of
// three functions): the page keeps its 200,000 widest frames and says so,
// 2 MB (5 million frames made 59 MB, which Chromium did not draw), and draws
// the first 1,000 levels with a line saying the deeper ones are not drawn.
// The SVG keeps the top 12,000 (it kept only the root).
TEST_F(HtmlBrowserTest, AMillionFramesDeepProfileDraws) {
  encode::ProfileData p;
  p.sample_types = {{"samples", "count"}};
  p.period_type = {"samples", "count"};
  p.functions = {{"recurse_a", "a", "/src/r.cc", 1},
                 {"recurse_b", "b", "/src/r.cc", 2},
                 {"recurse_c", "c", "/src/r.cc", 3}};
  for (size_t i = 0; i < 3; ++i) p.locations.push_back({0x100 * (i + 1), std::nullopt, {{i, 1}}});
  encode::ProfileSample& sample = p.samples.emplace_back();
  sample.values = {1};
  for (size_t i = 0; i < 1'000'000; ++i) sample.location_indexes.push_back(i % 3);
  const std::string url = Flamegraph(p, "deep");
  const std::string page = testing::ReadFile(dir_.File("deep.html"));
  EXPECT_LE(page.size(), 3'000'000u);
  EXPECT_NE(page.find("<div class=\"fg-note\">200,000 of 1,000,001 frames shown"),
            std::string::npos);
  const std::string dom = Dom(url + "#draw");
  EXPECT_EQ(Attribute(dom, "data-drawn"), "1001");
  EXPECT_EQ(Attribute(dom, "data-cut"), "1000");
  EXPECT_NE(dom.find("<div class=\"fg-cut\">Frames more than 1000 levels below all are not "
                     "drawn"),
            std::string::npos);
  ExpectScreenshotNotBlank(url);

  const std::string svg = Flamegraph(p, "deep", ".svg");
  EXPECT_LE(testing::ReadFile(dir_.File("deep.svg")).size(), 3'000'000u);
  const testing::ShownGraph graph = testing::GraphOfSvg(Dom(svg));
  EXPECT_EQ(graph.frames.size(), 12'000u);
  ExpectScreenshotNotBlank(svg);
}

TEST_F(HtmlBrowserTest, TenThousandStackPageBecomesUsable) {
  const std::string url = Flamegraph(testing::SyntheticCpuProfile(10'000), "big");
  // The search hook draws at once, so the time is real, not virtual.
  const ProcessResult r = Browse({"--dump-dom"}, url + "#search=Function1$");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string& dom = r.stdout_text;
  const std::string drawn = Attribute(dom, "data-drawn");
  ASSERT_NE(drawn, "<absent>");
  EXPECT_GT(std::stoi(drawn), 100);
  std::printf("10,000 stacks: %s frames drawn, usable %s ms after navigation\n", drawn.c_str(),
              Attribute(dom, "data-fg-ready-ms").c_str());
}

}  // namespace
}  // namespace benchprof
