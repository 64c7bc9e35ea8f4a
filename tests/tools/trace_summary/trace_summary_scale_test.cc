// trace-summary on a generated trace of one million events (~100 MB, the
// shape of the annotated RSS pool: a task per document with four regions,
// their task-track copies, CPU counters), read from a file the way the
// command reads it. Prints the throughput of the whole command in MB/s and
// events/s (not asserted: the machines are shared; it is how the reader's
// speed is watched) and checks every count, so the streaming path is
// exercised end to end at scale.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "support/subprocess.h"
#include "tools/trace_summary/trace_file_reader.h"
#include "tools/trace_summary/trace_summary.h"
#include "tools/trace_summary/trace_summary_command.h"

namespace benchprof::trace_summary {
namespace {

constexpr int kThreads = 4;
constexpr int kEventsPerDocument = 19;  // task b/e, 4 x (B, b, E, e), 1 counter
constexpr int kDocuments = 1000000 / kEventsPerDocument;
const char* const kRegions[] = {"OpenFile", "ReadAll", "Unmarshal", "Search"};

// Writes the trace; returns its size in bytes.
size_t WriteTrace(const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int64_t> region_ns(1000, 200000);
  int64_t clock_ns[kThreads] = {};
  char line[512];
  auto ts = [](int64_t ns) {
    return std::to_string(ns / 1000) + "." + std::to_string(1000 + ns % 1000).substr(1);
  };
  out << "{\"traceEvents\":[\n";
  for (int t = 0; t < kThreads; ++t) {
    std::snprintf(line, sizeof line,
                  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":"
                  "\"benchmark worker %d\"}},\n",
                  100 + t, t + 1);
    out << line;
  }
  for (int d = 1; d <= kDocuments; ++d) {
    const int t = d % kThreads;
    const int tid = 100 + t;
    int64_t& now = clock_ns[t];
    std::snprintf(line, sizeof line,
                  "{\"ph\":\"C\",\"cat\":\"cpu\",\"name\":\"CPU benchmark worker %d [%d]\","
                  "\"pid\":1,\"tid\":99,\"ts\":%s,\"args\":{\"busy\":0.75}},\n",
                  t + 1, tid, ts(now).c_str());
    out << line;
    std::snprintf(line, sizeof line,
                  "{\"ph\":\"b\",\"cat\":\"task\",\"name\":\"document\",\"id\":\"0x%x\",\"pid\":1,"
                  "\"tid\":%d,\"ts\":%s,\"args\":{\"kind\":\"task\",\"parent\":\"0x0\"}},\n",
                  d, tid, ts(now).c_str());
    out << line;
    for (const char* region : kRegions) {
      std::snprintf(line, sizeof line,
                    "{\"ph\":\"B\",\"cat\":\"region\",\"name\":\"%s\",\"pid\":1,\"tid\":%d,"
                    "\"ts\":%s,\"args\":{\"task\":%d}},\n"
                    "{\"ph\":\"b\",\"cat\":\"task\",\"name\":\"%s\",\"id\":\"0x%x\",\"pid\":1,"
                    "\"tid\":%d,\"ts\":%s,\"args\":{\"kind\":\"region\"}},\n",
                    region, tid, ts(now).c_str(), d, region, d, tid, ts(now).c_str());
      out << line;
      now += region_ns(rng);
      std::snprintf(line, sizeof line,
                    "{\"ph\":\"E\",\"cat\":\"region\",\"pid\":1,\"tid\":%d,\"ts\":%s},\n"
                    "{\"ph\":\"e\",\"cat\":\"task\",\"name\":\"%s\",\"id\":\"0x%x\",\"pid\":1,"
                    "\"tid\":%d,\"ts\":%s,\"args\":{\"kind\":\"region\"}},\n",
                    tid, ts(now).c_str(), region, d, tid, ts(now).c_str());
      out << line;
    }
    std::snprintf(line, sizeof line,
                  "{\"ph\":\"e\",\"cat\":\"task\",\"name\":\"document\",\"id\":\"0x%x\",\"pid\":1,"
                  "\"tid\":%d,\"ts\":%s,\"args\":{\"kind\":\"task\"}}%s\n",
                  d, tid, ts(now).c_str(), d == kDocuments ? "" : ",");
    out << line;
    now += 1000;
  }
  out << "],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"producer\":\"scale test\","
         "\"dropped_events\":0}}\n";
  out.flush();
  return static_cast<size_t>(out.tellp());
}

TEST(TraceSummaryScaleTest, OneMillionEvents) {
  testing::TempDir dir;
  const std::string path = dir.File("big.json");
  const size_t bytes = WriteTrace(path);
  ASSERT_GT(bytes, 50u << 20);

  const uint64_t events = kThreads + uint64_t{kDocuments} * kEventsPerDocument;
  {
    // `benchprof trace-summary big.json`, all of it: read, summarize, format.
    std::string out, err;
    const auto start = std::chrono::steady_clock::now();
    const int exit_code = RunTraceSummaryCommand({path}, out, err);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(exit_code, 0) << err;
    EXPECT_EQ(err, "");
    std::printf(
        "benchprof trace-summary: %llu events, %.1f MB in %.3f s: %.0f MB/s, %.2f M events/s\n",
        static_cast<unsigned long long>(events), bytes / 1e6, seconds, bytes / 1e6 / seconds,
        events / 1e6 / seconds);
    RecordProperty("mb_per_s", std::to_string(bytes / 1e6 / seconds));
  }

  TraceSummarizer summarizer;
  StatusOr<TraceFileInfo> info =
      ReadTraceFile(path, [&summarizer](const TraceEvent& e) { summarizer.Add(e); });
  ASSERT_TRUE(info.ok()) << info.status().message();
  const TraceSummary s = std::move(summarizer).Finish(path, *info);
  EXPECT_EQ(info->events, events);
  EXPECT_EQ(info->bytes, bytes);
  EXPECT_FALSE(info->truncated);
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].stats.count, static_cast<uint64_t>(kDocuments));
  ASSERT_EQ(s.regions.size(), 4u);
  for (const NamedDurations& r : s.regions) {
    EXPECT_EQ(r.stats.count, static_cast<uint64_t>(kDocuments)) << r.name;
    EXPECT_GE(r.stats.min_ns, 1000);
    EXPECT_LE(r.stats.max_ns, 200000);
    // Uniform on [1 µs, 200 µs]: the median is near 100.5 µs.
    EXPECT_NEAR(static_cast<double>(r.stats.p50_ns), 100500, 2000) << r.name;
  }
  ASSERT_EQ(s.threads.size(), static_cast<size_t>(kThreads));
  for (const ThreadUsage& t : s.threads) EXPECT_NEAR(s.BusyShare(t), 0.75, 0.01) << t.name;
  EXPECT_EQ(s.unmatched.total(), 0u);
  EXPECT_TRUE(s.warnings.empty());
}

}  // namespace
}  // namespace benchprof::trace_summary
