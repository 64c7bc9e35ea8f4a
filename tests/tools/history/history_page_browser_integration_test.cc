// The trend page in headless Chromium (as tests/tools/
// html_browser_integration_test.cc runs it: a file URL, networking
// disabled): one chart per series with a point per run, change points
// marked between their last good and first bad commits with their change,
// the filter hook hiding the charts that do not match, the flame-graph link
// of a change point with an attachment pointing at the page it holds, and a
// screenshot that is not blank. The time 200 series of 1,000 runs take to
// become usable is printed.
//
// ci/setup-debian installs Chromium. Without it the test skips, saying so,
// unless BENCHPROF_REQUIRE_VIEWERS is set (ci/test sets it).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/subprocess.h"
#include "support/trend_test_data.h"
#include "tools/history/trend_page.h"
#include "tools/png_pixels.h"

namespace benchprof::history {
namespace {

using testing::PlantedSeries;
using testing::ProcessResult;
using testing::RunProcess;
using testing::TempDir;
using testing::TrendCommitHash;

class TrendPageBrowserTest : public ::testing::Test {
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

  // The file URL of the page of `input`.
  std::string Page(const TrendPageInput& input, const std::string& name) {
    const std::string path = dir_.File(name + ".html");
    std::ofstream(path, std::ios::binary) << TrendPageHtml(input);
    return "file://" + path;
  }

  TempDir dir_;
};

// BM_Alpha: 60 runs, a regression at run 20 and an improvement at run 45
// (with a flame graph attached); BM_Beta allocs/op: 30 runs, one step;
// BM_Gamma: 50 runs, none.
TrendPageInput SmallInput() {
  TrendPageInput input;
  input.title = "trend";
  input.series.push_back(PlantedSeries({"BM_Alpha", "cpu_time", "ci", "main"}, 60, 5,
                                       {{20, 0.10, true}, {45, -0.05, false}}));
  input.series.push_back(
      PlantedSeries({"BM_Beta", "allocs/op", "ci", "main"}, 30, 3, {{12, 0.5, true}}, 0));
  input.series.push_back(PlantedSeries({"BM_Gamma", "cpu_time", "ci", "main"}, 50, 5, {}));
  input.commits = testing::TrendCommits(60);
  input.diff_flamegraphs[{0, 1}] =
      "<!DOCTYPE html><html><body><p id=\"attached\">differential flame graph</p></body></html>";
  return input;
}

struct ShownSeries {
  bool hidden = false;
  std::string points = "<absent>", cps = "<absent>";
  std::vector<std::map<std::string, std::string>> marks;  // attributes of each change-point mark
  std::string link;                                       // the flame-graph link's element, or ""
};

std::string Attribute(const std::string& dom, const std::string& name) {
  const std::regex attribute(" " + name + "=\"([^\"]*)\"");
  std::smatch m;
  return std::regex_search(dom, m, attribute) ? std::string(m[1]) : "<absent>";
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The sections of a dumped page, in order.
std::vector<ShownSeries> Sections(const std::string& dom) {
  std::vector<ShownSeries> out;
  const std::string open = "<section class=\"tp-s\"";
  for (size_t at = dom.find(open); at != std::string::npos;) {
    const size_t next = dom.find(open, at + 1);
    const std::string section =
        dom.substr(at, next == std::string::npos ? std::string::npos : next - at);
    ShownSeries s;
    s.hidden = section.substr(0, section.find('>')).find(" hidden") != std::string::npos;
    const size_t chart = section.find("<div class=\"tp-chart\"");
    if (chart != std::string::npos) {
      const std::string tag = section.substr(chart, section.find('>', chart) - chart);
      s.points = Attribute(tag, "data-points");
      s.cps = Attribute(tag, "data-cps");
    }
    static const std::regex mark("<g class=\"tp-cp (tp-reg|tp-imp)\"([^>]*)>");
    for (auto it = std::sregex_iterator(section.begin(), section.end(), mark);
         it != std::sregex_iterator(); ++it) {
      const std::string attributes = (*it)[2];
      std::map<std::string, std::string> m{{"class", (*it)[1]}};
      for (const char* name :
           {"data-i", "data-last-good", "data-first-bad", "data-change", "data-kind"}) {
        m[name] = Attribute(attributes, name);
      }
      s.marks.push_back(m);
    }
    const size_t link = section.find("<a class=\"tp-fg-link\"");
    if (link != std::string::npos) s.link = section.substr(link, section.find('>', link) - link);
    out.push_back(s);
    at = next;
  }
  return out;
}

TEST_F(TrendPageBrowserTest, DrawsAChartPerSeriesWithItsPointsAndChangePoints) {
  const std::string dom = Dom(Page(SmallInput(), "small") + "#draw");
  const std::vector<ShownSeries> shown = Sections(dom);
  ASSERT_EQ(shown.size(), 3u);
  EXPECT_EQ(shown[0].points, "60");
  EXPECT_EQ(shown[1].points, "30");
  EXPECT_EQ(shown[2].points, "50");
  EXPECT_EQ(shown[0].cps, "2");
  EXPECT_EQ(shown[1].cps, "1");
  EXPECT_EQ(shown[2].cps, "0");
  // One <circle class="tp-pt"> per run over all charts.
  EXPECT_EQ(Count(dom, "class=\"tp-pt\""), 140u);

  ASSERT_EQ(shown[0].marks.size(), 2u);
  const auto& regression = shown[0].marks[0];
  EXPECT_EQ(regression.at("class"), "tp-reg");
  EXPECT_EQ(regression.at("data-kind"), "regression");
  EXPECT_EQ(regression.at("data-i"), "20");
  EXPECT_EQ(regression.at("data-last-good"), TrendCommitHash(19));
  EXPECT_EQ(regression.at("data-first-bad"), TrendCommitHash(20));
  EXPECT_EQ(regression.at("data-change"), "+10.00%");
  const auto& improvement = shown[0].marks[1];
  EXPECT_EQ(improvement.at("class"), "tp-imp");
  EXPECT_EQ(improvement.at("data-kind"), "improvement");
  EXPECT_EQ(improvement.at("data-first-bad"), TrendCommitHash(45));
  EXPECT_EQ(improvement.at("data-change"), "-5.00%");
  ASSERT_EQ(shown[1].marks.size(), 1u);
  EXPECT_EQ(shown[1].marks[0].at("data-last-good"), TrendCommitHash(11));
  EXPECT_EQ(shown[1].marks[0].at("data-change"), "+50.00%");
  // Not told by colour alone: the label says it.
  EXPECT_NE(dom.find("\u25b2+10.00% regression</text>"), std::string::npos);
  EXPECT_NE(dom.find("\u25bc-5.00% improvement</text>"), std::string::npos);
  EXPECT_EQ(Attribute(dom, "data-tp-shown"), "3");
}

TEST_F(TrendPageBrowserTest, FilterHidesChartsThatDoNotMatch) {
  const std::string url = Page(SmallInput(), "small");
  std::vector<ShownSeries> shown = Sections(Dom(url + "#filter=beta&draw"));
  ASSERT_EQ(shown.size(), 3u);
  EXPECT_TRUE(shown[0].hidden);
  EXPECT_FALSE(shown[1].hidden);
  EXPECT_TRUE(shown[2].hidden);
  EXPECT_EQ(shown[1].points, "30");
  EXPECT_EQ(shown[0].points, "<absent>") << "hidden charts are not drawn";

  // Every word must match, in any of the key's names; case does not matter.
  const std::string dom = Dom(url + "#filter=CPU_TIME%20bm_&draw");
  shown = Sections(dom);
  EXPECT_FALSE(shown[0].hidden);
  EXPECT_TRUE(shown[1].hidden);
  EXPECT_FALSE(shown[2].hidden);
  EXPECT_NE(dom.find("2 of 3 series"), std::string::npos);

  shown = Sections(Dom(url + "#filter=%E0%A4%A&draw"));  // not percent encoding: ignored
  EXPECT_FALSE(shown[0].hidden || shown[1].hidden || shown[2].hidden);
}

TEST_F(TrendPageBrowserTest, ChangePointWithAFlameGraphLinksToIt) {
  const TrendPageInput input = SmallInput();
  const std::vector<ShownSeries> shown = Sections(Dom(Page(input, "small") + "#draw"));
  ASSERT_EQ(shown.size(), 3u);
  ASSERT_NE(shown[0].link, "");
  EXPECT_EQ(Attribute(shown[0].link, "href").rfind("blob:", 0), 0u) << shown[0].link;
  EXPECT_EQ(Attribute(shown[0].link, "data-bytes"),
            std::to_string(input.diff_flamegraphs.at({0, 1}).size()));
  EXPECT_EQ(shown[1].link, "");
  EXPECT_EQ(shown[2].link, "");
}

// Series with no run, one run, and runs without a finite median draw what
// they have, and the script runs to its end.
TEST_F(TrendPageBrowserTest, ShortAndPartlyEmptySeriesDraw) {
  TrendPageInput input;
  input.series.push_back(PlantedSeries({"BM_None", "cpu_time", "ci", "main"}, 0, 3, {}));
  input.series.push_back(PlantedSeries({"BM_One", "cpu_time", "ci", "main"}, 1, 3, {}));
  input.series.push_back(PlantedSeries({"BM_Gaps", "cpu_time", "ci", "main"}, 8, 3, {{4, 0.2}}));
  input.series[2].series.points[1].median = std::numeric_limits<double>::quiet_NaN();
  input.series[2].series.points[2].values.clear();
  const std::string dom = Dom(Page(input, "short") + "#draw&tip=2,1");
  const std::vector<ShownSeries> shown = Sections(dom);
  ASSERT_EQ(shown.size(), 3u);
  EXPECT_EQ(shown[0].points, "0");
  EXPECT_EQ(shown[1].points, "1");
  EXPECT_EQ(shown[2].points, "7");
  EXPECT_EQ(shown[2].cps, "1");
  EXPECT_NE(Attribute(dom, "data-tp-ready-ms"), "<absent>");
  EXPECT_NE(dom.find("<div>no finite median (3 repetitions)</div><div>run 2 of 8</div>"),
            std::string::npos);
}

TEST_F(TrendPageBrowserTest, RunsOpenAsATable) {
  const std::string dom = Dom(Page(SmallInput(), "small") + "#runs=0");
  const std::vector<ShownSeries> shown = Sections(dom);
  ASSERT_EQ(shown.size(), 3u);
  const size_t details = dom.find("<details class=\"tp-runs\" data-s=\"0\"");
  ASSERT_NE(details, std::string::npos);
  const std::string table = dom.substr(details, dom.find("</details>", details) - details);
  EXPECT_NE(table.find(" open=\"\""), std::string::npos) << table.substr(0, 200);
  EXPECT_EQ(Attribute(table, "data-rows"), "60");
  EXPECT_EQ(Count(table, "<tr>"), 61u) << "a heading and a row per run";
  EXPECT_NE(table.find("<td>26</td><td>" + TrendCommitHash(25).substr(0, 10) +
                       "</td><td>Commit 25</td><td>2026-01-02 01:00 UTC</td><td>1.1"),
            std::string::npos);
  EXPECT_EQ(dom.find("<details class=\"tp-runs\" data-s=\"1\" open"), std::string::npos);
}

// Names are data in the browser too: a benchmark named like markup draws
// as text, and the page has no element but ours.
TEST_F(TrendPageBrowserTest, HostileNamesStayText) {
  // A real element would serialise as <i id="hostile">; in an attribute the
  // quotes would be &quot;, in text the brackets &lt; and &gt;.
  const std::string hostile =
      "BM_</script><script>document.documentElement.setAttribute('data-owned','1')</script>"
      "<i id=\"hostile\">x</i>\u2028\"'";
  TrendPageInput input;
  input.title = hostile;
  input.series.push_back(PlantedSeries({hostile, hostile, hostile, hostile}, 20, 3, {{10, 0.1}}));
  input.commits = testing::TrendCommits(20);
  input.commits[TrendCommitHash(10)].subject = hostile;
  const std::string dom = Dom(Page(input, "hostile") + "#draw&runs=0&filter=" + "%3C%2Fscript%3E");
  const std::vector<ShownSeries> shown = Sections(dom);
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_FALSE(shown[0].hidden) << "the filter finds the name as text";
  EXPECT_EQ(shown[0].points, "20");
  EXPECT_EQ(shown[0].cps, "1");
  EXPECT_EQ(Attribute(dom, "data-owned"), "<absent>");
  EXPECT_EQ(dom.find("<i id=\"hostile\">"), std::string::npos);
  EXPECT_NE(dom.find("<h2>BM_&lt;/script&gt;&lt;script&gt;document.documentElement"),
            std::string::npos);
  EXPECT_EQ(Count(dom, "<td>" + TrendCommitHash(10).substr(0, 10) + "</td><td>BM_&lt;/script&gt;"),
            1u)
      << "the subject in the runs table";
}

// The tooltip of a run (as hovering shows it; "#tip=" shows it without a
// mouse): short hash, subject, commit time, median, spread, repetitions.
TEST_F(TrendPageBrowserTest, TooltipNamesTheRunsCommit) {
  const std::string dom = Dom(Page(SmallInput(), "small") + "#tip=0,25");
  const size_t tip = dom.find("<div id=\"tp-tip\"");
  ASSERT_NE(tip, std::string::npos);
  const std::string element = dom.substr(tip, dom.find("</div></div>", tip) - tip);
  EXPECT_EQ(element.substr(0, element.find('>')).find(" hidden"), std::string::npos) << element;
  EXPECT_NE(element.find("<div>" + TrendCommitHash(25).substr(0, 10) + "  Commit 25</div>"),
            std::string::npos)
      << element;
  EXPECT_NE(element.find("<div>2026-01-02 01:00 UTC</div>"), std::string::npos) << element;
  EXPECT_NE(element.find("<div>median 1.1"), std::string::npos) << element;  // 1,100 ns, 1% noise
  EXPECT_NE(element.find("5 repetitions)</div><div>run 26 of 60"), std::string::npos) << element;
}

// Drawn as the charts scroll into view (no "#draw"): the first is, and the
// screenshot shows it.
TEST_F(TrendPageBrowserTest, ScreenshotIsNotBlank) {
  const std::string url = Page(SmallInput(), "small");
  EXPECT_EQ(Sections(Dom(url))[0].points, "60");
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
  EXPECT_GE(colors.size(), 6u);
  EXPECT_GT(not_white, pixels.rgb.size() / 50);
  // The regression's red and the improvement's blue are there.
  EXPECT_EQ(colors.count(0xc62828), 1u);
  EXPECT_EQ(colors.count(0x1565c0), 1u);
}

TEST_F(TrendPageBrowserTest, TwoHundredSeriesOfAThousandRunsBecomeUsable) {
  TrendPageInput input;
  input.title = "200 x 1000";
  for (size_t s = 0; s < 200; ++s) {
    input.series.push_back(PlantedSeries({"BM_Benchmark" + std::to_string(s) + "/1024",
                                          s % 2 ? "cpu_time" : "real_time", "ci-large", "main"},
                                         1000, 10, {{300, 0.05, true}, {700, -0.02, false}}, 0.01,
                                         s + 1));
  }
  input.commits = testing::TrendCommits(1000);
  const std::string url = Page(input, "big");
  // Real time, no virtual time budget: the charts in view are drawn before
  // the script ends, and the mark is written then.
  const ProcessResult r = Browse({"--dump-dom"}, url);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string& dom = r.stdout_text;
  const std::string ready = Attribute(dom, "data-tp-ready-ms");
  ASSERT_NE(ready, "<absent>");
  size_t drawn = 0;
  for (const ShownSeries& s : Sections(dom)) drawn += s.points == "1000";
  EXPECT_GE(drawn, 1u);
  EXPECT_LT(drawn, 200u) << "the charts out of view wait";
  std::printf(
      "200 series x 1,000 runs: %zu bytes, %zu charts drawn at load, usable %s ms after "
      "navigation\n",
      testing::ReadFile(dir_.File("big.html")).size(), drawn, ready.c_str());
  // The target. Measured at about 270 ms on a 2-core machine shared
  // by other builds: far enough below to assert without flaking.
  EXPECT_LE(std::stoi(ready), 2000);
}

}  // namespace
}  // namespace benchprof::history
