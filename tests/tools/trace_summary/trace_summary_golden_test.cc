// Golden outputs of `benchprof trace-summary` for testdata/trace_pool.json,
// a hand-written trace of a two-worker pool whose expected numbers were
// computed by hand (golden/trace_summary.txt was written before the code
// ran):
//   - interval 0..10 ms; busy integrals: worker 1 0.9*4 ms + 0.5*4 ms =
//     5.6 ms (56%), main 1 ms + 0.1*8 ms + 1 ms = 2.8 ms (28%), worker 2
//     0.25*8 ms = 2 ms (20%), "thread 77" 0; parallelism 10.4/10 = 1.04;
//   - tasks "document": 2 ms, 500.1 µs, 4 ms, 1.25 ms (one ends before it
//     begins in the file), p50 = rank 2 = 1.25 ms, p90 = p99 = rank 4;
//     "feed": 9 ms; the regions' task-track copies (kind "region") are not
//     tasks;
//   - regions Unmarshal 500, 250, 1000 µs (p50 = rank 2 = 500 µs), Search
//     12.5 µs and 42 ns, Decode 100 µs nested in Unmarshal; the benchmark
//     spans are not regions;
//   - unmatched: one B (Search at 8.5 ms), one E, one task b (0x6); three
//     dropped events.
//
// To accept intended changes: BENCHPROF_UPDATE_GOLDEN=1 ctest -R '^trace_summary_golden_test$'
// in the build directory, then review the diff of tests/tools/golden/.
#include <gtest/gtest.h>

#include <string>

#include "support/golden_file.h"
#include "support/subprocess.h"
#include "tools/trace_summary/trace_file_reader.h"
#include "tools/trace_summary/trace_summary.h"
#include "tools/trace_summary/trace_summary_format.h"

namespace benchprof::trace_summary {
namespace {

void ExpectGolden(const std::string& name, const std::string& actual) {
  testing::ExpectMatchesGolden(std::string(COMPARE_GOLDEN_DIR) + "/" + name, actual);
}

// The fixture summarized under the name the golden files show, read
// `chunk` bytes at a time.
TraceSummary SummarizeFixture(size_t chunk) {
  const std::string text =
      testing::ReadFile(std::string(COMPARE_TESTDATA_DIR) + "/trace_pool.json");
  TraceSummarizer summarizer;
  TraceReadOptions options;
  options.chunk_bytes = chunk;
  StatusOr<TraceFileInfo> info = ReadTraceText(
      text, "trace_pool.json", [&](const TraceEvent& e) { summarizer.Add(e); }, options);
  EXPECT_TRUE(info.ok()) << info.status().message();
  return std::move(summarizer).Finish("trace_pool.json", info.ok() ? *info : TraceFileInfo{});
}

TEST(TraceSummaryGoldenTest, TextAndJson) {
  const TraceSummary s = SummarizeFixture(kDefaultTraceChunkBytes);
  EXPECT_EQ(s.events, 53u);
  ExpectGolden("trace_summary.txt", RenderTraceSummary(s, TraceSummaryFormat::kText));
  ExpectGolden("trace_summary.json", RenderTraceSummary(s, TraceSummaryFormat::kJson));
}

TEST(TraceSummaryGoldenTest, SameOutputWhateverTheChunkSize) {
  const std::string expected =
      RenderTraceSummary(SummarizeFixture(kDefaultTraceChunkBytes), TraceSummaryFormat::kJson);
  for (size_t chunk : {1, 2, 3, 17, 256, 4096}) {
    EXPECT_EQ(RenderTraceSummary(SummarizeFixture(chunk), TraceSummaryFormat::kJson), expected)
        << "chunk " << chunk;
  }
}

}  // namespace
}  // namespace benchprof::trace_summary
