// trace-summary on a generated Perfetto trace of the annotated RSS pool's
// shape (a task per document, a log, four regions, CPU counters on four
// workers), about 50 MB, written by the Perfetto writer and read from the
// file the way the command reads it. Prints the reader's throughput alone,
// with the summary, and with the summary's statistics; the target
// for the reader is 500 MB/s, asserted only as a generous 100 MB/s (the
// machines are shared), and every count is checked.
#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "encode/perfetto_trace_writer.h"
#include "support/subprocess.h"
#include "tools/trace_summary/trace_file_reader.h"
#include "tools/trace_summary/trace_summary.h"

namespace benchprof::trace_summary {
namespace {

constexpr int kWorkers = 4;
constexpr int kDocuments = 250'000;
const char* const kRegions[] = {"OpenFile", "ReadAll", "Unmarshal", "Search"};

double CpuSeconds() {
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

void WriteTrace(const std::string& path) {
  using tracer::EventType;
  encode::PerfettoTraceWriter writer(path);
  writer.Begin(tracer::TraceInfo{1, "bench", "tsc", 4});
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int64_t> region_ns(1000, 200000);
  int64_t clock_ns[kWorkers] = {};
  std::string message;
  for (int d = 1; d <= kDocuments; ++d) {
    const int w = d % kWorkers;
    tracer::TraceEvent e;
    e.tid = 100 + w;
    int64_t& now = clock_ns[w];
    e.type = EventType::kTaskBegin;
    e.ts_ns = now;
    e.name = "document";
    e.task_id = static_cast<uint64_t>(d);
    writer.Add(e);
    e.type = EventType::kLog;
    message = "feeds/" + std::to_string(d) + ".xml";
    e.message = message;
    writer.Add(e);
    for (const char* region : kRegions) {
      e.type = EventType::kRegionBegin;
      e.name = region;
      e.ts_ns = now += 500;
      writer.Add(e);
      e.type = EventType::kRegionEnd;
      e.ts_ns = now += region_ns(rng);
      writer.Add(e);
    }
    e.type = EventType::kTaskEnd;
    e.name = "document";
    e.ts_ns = now += 100;
    writer.Add(e);
    if (d % 20 == 0) {
      tracer::TraceEvent cpu;
      cpu.type = EventType::kCpuUsage;
      cpu.tid = 99;
      cpu.subject_tid = 100 + w;
      const std::string name = "CPU rss-pool [" + std::to_string(100 + w) + "]";
      cpu.name = name;
      cpu.ts_ns = now;
      cpu.busy = 0.75;
      writer.Add(cpu);
    }
  }
  tracer::TraceTotals totals;
  for (int w = 0; w < kWorkers; ++w) {
    totals.end_ns = std::max(totals.end_ns, clock_ns[w]);
    totals.thread_names.emplace_back(100 + w, "rss-pool");
  }
  ASSERT_TRUE(writer.End(totals).ok());
}

TEST(PerfettoTraceReaderScaleTest, RssPoolShapedTrace) {
  testing::TempDir dir;
  const std::string path = dir.File("pool.pftrace");
  WriteTrace(path);
  // The reader alone, then with the summary (the command's work). CPU
  // time too: on a shared machine the wall clock says more of the others.
  auto start = std::chrono::steady_clock::now();
  const double cpu_start = CpuSeconds();
  uint64_t seen = 0;
  StatusOr<TraceFileInfo> alone = ReadTraceFile(path, [&](const TraceEvent&) { ++seen; });
  const double read_cpu = CpuSeconds() - cpu_start;
  const double read_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(alone.ok()) << alone.status().message();
  const double read_mb = static_cast<double>(alone->bytes) / 1e6;
  std::printf("read %.1f MB (%llu events) in %.3f s: %.0f MB/s (%.0f MB/s of CPU time)\n",
              read_mb, static_cast<unsigned long long>(seen), read_seconds,
              read_mb / read_seconds, read_mb / read_cpu);
  start = std::chrono::steady_clock::now();
  const double summary_cpu_start = CpuSeconds();
  TraceSummarizer summarizer;
  StatusOr<TraceFileInfo> info =
      ReadTraceFile(path, [&](const TraceEvent& e) { summarizer.Add(e); });
  const double summary_cpu = CpuSeconds() - summary_cpu_start;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(info.ok()) << info.status().message();
  const auto finish_start = std::chrono::steady_clock::now();
  const TraceSummary s = std::move(summarizer).Finish(path, *info);
  const double finish_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - finish_start).count();
  const double mb = static_cast<double>(info->bytes) / 1e6;
  std::printf("read and summarized %.1f MB (%llu events) in %.3f s: %.0f MB/s (%.0f MB/s of CPU "
              "time)\n",
              mb, static_cast<unsigned long long>(info->events), seconds, mb / seconds,
              mb / summary_cpu);
  // Finish() computes the percentiles of every task's and region's
  // duration: the rest of what the command does before printing.
  std::printf("and the summary's statistics in %.3f s: %.0f MB/s in all\n", finish_seconds,
              mb / (seconds + finish_seconds));
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].stats.count, static_cast<uint64_t>(kDocuments));
  ASSERT_EQ(s.regions.size(), 4u);
  for (const NamedDurations& r : s.regions) {
    EXPECT_EQ(r.stats.count, static_cast<uint64_t>(kDocuments)) << r.name;
  }
  EXPECT_EQ(s.unmatched.total(), 0u);
  EXPECT_EQ(s.threads.size(), static_cast<size_t>(kWorkers));
  EXPECT_GT(mb, 30.0);
  EXPECT_GT(read_mb / read_cpu, 100.0);
}

}  // namespace
}  // namespace benchprof::trace_summary
