// The RSS benchmarks in `bench`: rssSearch's fix shows in allocs/op, every
// Freq variant runs without error, and the benchmark corpus does not outlive
// the process.

#include <gtest/gtest.h>

#include <string>

#include "common/json_value.h"
#include "support/subprocess.h"

namespace benchprof::rss {
namespace {

using ::benchprof::testing::ListDirectory;
using ::benchprof::testing::ProcessResult;
using ::benchprof::testing::RunProcess;
using ::benchprof::testing::TempDir;

const json::Value* Row(const json::Value& doc, const std::string& name) {
  for (const json::Value& row : doc.Find("benchmarks")->as_array()) {
    if (row.Find("name")->as_string() == name) return &row;
  }
  return nullptr;
}

TEST(RssBenchIntegrationTest, RssSearchFixShowsInAllocsPerOp) {
  if (!ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "built without allocation hooks (sanitizer build)";
  const ProcessResult result = RunProcess({BENCH_PATH, "--benchmark_filter=RssSearch", "--benchmem",
                                           "--benchmark_format=json", "--benchmark_min_time=0.05"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> doc = json::Parse(result.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  ASSERT_EQ(doc->Find("benchmarks")->as_array().size(), 2u) << result.stdout_text;
  const json::Value* before = Row(*doc, "BM_RssSearch/before");
  const json::Value* after = Row(*doc, "BM_RssSearch/after");
  ASSERT_NE(before, nullptr) << result.stdout_text;
  ASSERT_NE(after, nullptr) << result.stdout_text;

  // Same results: 8 per feed, 12 feeds.
  EXPECT_EQ(before->Find("results")->as_number(), 96);
  EXPECT_EQ(after->Find("results")->as_number(), 96);
  // "before" allocates one lower-cased copy per description per call:
  // 12 feeds x 39 items = 468 more allocations than "after", whose
  // allocations are the results it returns.
  const double before_allocs = before->Find("allocs/op")->as_number();
  const double after_allocs = after->Find("allocs/op")->as_number();
  EXPECT_GT(before_allocs, after_allocs);
  EXPECT_EQ(before_allocs - after_allocs, 12 * 39);
  EXPECT_GT(before->Find("B/op")->as_number(), after->Find("B/op")->as_number());
}

TEST(RssBenchIntegrationTest, FreqVariantsRunAndCleanUp) {
  TempDir tmp;
  const ProcessResult result = RunProcess({BENCH_PATH, "--benchmark_filter=Freq/",
                                           "--benchmark_format=json", "--benchmark_min_time=0.001"},
                                          {"TMPDIR=" + tmp.path()});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> doc = json::Parse(result.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const auto& rows = doc->Find("benchmarks")->as_array();
  ASSERT_EQ(rows.size(), 6u) << result.stdout_text;
  for (const json::Value& row : rows) {
    const std::string name = row.Find("name")->as_string();
    EXPECT_EQ(name.rfind("BM_Freq/", 0), 0u) << name;
    // A wrong hit count or a failed document is reported as an error.
    EXPECT_EQ(row.Find("error_occurred"), nullptr) << name << ": " << result.stdout_text;
    EXPECT_GT(row.Find("docs/s")->as_number(), 0) << name;
  }
  EXPECT_NE(Row(*doc, "BM_Freq/sequential/docs:200"), nullptr) << result.stdout_text;
  // The corpus lived in a temporary directory under $TMPDIR, now removed.
  EXPECT_TRUE(ListDirectory(tmp.path()).empty());
}

}  // namespace
}  // namespace benchprof::rss
