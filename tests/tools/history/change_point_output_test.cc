// The text, Markdown and JSON outputs of change points against golden/, in
// key order whatever the input order, with hostile names kept harmless.
//
// To accept intended changes:
//   BENCHPROF_UPDATE_GOLDEN=1 ctest -R '^change_point_output_test$'
#include "tools/history/change_point_output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "common/json_value.h"
#include "support/golden_file.h"

namespace benchprof::history {
namespace {

using results::MetricInfo;
using results::MetricKind;

const char kHostileName[] = "BM_`tick`|pipe\n::warning::x\xE2\x80\xAE|\\|end";

Series MakeSeries(SeriesKey key, MetricInfo info, size_t n) {
  Series s{std::move(key), std::move(info), {}};
  for (size_t i = 0; i < n; ++i) {
    SeriesPoint p;
    p.run_id = static_cast<int64_t>(i + 1);
    p.commit = "c0ffee" + std::to_string(1000 + i) + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    s.points.push_back(std::move(p));
  }
  return s;
}

ChangePoint At(const Series& s, size_t index, double before, double after, std::optional<double> p,
               bool regression) {
  ChangePoint c;
  c.index = index;
  c.last_good_commit = s.points[index - 1].commit;
  c.first_bad_commit = s.points[index].commit;
  c.before_median = before;
  c.after_median = after;
  c.change = before == 0 ? std::numeric_limits<double>::infinity() : after / before - 1;
  c.p = p;
  c.exact = !p.has_value();
  c.regression = regression;
  return c;
}

// Four series out of key order: a time with two change points, an exact
// metric regressed at its newest run, a higher-is-better counter up from 0,
// one with none; and one with hostile names, units and subjects.
std::vector<AnalysedSeries> Sample() {
  std::vector<AnalysedSeries> out;
  const MetricInfo time{"ns/op", MetricKind::kTime, false, false};
  const MetricInfo allocs{"allocs/op", MetricKind::kExact, false, false};
  const MetricInfo rate{"bytes_per_second", MetricKind::kCounter, true, false};

  Series allocs_series = MakeSeries({"BM_Alpha", "allocs/op", "ci-large", "main"}, allocs, 20);
  out.push_back({allocs_series, {At(allocs_series, 19, 3, 4, std::nullopt, true)}});

  Series time_series = MakeSeries({"BM_Alpha", "cpu_time", "ci-large", "main"}, time, 150);
  out.push_back({time_series,
                 {At(time_series, 120, 1100, 1045, 2.5e-9, false),
                  At(time_series, 60, 1000, 1100, 1.25e-31, true)}});

  out.push_back({MakeSeries({"BM_Quiet", "cpu_time", "ci-large", "main"}, time, 150), {}});

  Series rate_series =
      MakeSeries({"BM_Beta/1024", "bytes_per_second", "ci-large", "main"}, rate, 40);
  out.push_back({rate_series, {At(rate_series, 10, 0, 2.5e9, 0.0004, false)}});

  Series hostile = MakeSeries({kHostileName, "allocs|op`", "bed\x1b[31m", "##[group]x"},
                              MetricInfo{"allocs|`op\n", MetricKind::kExact, false, false}, 5);
  hostile.points[2].commit = "bad|`hash\n::error::";
  out.push_back({hostile, {At(hostile, 2, 1, 2, std::nullopt, true)}});
  return out;
}

std::map<std::string, CommitInfo> Commits(const std::vector<AnalysedSeries>& series) {
  std::map<std::string, CommitInfo> commits;
  for (const AnalysedSeries& s : series) {
    for (size_t i = 0; i < s.series.points.size(); ++i) {
      const std::string& hash = s.series.points[i].commit;
      // Every third commit is unknown (a hash the store has no subject for).
      if (i % 3 == 2) continue;
      commits[hash] = CommitInfo{hash,
                                 {},
                                 1790000000000000000 + static_cast<int64_t>(i) * 86400000000000,
                                 "Change " + std::to_string(i)};
    }
  }
  commits["bad|`hash\n::error::"] = CommitInfo{"", {}, 0, "subject | with `ticks` \n::warning::y"};
  commits[Sample()[4].series.points[1].commit].subject = "**bold** <b>html</b> @team #1 ##[x]";
  return commits;
}

std::string Golden(const std::string& name) { return std::string(HISTORY_GOLDEN_DIR) + "/" + name; }

TEST(ChangePointOutput, Golden) {
  const std::vector<AnalysedSeries> series = Sample();
  const auto commits = Commits(series);
  testing::ExpectMatchesGolden(Golden("detect.txt"), ChangePointsText(series, commits));
  testing::ExpectMatchesGolden(Golden("detect.md"), ChangePointsMarkdown(series, commits));
  testing::ExpectMatchesGolden(Golden("detect.json"), ChangePointsJson(series, commits));
}

TEST(ChangePointOutput, OrderDoesNotDependOnInput) {
  std::vector<AnalysedSeries> series = Sample();
  const auto commits = Commits(series);
  const std::string text = ChangePointsText(series, commits);
  const std::string json = ChangePointsJson(series, commits);
  std::reverse(series.begin(), series.end());
  for (AnalysedSeries& s : series) std::reverse(s.change_points.begin(), s.change_points.end());
  EXPECT_EQ(ChangePointsText(series, commits), text);
  EXPECT_EQ(ChangePointsJson(series, commits), json);
  // BM_Alpha allocs/op, then cpu_time; its change points by index.
  EXPECT_LT(text.find("BM_Alpha  allocs/op"), text.find("BM_Alpha  cpu_time"));
  EXPECT_LT(text.find("+10.00%"), text.find("-5.00%"));
}

TEST(ChangePointOutput, HostileNamesStayHarmless) {
  const std::vector<AnalysedSeries> series = Sample();
  const auto commits = Commits(series);
  for (const std::string& out :
       {ChangePointsText(series, commits), ChangePointsMarkdown(series, commits)}) {
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
      EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
      EXPECT_EQ(line.find("\xE2\x80\xAE"), std::string::npos) << line;  // RIGHT-TO-LEFT OVERRIDE
      // A workflow command counts where a line starts (after white space).
      const size_t start = line.find_first_not_of(" \t");
      EXPECT_NE(line.compare(start == std::string::npos ? 0 : start, 2, "::"), 0) << line;
      EXPECT_EQ(line.find("##["), std::string::npos) << line;
    }
  }
  // Every Markdown table row has its 10 cells: a '|' ends a cell unless an
  // odd run of backslashes escapes it (GitHub's table parser).
  std::istringstream md(ChangePointsMarkdown(series, commits));
  size_t rows = 0;
  for (std::string line; std::getline(md, line);) {
    if (line.empty() || line[0] != '|') continue;
    size_t separators = 0, backslashes = 0;
    for (char c : line) {
      if (c == '|' && backslashes % 2 == 0) ++separators;
      backslashes = c == '\\' ? backslashes + 1 : 0;
    }
    EXPECT_EQ(separators, 11u) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 2u + 5u);  // header, rule, 5 change points
  // JSON keeps the names exactly, and stays valid.
  StatusOr<json::Value> doc = json::Parse(ChangePointsJson(series, commits));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const json::Value* all = doc->Find("series");
  ASSERT_NE(all, nullptr);
  bool seen = false;
  for (const json::Value& s : all->as_array()) {
    if (s.Find("benchmark")->as_string() == kHostileName) seen = true;
  }
  EXPECT_TRUE(seen);
}

TEST(ChangePointOutput, NoChangePoints) {
  std::vector<AnalysedSeries> series = {
      AnalysedSeries{MakeSeries({"BM_A", "cpu_time", "t", "main"}, {}, 3), {}}};
  EXPECT_EQ(ChangePointsText(series, {}), "no change points in 1 series\n");
  EXPECT_EQ(ChangePointsMarkdown(series, {}), "No change points in 1 series.\n");
  EXPECT_EQ(ChangePointsText({}, {}), "no change points in 0 series\n");
  const std::string json = ChangePointsJson(series, {});
  EXPECT_NE(json.find("\"change_point_count\":0"), std::string::npos) << json;
  EXPECT_NE(json.find("\"change_points\":[]"), std::string::npos) << json;
}

}  // namespace
}  // namespace benchprof::history
