// `bench` end to end: the Elvis benchmarks under --benchmem, and the
// harness's refusal to report allocation figures it cannot measure.
#include <gtest/gtest.h>

#include <string>

#include "common/json_value.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::RunProcess;

class BenchIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "built without allocation hooks (sanitizer build)";
  }
};

TEST_F(BenchIntegrationTest, ElvisAlgorithmsReportTheirAllocations) {
  const ProcessResult result = RunProcess({BENCH_PATH, "--benchmark_filter=Alg", "--benchmem",
                                           "--benchmark_format=json", "--benchmark_min_time=0.05"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> doc = json::Parse(result.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const auto& rows = doc->Find("benchmarks")->as_array();
  ASSERT_EQ(rows.size(), 2u);

  EXPECT_EQ(rows[0].Find("name")->as_string(), "BM_AlgorithmOne");
  // One heap reader object (32 bytes: vtable, data, size, offset) and one
  // 5-byte window per call.
  EXPECT_EQ(rows[0].Find("allocs/op")->as_number(), 2);
  EXPECT_EQ(rows[0].Find("B/op")->as_number(), 37);

  EXPECT_EQ(rows[1].Find("name")->as_string(), "BM_AlgorithmTwo");
  EXPECT_EQ(rows[1].Find("allocs/op")->as_number(), 0);
  EXPECT_EQ(rows[1].Find("B/op")->as_number(), 0);
  EXPECT_EQ(doc->Find("context")->Find("benchprof_benchmem")->as_string(), "true");
}

TEST_F(BenchIntegrationTest, ConsoleShowsCountersLikeGoBenchmem) {
  const ProcessResult result =
      RunProcess({BENCH_PATH, "--benchmark_filter=Alg", "--benchmem", "--benchmark_min_time=0.02"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_NE(result.stdout_text.find("allocs/op=2"), std::string::npos) << result.stdout_text;
  EXPECT_NE(result.stdout_text.find("B/op=0 allocs/op=0"), std::string::npos) << result.stdout_text;
}

TEST_F(BenchIntegrationTest, UnwrappedBinaryRefusesToReportAllocations) {
  const ProcessResult result = RunProcess({UNWRAPPED_BENCH_PATH, "--benchmem"});
  EXPECT_EQ(result.exit_code, 4);
  EXPECT_NE(result.stderr_text.find("self-test failed"), std::string::npos) << result.stderr_text;
  EXPECT_EQ(result.stdout_text.find("allocs/op"), std::string::npos);
}

TEST_F(BenchIntegrationTest, UnwrappedBinaryStillTimesWithoutBenchmem) {
  const ProcessResult result = RunProcess({UNWRAPPED_BENCH_PATH, "--benchmark_min_time=0.01"});
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_NE(result.stdout_text.find("BM_Trivial"), std::string::npos);
}

TEST_F(BenchIntegrationTest, BenchmarkInSharedLibraryIsAnErrorNotZeros) {
  if (std::string(SHARED_LIB_BENCH_PATH).empty()) {
    GTEST_SKIP() << "Google Benchmark is a static library here: no benchmark can be in a shared "
                    "library (tests/CMakeLists.txt, shared_benchmarks)";
  }
  const ProcessResult result = RunProcess({SHARED_LIB_BENCH_PATH, "--benchmem",
                                           "--benchmark_format=json", "--benchmark_min_time=0.01"});
  EXPECT_EQ(result.exit_code, 1);
  StatusOr<json::Value> doc = json::Parse(result.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message() << result.stdout_text;
  const auto& rows = doc->Find("benchmarks")->as_array();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].Find("name")->as_string(), "BM_InSharedLibrary");
  EXPECT_TRUE(rows[0].Find("error_occurred")->as_bool());
  EXPECT_NE(rows[0].Find("error_message")->as_string().find("not intercepted"), std::string::npos);
  EXPECT_EQ(rows[0].Find("allocs/op"), nullptr);
}

}  // namespace
}  // namespace benchprof
