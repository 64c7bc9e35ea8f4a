// Golden outputs: the text, Markdown and JSON reports of comparing
// testdata/base.json with testdata/head.json (a regression by time, one by
// allocations, an improvement, too few samples, benchmarks added and
// removed, a failed benchmark), the Go text `benchprof convert` writes for
// them, and the report of comparing those Go texts. Then the same across a
// Google Benchmark upgrade: testdata/upgrade_base_1.7.1.json against
// testdata/upgrade_head_1.9.1.json (versions in the header, a benchmark
// skipped with State::SkipWithMessage, a failed one), and the Go text of
// the 1.9.1 file.
//
// To accept intended changes: BENCHPROF_UPDATE_GOLDEN=1 ctest -R '^golden_test$'
// in the build directory, then review the diff of tests/tools/golden/.
#include <gtest/gtest.h>

#include <string>

#include "support/golden_file.h"
#include "support/subprocess.h"
#include "tools/compare/comparison.h"
#include "tools/compare/table_writer.h"
#include "tools/convert/go_format_writer.h"
#include "tools/results/gbench_json.h"
#include "tools/results/result_reader.h"

namespace benchprof::compare {

using convert::GoFormatOptions;
using convert::GoTextWriter;
using results::AddResultText;
using results::GbenchResults;
using results::ParseGbenchJson;
using results::ResultSet;

namespace {

void ExpectGolden(const std::string& name, const std::string& actual) {
  testing::ExpectMatchesGolden(std::string(COMPARE_GOLDEN_DIR) + "/" + name, actual);
}

// Reads a test data file under the name it has in the golden outputs.
ResultSet Read(const std::string& name) {
  ResultSet set;
  const Status s =
      AddResultText(name, testing::ReadFile(std::string(COMPARE_TESTDATA_DIR) + "/" + name), set);
  EXPECT_TRUE(s.ok()) << s.message();
  return set;
}

std::string ConvertToGo(const std::string& name) {
  StatusOr<GbenchResults> results =
      ParseGbenchJson(testing::ReadFile(std::string(COMPARE_TESTDATA_DIR) + "/" + name));
  EXPECT_TRUE(results.ok());
  GoTextWriter writer(GoFormatOptions{});
  writer.Add(name, *results);
  return writer.Finish();
}

TEST(GoldenTest, CompareReports) {
  const Comparison c = Compare(Read("base.json"), Read("head.json"), CompareOptions{});
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  ExpectGolden("compare.txt", RenderComparison(c, OutputFormat::kText));
  ExpectGolden("compare.md", RenderComparison(c, OutputFormat::kMarkdown));
  ExpectGolden("compare.json", RenderComparison(c, OutputFormat::kJson));
}

TEST(GoldenTest, ConvertAndCompareGoText) {
  const std::string base = ConvertToGo("base.json");
  const std::string head = ConvertToGo("head.json");
  ExpectGolden("base.go.txt", base);
  ExpectGolden("head.go.txt", head);
  ResultSet base_set, head_set;
  ASSERT_TRUE(AddResultText("base.go.txt", base, base_set).ok());
  ASSERT_TRUE(AddResultText("head.go.txt", head, head_set).ok());
  const Comparison c = Compare(base_set, head_set, CompareOptions{});
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  ExpectGolden("compare_go.txt", RenderComparison(c, OutputFormat::kText));
}

TEST(GoldenTest, CompareAcrossAGoogleBenchmarkUpgrade) {
  const Comparison c =
      Compare(Read("upgrade_base_1.7.1.json"), Read("upgrade_head_1.9.1.json"), CompareOptions{});
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  ExpectGolden("compare_upgrade.txt", RenderComparison(c, OutputFormat::kText));
  ExpectGolden("compare_upgrade.md", RenderComparison(c, OutputFormat::kMarkdown));
  ExpectGolden("compare_upgrade.json", RenderComparison(c, OutputFormat::kJson));
  ExpectGolden("upgrade_head_1.9.1.go.txt", ConvertToGo("upgrade_head_1.9.1.json"));
}

}  // namespace
}  // namespace benchprof::compare
