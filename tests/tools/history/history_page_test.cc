// The trend page's HTML and embedded data: the data read back with our JSON
// parser and decoded here (an independent decoder of trend_page.h's format)
// gives the series' medians, spreads, commits and change points; hostile
// names, subjects and titles cannot end an element or the data; an attached
// flame graph page comes back byte for byte; the page is well-formed HTML;
// and 200 series of 1,000 runs fit in 5 MB.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "encode/gzip.h"
#include "support/html_document.h"
#include "support/trend_test_data.h"
#include "tools/history/trend_page.h"
#include "tools/text_format.h"

namespace benchprof::history {
namespace {

using testing::PlantedSeries;
using testing::TrendCommitHash;
using testing::TrendCommits;

// The text of the first element that starts with `open`.
std::string Element(const std::string& page, const std::string& open, size_t from = 0) {
  const size_t start = page.find(open, from);
  if (start == std::string::npos) return "";
  const size_t body = start + open.size();
  const size_t end = page.find("</script>", body);
  return end == std::string::npos ? "" : page.substr(body, end - body);
}

json::Value PageData(const std::string& page) {
  const std::string text = Element(page, "<script type=\"application/json\" id=\"tp-data\">");
  StatusOr<json::Value> parsed = json::Parse(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  return parsed.ok() ? *parsed : json::Value();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string Base64Decode(const std::string& text) {
  std::string out;
  uint32_t bits = 0;
  int have = 0;
  for (const char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+')
      v = 62;
    else if (c == '/')
      v = 63;
    else
      continue;  // '=' padding
    bits = bits << 6 | static_cast<uint32_t>(v);
    have += 6;
    if (have >= 8) {
      have -= 8;
      out += static_cast<char>((bits >> have) & 0xff);
    }
  }
  return out;
}

struct DecodedRun {
  double median = 0, min = 0, max = 0;
  std::string commit;
  size_t repetitions = 0;
  bool finite = true;
};

// trend_page.h's format, decoded independently of the page's script.
std::vector<DecodedRun> DecodeSeries(const json::Value& data, size_t s) {
  const json::Value& series = data.Find("series")->as_array()[s];
  const json::Value::Array& commits = data.Find("commits")->as_array();
  const double exponent = series.Find("e")->as_number();
  const auto value = [&](double quanta) {
    return exponent < 0 ? quanta / std::pow(10.0, -exponent) : quanta * std::pow(10.0, exponent);
  };
  const json::Value::Array& d = series.Find("d")->as_array();
  const json::Value::Array& lo = series.Find("lo")->as_array();
  const json::Value::Array& hi = series.Find("hi")->as_array();
  std::vector<DecodedRun> runs(d.size());
  double quanta = 0;
  for (size_t k = 0; k < d.size(); ++k) {
    quanta += d[k].as_number();
    runs[k].median = value(quanta);
    runs[k].min = value(quanta - lo[k].as_number());
    runs[k].max = value(quanta + hi[k].as_number());
    const json::Value& r = *series.Find("r");
    runs[k].repetitions =
        static_cast<size_t>(r.is_number() ? r.as_number() : r.as_array()[k].as_number());
  }
  const json::Value::Array& c = series.Find("c")->as_array();
  size_t k = 0;
  for (size_t j = 0; j + 1 < c.size(); j += 2) {
    for (size_t t = 0; t < c[j + 1].as_number(); ++t) {
      const size_t index = static_cast<size_t>(c[j].as_number()) + t;
      EXPECT_LT(index, commits.size());
      if (k < runs.size() && index < commits.size()) {
        runs[k].commit = commits[index].as_array()[0].as_string();
      }
      ++k;
    }
  }
  EXPECT_EQ(k, runs.size()) << "commit runs cover every point";
  for (const json::Value& bad : series.Find("nf")->as_array()) {
    runs[static_cast<size_t>(bad.as_number())].finite = false;
  }
  return runs;
}

// An exact metric: integers, repetitions that differ in number, a run on
// the same commit as the one before, and a median that is not finite.
AnalysedSeries ExactSeries() {
  AnalysedSeries a;
  a.series.key = {"BM_Exact", "allocs/op", "ci-large", "main"};
  a.series.info.unit = "allocs/op";
  a.series.info.kind = results::MetricKind::kExact;
  const std::vector<std::vector<double>> values = {{3, 3}, {3, 3, 3}, {3}, {4, 4}, {4, 5}, {7}};
  const std::vector<size_t> commit = {0, 1, 1, 2, 3, 4};
  for (size_t k = 0; k < values.size(); ++k) {
    SeriesPoint p;
    p.commit = TrendCommitHash(commit[k]);
    p.values = values[k];
    p.median = values[k][0];
    a.series.points.push_back(p);
  }
  a.series.points[2].median = std::numeric_limits<double>::quiet_NaN();
  ChangePoint cp;
  cp.index = 3;
  cp.last_good_commit = TrendCommitHash(1);
  cp.first_bad_commit = TrendCommitHash(2);
  cp.before_median = 3;
  cp.after_median = 4;
  cp.change = 1.0 / 3;
  cp.exact = true;
  cp.regression = true;
  a.change_points.push_back(cp);
  return a;
}

TEST(TrendPageData, MediansSpreadsAndCommitsRoundTrip) {
  TrendPageInput input;
  input.title = "history";
  input.series.push_back(PlantedSeries({"BM_Time", "cpu_time", "ci-large", "main"}, 300, 7,
                                       {{100, 0.05, true}, {200, -0.03, false}}, 0.02, 7));
  input.series.push_back(ExactSeries());
  input.commits = TrendCommits(300);
  const std::string page = TrendPageHtml(input);
  const json::Value data = PageData(page);
  ASSERT_TRUE(data.is_object());

  const Series& time = input.series[0].series;
  const std::vector<DecodedRun> runs = DecodeSeries(data, 0);
  ASSERT_EQ(runs.size(), time.points.size());
  for (size_t k = 0; k < runs.size(); ++k) {
    const SeriesPoint& p = time.points[k];
    const double min = *std::min_element(p.values.begin(), p.values.end());
    const double max = *std::max_element(p.values.begin(), p.values.end());
    // Four significant digits of the smallest value (about 950): within 0.05.
    EXPECT_NEAR(runs[k].median, p.median, 0.051) << k;
    EXPECT_NEAR(runs[k].min, min, 0.051) << k;
    EXPECT_NEAR(runs[k].max, max, 0.051) << k;
    EXPECT_EQ(runs[k].commit, p.commit) << k;
    EXPECT_EQ(runs[k].repetitions, 7u);
  }
  // Commits are listed once: 300 runs of both series on 300 commits.
  const json::Value::Array& commits = data.Find("commits")->as_array();
  ASSERT_EQ(commits.size(), 300u);
  EXPECT_EQ(commits[5].as_array()[0].as_string(), TrendCommitHash(5));
  EXPECT_EQ(commits[5].as_array()[1].as_number(), 1'767'225'600 + 5 * 3600);
  EXPECT_EQ(commits[5].as_array()[2].as_string(), "Commit 5");

  const json::Value& s0 = data.Find("series")->as_array()[0];
  EXPECT_EQ(s0.Find("b")->as_string(), "BM_Time");
  EXPECT_EQ(s0.Find("m")->as_string(), "cpu_time");
  EXPECT_EQ(s0.Find("t")->as_string(), "ci-large");
  EXPECT_EQ(s0.Find("br")->as_string(), "main");
  EXPECT_EQ(s0.Find("u")->as_string(), "ns/op");
  const json::Value::Array& cps = s0.Find("cp")->as_array();
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_EQ(cps[0].Find("i")->as_number(), 100);
  EXPECT_DOUBLE_EQ(cps[0].Find("c")->as_number(), input.series[0].change_points[0].change);
  EXPECT_DOUBLE_EQ(cps[0].Find("b")->as_number(), 1000);
  EXPECT_DOUBLE_EQ(cps[0].Find("a")->as_number(), 1050);
  EXPECT_DOUBLE_EQ(cps[0].Find("p")->as_number(), 0.001);
  EXPECT_EQ(cps[0].Find("reg")->as_number(), 1);
  EXPECT_EQ(cps[1].Find("reg")->as_number(), 0);
  EXPECT_EQ(cps[1].Find("f"), nullptr) << "nothing attached";

  // The exact series: integers stay exact.
  const json::Value& s1 = data.Find("series")->as_array()[1];
  EXPECT_EQ(s1.Find("e")->as_number(), 0);
  const std::vector<DecodedRun> exact = DecodeSeries(data, 1);
  ASSERT_EQ(exact.size(), 6u);
  EXPECT_EQ(exact[0].median, 3);
  EXPECT_EQ(exact[1].repetitions, 3u);
  EXPECT_EQ(exact[2].repetitions, 1u);
  EXPECT_FALSE(exact[2].finite);
  EXPECT_TRUE(exact[3].finite);
  EXPECT_EQ(exact[4].median, 4);
  EXPECT_EQ(exact[4].min, 4);
  EXPECT_EQ(exact[4].max, 5);
  EXPECT_EQ(exact[5].median, 7);
  EXPECT_EQ(exact[1].commit, TrendCommitHash(1));
  EXPECT_EQ(exact[2].commit, TrendCommitHash(1)) << "two runs of one commit";
  EXPECT_EQ(exact[3].commit, TrendCommitHash(2));
  EXPECT_EQ(s1.Find("cp")->as_array()[0].Find("x")->as_number(), 1);
  EXPECT_EQ(s1.Find("cp")->as_array()[0].Find("p"), nullptr);

  // The tables say it in words too.
  EXPECT_NE(page.find("▲ +5.00% regression"), std::string::npos);
  EXPECT_NE(page.find("▼ -3.00% improvement"), std::string::npos);
  EXPECT_NE(page.find("<code title=\"Commit 99\">" + TrendCommitHash(99).substr(0, 10) + "</code>"),
            std::string::npos);
  EXPECT_EQ(testing::CheckHtml(page), "");
}

TEST(TrendPageData, SmallValuesKeepFourSignificantDigits) {
  TrendPageInput input;
  AnalysedSeries a;
  a.series.key = {"BM_Tiny", "real_time", "t", "b"};
  for (const double v : {0.0012345, 0.0123456, 12.3456}) {
    a.series.points.push_back({0, TrendCommitHash(0), 0, {v}, v});
  }
  input.series.push_back(a);
  const std::vector<DecodedRun> runs = DecodeSeries(PageData(TrendPageHtml(input)), 0);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_NEAR(runs[0].median, 0.0012345, 6e-7);
  EXPECT_NEAR(runs[1].median, 0.0123456, 6e-7);
  EXPECT_NEAR(runs[2].median, 12.3456, 6e-7);
}

TEST(TrendPageData, ExtremeMagnitudesStayFinite) {
  TrendPageInput input;
  AnalysedSeries a;
  a.series.key = {"BM_Wide", "counter", "t", "b"};
  for (const double v : {1e-310, 0.5, 1e300}) {
    a.series.points.push_back({0, TrendCommitHash(0), 0, {v, -v}, v});
  }
  input.series.push_back(a);
  const std::vector<DecodedRun> runs = DecodeSeries(PageData(TrendPageHtml(input)), 0);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].median, 0) << "below the quantum the largest value needs";
  EXPECT_EQ(runs[1].median, 0);
  EXPECT_NEAR(runs[2].median, 1e300, 1e286);
  EXPECT_NEAR(runs[2].min, -1e300, 1e286);
}

TEST(TrendPageData, HostileNamesCannotBreakOut) {
  const std::string hostile =
      "BM_</script><script>alert(1)</script><!--\"'&\n::warning::x\u2028\u2029\u202E\x01";
  TrendPageInput input;
  input.title = hostile;
  input.series.push_back(
      PlantedSeries({hostile, hostile, hostile, hostile}, 20, 3, {{10, 0.1, true}}));
  input.commits = TrendCommits(20);
  input.commits[TrendCommitHash(9)].subject = hostile;
  input.diff_flamegraphs[{0, 0}] = "<!DOCTYPE html><script>x</script>";
  const std::string page = TrendPageHtml(input);

  // Only our elements: the data, one attachment, the script.
  EXPECT_EQ(Count(page, "<script"), 3u);
  EXPECT_EQ(Count(page, "</script"), 3u);
  EXPECT_EQ(Count(page, "<!--"), 0u);
  EXPECT_EQ(page.find("\u2028"), std::string::npos);
  EXPECT_EQ(page.find("\u202E"), std::string::npos);
  EXPECT_EQ(page.find("\n::warning::"), std::string::npos);
  EXPECT_EQ(testing::CheckHtml(page), "");

  // The data keeps the names as the page shows them (on one line).
  const json::Value data = PageData(page);
  ASSERT_TRUE(data.is_object());
  const json::Value& s = data.Find("series")->as_array()[0];
  const std::string shown = tools::OneLine(hostile);
  EXPECT_EQ(s.Find("b")->as_string(), shown);
  EXPECT_EQ(s.Find("m")->as_string(), shown);
  EXPECT_EQ(s.Find("t")->as_string(), shown);
  EXPECT_EQ(s.Find("br")->as_string(), shown);
  EXPECT_NE(shown.find("</script><script>alert(1)"), std::string::npos) << "kept, as data";
  EXPECT_EQ(data.Find("commits")->as_array()[9].as_array()[2].as_string(), shown);
}

TEST(TrendPageData, AttachedFlameGraphComesBackByteForByte) {
  std::string flame = "<!DOCTYPE html>\n<html><script>\n// a comment\n</script>\u2028\n";
  for (int i = 0; i < 2000; ++i)
    flame += "<div class=\"fg-f\">frame " + std::to_string(i) + "</div>\n";
  TrendPageInput input;
  input.series.push_back(
      PlantedSeries({"BM_a", "cpu_time", "t", "main"}, 40, 3, {{10, 0.1, true}, {30, 0.1, true}}));
  input.series.push_back(
      PlantedSeries({"BM_b", "cpu_time", "t", "main"}, 40, 3, {{20, 0.1, true}}));
  input.diff_flamegraphs[{0, 1}] = flame;
  input.diff_flamegraphs[{1, 0}] = "second";
  input.diff_flamegraphs[{1, 5}] = "no such change point";
  const std::string page = TrendPageHtml(input);

  const json::Value data = PageData(page);
  const json::Value::Array& series = data.Find("series")->as_array();
  EXPECT_EQ(series[0].Find("cp")->as_array()[0].Find("f"), nullptr);
  EXPECT_EQ(series[0].Find("cp")->as_array()[1].Find("f")->as_number(), 0);
  EXPECT_EQ(series[1].Find("cp")->as_array()[0].Find("f")->as_number(), 1);
  EXPECT_EQ(Count(page, "<a class=\"tp-fg-link\""), 2u);

  for (const auto& [f, expected] :
       std::vector<std::pair<std::string, std::string>>{{"0", flame}, {"1", "second"}}) {
    const std::string block =
        Element(page, "<script type=\"text/plain\" class=\"tp-fg\" data-f=\"" + f + "\">");
    ASSERT_FALSE(block.empty()) << f;
    StatusOr<std::string> unpacked = encode::GzipDecompress(Base64Decode(block));
    ASSERT_TRUE(unpacked.ok()) << unpacked.status().message();
    EXPECT_EQ(*unpacked, expected);
  }
  EXPECT_LT(page.size(), flame.size()) << "compressed";
  EXPECT_EQ(testing::CheckHtml(page), "");
}

TEST(TrendPageData, ChangePointsOutsideTheirSeriesAreLeftOut) {
  TrendPageInput input;
  input.series.push_back(PlantedSeries({"BM_a", "cpu_time", "t", "main"}, 10, 3, {{5, 0.1, true}}));
  ChangePoint past_the_end = input.series[0].change_points[0];
  past_the_end.index = 10;
  input.series[0].change_points.push_back(past_the_end);
  input.series.push_back(PlantedSeries({"BM_empty", "cpu_time", "t", "main"}, 0, 3, {}));
  input.series[1].change_points.push_back(past_the_end);
  input.diff_flamegraphs[{0, 1}] = "left out with its change point";
  const std::string page = TrendPageHtml(input);
  const json::Value data = PageData(page);
  ASSERT_TRUE(data.is_object());
  const json::Value::Array& series = data.Find("series")->as_array();
  ASSERT_EQ(series[0].Find("cp")->as_array().size(), 1u);
  EXPECT_EQ(series[0].Find("cp")->as_array()[0].Find("i")->as_number(), 5);
  EXPECT_TRUE(series[1].Find("cp")->as_array().empty());
  EXPECT_TRUE(series[1].Find("d")->as_array().empty());
  EXPECT_EQ(Count(page, "class=\"tp-fg\""), 0u);
  EXPECT_NE(page.find("2 series, 10 runs, 1 change points: 1 regressions"), std::string::npos);
  EXPECT_EQ(testing::CheckHtml(page), "");
}

TEST(TrendPageData, NoSeriesIsAPageToo) {
  TrendPageInput input;
  input.title = "empty";
  const std::string page = TrendPageHtml(input);
  EXPECT_EQ(testing::CheckHtml(page), "");
  EXPECT_NE(page.find("0 series, 0 runs, 0 change points"), std::string::npos);
  const json::Value data = PageData(page);
  EXPECT_TRUE(data.Find("series")->as_array().empty());
}

TEST(TrendPageSize, TwoHundredSeriesOfAThousandRunsFitInFiveMegabytes) {
  TrendPageInput input;
  input.title = "200 x 1000";
  for (size_t s = 0; s < 200; ++s) {
    input.series.push_back(PlantedSeries({"BM_Benchmark" + std::to_string(s) + "/1024",
                                          s % 2 ? "cpu_time" : "real_time", "ci-large", "main"},
                                         1000, 10, {{300, 0.05, true}, {700, -0.02, false}}, 0.01,
                                         s + 1));
  }
  input.commits = TrendCommits(1000);
  const std::string page = TrendPageHtml(input);
  std::printf("200 series x 1,000 runs of 10 repetitions: %zu bytes\n", page.size());
  EXPECT_LE(page.size(), 5'000'000u);
  const json::Value data = PageData(page);
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data.Find("series")->as_array().size(), 200u);
  EXPECT_EQ(DecodeSeries(data, 199).size(), 1000u);
}

}  // namespace
}  // namespace benchprof::history
