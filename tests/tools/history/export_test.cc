// The CSV and JSON of `history export` and the table of `history show`.
#include "tools/history/export_command.h"

#include <gtest/gtest.h>

#include <limits>

#include "common/json_value.h"
#include "tools/history/show_command.h"

namespace benchprof::history {
namespace {

std::vector<Series> TwoPoints(const std::string& benchmark) {
  Series s;
  s.key = {benchmark, "cpu_time", "tb", "main"};
  s.info = {"ns/op", results::MetricKind::kTime, false};
  s.points = {{1, "aaaa", 5'000'000'000, {1.5, 0.1, 3}, 1.5},
              {2, "bbbb", 6'000'000'000, {3, std::numeric_limits<double>::infinity()}, 3}};
  return {s};
}

TEST(HistoryExportTest, CsvIsRfc4180WithTheRawRepetitions) {
  const std::map<std::string, CommitInfo> commits = {
      {"aaaa", {"aaaa", {}, 1714564800LL * 1'000'000'000, "s"}}};
  const std::string csv = ExportSeries(TwoPoints("BM_a,\"b\"\nc"), commits, false);
  EXPECT_EQ(csv,
            "time,commit,branch,testbed,benchmark,metric,unit,run,n,median,values\r\n"
            "2024-05-01T12:00:00Z,aaaa,main,tb,\"BM_a,\"\"b\"\"\nc\",cpu_time,ns/op,1,3,1.5,"
            "1.5 0.1 3\r\n"
            "1970-01-01T00:00:06Z,bbbb,main,tb,\"BM_a,\"\"b\"\"\nc\",cpu_time,ns/op,2,2,3,3 inf\r\n");
  EXPECT_EQ(CsvField(" lead"), "\" lead\"");
  EXPECT_EQ(CsvField("=1+1"), "=1+1");
}

TEST(HistoryExportTest, JsonParsesBackToTheSameNamesAndValues) {
  const std::string name = "BM_\"x\"\\\n\u202e";
  const std::string text = ExportSeries(TwoPoints(name), {}, true);
  StatusOr<json::Value> doc = json::Parse(text);
  ASSERT_TRUE(doc.ok()) << doc.status().message() << "\n" << text;
  ASSERT_EQ(doc->as_array().size(), 2u);
  const json::Value& first = doc->as_array()[0];
  EXPECT_EQ(first.Find("benchmark")->as_string(), name);
  EXPECT_EQ(first.Find("time")->as_string(), "1970-01-01T00:00:05Z");
  ASSERT_EQ(first.Find("values")->as_array().size(), 3u);
  EXPECT_EQ(first.Find("values")->as_array()[1].as_number(), 0.1);
  EXPECT_TRUE(doc->as_array()[1].Find("values")->as_array()[1].is_null());
  EXPECT_EQ(ExportSeries({}, {}, true), "[]\n");
}

TEST(HistoryShowTest, OneRowPerRunWithTheChange) {
  const std::map<std::string, CommitInfo> commits = {
      {"aaaa", {"aaaa", {}, 1714564800LL * 1'000'000'000, "first\nline ::warning::x"}}};
  const std::string table = RenderSeriesTable(TwoPoints("BM_\x1b[31mred"), commits);
  EXPECT_EQ(table,
            "BM_\xef\xbf\xbd[31mred  cpu_time (ns/op)  testbed tb  branch main\n"
            "commit  date        subject                  n   median      min      max    change\n"
            "aaaa    2024-05-01  first line ::warning::x  3  1.500ns    0.1ns  3.000ns\n"
            "bbbb    1970-01-01                           2  3.000ns  3.000ns        \xe2\x88\x9e  +100.00%\n");
}

}  // namespace
}  // namespace benchprof::history
