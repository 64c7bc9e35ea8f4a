// trace-summary on Perfetto traces: one run recorded in this process and
// written both ways at once (the JSON and the Perfetto writer over the same
// decoded records) gives the same summary; a Perfetto trace cut anywhere is
// read up to its last whole packet with a warning; chunk boundaries do not
// matter; gzip-compressed traces of either format are read; bytes that are
// not a Perfetto trace get one line naming the byte; a task's track is
// forgotten at its end.
#include "tools/trace_summary/perfetto_trace_reader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "benchprof/trace.h"
#include "encode/gzip.h"
#include "encode/perfetto_trace_writer.h"
#include "perfetto_trace.pb.h"
#include "support/perfetto_checker.h"
#include "support/subprocess.h"
#include "tools/trace_summary/trace_file_reader.h"
#include "tools/trace_summary/trace_summary.h"
#include "tools/trace_summary/trace_summary_format.h"
#include "tracer/chrome_json_writer.h"
#include "tracer/trace_recorder.h"

namespace benchprof::trace_summary {
namespace {

using testing::ReadFile;
using testing::TempDir;

// Both writers over the same decoded records: the test-only way to have one
// run in both formats.
class TeeFormatter final : public tracer::TraceFormatter {
 public:
  TeeFormatter(std::unique_ptr<TraceFormatter> a, std::unique_ptr<TraceFormatter> b)
      : a_(std::move(a)), b_(std::move(b)) {}
  void Begin(const tracer::TraceInfo& info) override {
    a_->Begin(info);
    b_->Begin(info);
  }
  void Add(const tracer::TraceEvent& event) override {
    a_->Add(event);
    b_->Add(event);
  }
  Status End(const tracer::TraceTotals& totals) override {
    Status a = a_->End(totals);
    Status b = b_->End(totals);
    return a.ok() ? b : a;
  }
  uint64_t events_written() const override { return a_->events_written(); }

 private:
  std::unique_ptr<TraceFormatter> a_, b_;
};

// The summary of `path` as --format=json renders it, without the fields
// that differ by format: the layout, and the number of events (the JSON
// writes each region of a task twice, on its thread and on its task's track;
// the caller compares those counts).
std::string SummaryJson(const std::string& path, TraceSummary* out = nullptr) {
  TraceSummarizer summarizer;
  StatusOr<TraceFileInfo> info =
      ReadTraceFile(path, [&](const TraceEvent& e) { summarizer.Add(e); });
  if (!info.ok()) return info.status().message();
  TraceSummary summary = std::move(summarizer).Finish("trace", *info);
  const TraceSummary kept = summary;
  summary.layout = TraceLayout::kObject;
  summary.events = 0;
  std::string json = RenderTraceSummary(summary, TraceSummaryFormat::kJson);
  if (out != nullptr) *out = kept;
  return json;
}

// An RSS-pool-like run: two workers take documents, each a task begun on
// the worker with a log and four regions; ten batches are tasks begun on the
// main thread with a region on a worker each (the task moves: a flow). The
// sampler adds CPU and allocation counters; a benchmark run with its timed
// loop and a wait of the main thread.
void RecordPoolRun() {
  tracer::RecordMarker(tracer::RecordKind::kLoopBegin);
  const uint64_t run_begin = tracer::ReadTicks();
  std::atomic<int> next{0};
  constexpr int kDocuments = 400;
  std::vector<Task> batches;
  for (int b = 0; b < 10; ++b) batches.push_back(NewTask("batch"));
  auto work = [&](const char* name) {
    tracer::NameCurrentThread(name);
    for (int d; (d = next.fetch_add(1)) < kDocuments;) {
      if (d < 10) Region merge = StartRegion(batches[static_cast<size_t>(d)], "Merge");
      Task task = NewTask("document");
      Log(task, "document", "feeds/" + std::to_string(d) + ".xml");
      for (const char* region : {"OpenFile", "ReadAll", "Unmarshal", "Search"}) {
        Region r = StartRegion(task, region);
        volatile uint64_t spin = 0;
        for (int i = 0; i < 2000; ++i) spin = spin + static_cast<uint64_t>(i);
      }
    }
  };
  std::thread a(work, "rss-pool");
  std::thread b(work, "rss-pool");
  const uint64_t wait_begin = tracer::ReadTicks();
  a.join();
  b.join();
  tracer::RecordBlocked(wait_begin, tracer::ReadTicks(), "blocked on a thread join");
  for (Task& batch : batches) batch.End();
  tracer::RecordMarker(tracer::RecordKind::kLoopEnd);
  tracer::RecordRun(run_begin, tracer::ReadTicks(), "BM_Freq/pool_tasks", kDocuments, 1, 1);
}

TEST(PerfettoTraceReaderTest, OneRunWrittenBothWaysGivesTheSameSummary) {
  TempDir dir;
  const std::string json_path = dir.File("a.json");
  const std::string perfetto_path = dir.File("b.pftrace");
  tracer::RecorderOptions options;
  options.process_name = "perfetto_trace_reader_test";
  options.sample_period = std::chrono::microseconds(1000);
  std::atomic<uint64_t> allocations{0};
  options.process_counters = [&] {
    const uint64_t n = allocations.fetch_add(1) + 1;
    return tracer::ProcessCounters{64 * n, n};
  };
  ASSERT_TRUE(tracer::StartRecording(std::make_unique<TeeFormatter>(
                                         std::make_unique<tracer::ChromeJsonWriter>(json_path),
                                         std::make_unique<encode::PerfettoTraceWriter>(perfetto_path)),
                                     options)
                  .ok());
  tracer::NameCurrentThread("main");
  RecordPoolRun();
  ASSERT_TRUE(tracer::StopRecording().ok());

  TraceSummary from_json, from_perfetto;
  const std::string json_summary = SummaryJson(json_path, &from_json);
  const std::string perfetto_summary = SummaryJson(perfetto_path, &from_perfetto);
  EXPECT_EQ(json_summary, perfetto_summary);
  // The JSON's extra events: the task-track copies of the 1,610 regions.
  EXPECT_EQ(from_json.events, from_perfetto.events + 2 * 1610);
  EXPECT_EQ(from_json.layout, TraceLayout::kObject);
  EXPECT_EQ(from_perfetto.layout, TraceLayout::kPerfetto);
  // What the summary found is the run, not two empty summaries.
  ASSERT_EQ(from_perfetto.tasks.size(), 2u);
  EXPECT_EQ(from_perfetto.tasks[0].name, "batch");
  EXPECT_EQ(from_perfetto.tasks[0].stats.count, 10u);
  EXPECT_EQ(from_perfetto.tasks[1].stats.count, 400u);
  ASSERT_EQ(from_perfetto.regions.size(), 5u);
  EXPECT_EQ(from_perfetto.regions[0].name, "Merge");
  EXPECT_EQ(from_perfetto.regions[0].stats.count, 10u);
  EXPECT_EQ(from_perfetto.regions[1].stats.count, 400u);
  EXPECT_GT(from_perfetto.cpus, 0u);
  EXPECT_GT(from_perfetto.events, 4000u);
  EXPECT_TRUE(std::any_of(from_perfetto.threads.begin(), from_perfetto.threads.end(),
                          [](const ThreadUsage& t) { return t.name == "main" && t.blocked_ns > 0; }));

  const testing::PerfettoCheck check = testing::CheckPerfettoTrace(ReadFile(perfetto_path));
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
  std::string error;
  EXPECT_NE(testing::ProtocDecode(PROTOC_PATH, PROTO_DIR, perfetto_path, &error), "") << error;
  // Batches begun on the main thread whose regions ran on the workers: a
  // flow from the task's track to each region.
  EXPECT_EQ(check.flows, 10u);

  const double json_bytes = static_cast<double>(ReadFile(json_path).size());
  const double perfetto_bytes = static_cast<double>(ReadFile(perfetto_path).size());
  std::printf("same run: JSON %.0f bytes, Perfetto %.0f bytes (%.1fx smaller)\n", json_bytes,
              perfetto_bytes, json_bytes / perfetto_bytes);
  EXPECT_LE(perfetto_bytes, json_bytes / 5);
}

// A Perfetto trace of every kind of event, made by the writer.
std::string SmallTrace(const std::string& path) {
  encode::PerfettoTraceWriter writer(path);
  writer.Begin(tracer::TraceInfo{10, "bench", "tsc", 2});
  for (int i = 0; i < 50; ++i) {
    tracer::TraceEvent e;
    e.tid = 11;
    e.type = tracer::EventType::kRegionBegin;
    e.ts_ns = 1000 * i;
    e.name = "Work";
    writer.Add(e);
    e.type = tracer::EventType::kRegionEnd;
    e.ts_ns += 500;
    writer.Add(e);
    e.type = tracer::EventType::kCpuUsage;
    e.tid = 12;
    e.subject_tid = 11;
    e.name = "CPU worker [11]";
    e.busy = 0.5;
    writer.Add(e);
  }
  tracer::TraceTotals totals;
  totals.end_ns = 60'000;
  totals.thread_names = {{11, "worker"}};
  EXPECT_TRUE(writer.End(totals).ok());
  return ReadFile(path);
}

StatusOr<TraceFileInfo> ReadBytes(const std::string& bytes, size_t chunk,
                                  std::vector<char>* phases = nullptr) {
  return ReadTraceText(
      bytes, "t.pftrace",
      [&](const TraceEvent& e) {
        if (phases != nullptr) phases->push_back(e.phase);
      },
      TraceReadOptions{chunk});
}

TEST(PerfettoTraceReaderTest, ChunkBoundariesDoNotMatter) {
  TempDir dir;
  const std::string bytes = SmallTrace(dir.File("t.pftrace"));
  std::vector<char> whole, bytewise;
  StatusOr<TraceFileInfo> a = ReadBytes(bytes, kDefaultTraceChunkBytes, &whole);
  StatusOr<TraceFileInfo> b = ReadBytes(bytes, 1, &bytewise);
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(a->layout, TraceLayout::kPerfetto);
  EXPECT_FALSE(a->truncated);
  EXPECT_EQ(whole, bytewise);
  // 50 B, 50 E, 50 C, the process's and the thread's names.
  EXPECT_EQ(a->events, 152u);
  EXPECT_EQ(a->bytes, bytes.size());
}

TEST(PerfettoTraceReaderTest, ATraceCutAnywhereIsReadUpToItsLastWholePacket) {
  TempDir dir;
  const std::string bytes = SmallTrace(dir.File("t.pftrace"));
  uint64_t previous = 0;
  for (size_t cut = 1; cut < bytes.size(); cut += 7) {
    SCOPED_TRACE(cut);
    StatusOr<TraceFileInfo> info = ReadBytes(bytes.substr(0, cut), 4096);
    if (!info.ok()) {
      // Only before the first event: one line.
      EXPECT_EQ(info.status().message().find('\n'), std::string::npos);
      EXPECT_NE(info.status().message().find("before any complete event"), std::string::npos)
          << info.status().message();
      EXPECT_EQ(previous, 0u);
      continue;
    }
    EXPECT_GE(info->events, previous);
    previous = info->events;
    // Every cut is seen: inside a packet, or between two (no totals).
    EXPECT_TRUE(info->truncated);
    if (info->truncated) {
      EXPECT_TRUE(info->truncation.ends_with(": the file ends inside a packet") ||
                  info->truncation.ends_with(": the file ends before the trace's totals"))
          << info->truncation;
      TraceSummarizer summarizer;
      const TraceSummary s = std::move(summarizer).Finish("t.pftrace", *info);
      ASSERT_FALSE(s.warnings.empty());
      EXPECT_NE(s.warnings[0].find("the trace was cut short"), std::string::npos);
    }
  }
  EXPECT_GT(previous, 100u);
}

TEST(PerfettoTraceReaderTest, GzipCompressedTracesOfEitherFormat) {
  TempDir dir;
  const std::string bytes = SmallTrace(dir.File("t.pftrace"));
  StatusOr<std::string> packed = encode::GzipCompress(bytes);
  ASSERT_TRUE(packed.ok());
  std::vector<char> plain, unpacked;
  ASSERT_TRUE(ReadBytes(bytes, 4096, &plain).ok());
  StatusOr<TraceFileInfo> info = ReadBytes(*packed, 4096, &unpacked);
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(plain, unpacked);
  StatusOr<std::string> json = encode::GzipCompress("[{\"ph\":\"i\",\"ts\":1}]");
  ASSERT_TRUE(json.ok());
  info = ReadBytes(*json, 4096);
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->layout, TraceLayout::kArray);
  EXPECT_EQ(info->events, 1u);
  info = ReadBytes("\x1f\x8b\x08garbage", 4096);
  ASSERT_FALSE(info.ok());
  EXPECT_TRUE(info.status().message().starts_with("t.pftrace: ")) << info.status().message();
}

TEST(PerfettoTraceReaderTest, BytesThatAreNotAPerfettoTraceGetOneLine) {
  const auto error = [](const std::string& bytes) {
    StatusOr<TraceFileInfo> info = ReadBytes(bytes, 4096);
    return info.ok() ? std::string("ok") : info.status().message();
  };
  // A packet whose contents are not protobuf (wire type 7).
  EXPECT_EQ(error(std::string("\x0A\x02\x0F\x00", 4)),
            "t.pftrace: byte 0: not a Perfetto trace (a packet is not protobuf)");
  // A whole packet, then something other than a packet.
  EXPECT_EQ(error(std::string("\x0A\x00\x12\x00", 4)),
            "t.pftrace: byte 2: not a Perfetto trace (expected a packet, field 1)");
  // A track event on a track no descriptor defined: packet {timestamp: 5,
  // track_event {track_uuid: 9}}.
  EXPECT_EQ(error(std::string("\x0A\x06\x40\x05\x5A\x02\x58\x09", 8)),
            "t.pftrace: byte 0: track 9 has no descriptor");
  // An interned name never defined on the sequence: track_event {name_iid: 3}.
  EXPECT_EQ(error(std::string("\x0A\x06\x40\x05\x5A\x02\x50\x03", 8)),
            "t.pftrace: byte 0: event name iid 3 is not defined on its sequence");
}

// A task's track is forgotten when its slice ends, and its entry reused for
// the next track described: a sequence whose default track it was does not
// use it after, and the next track starts afresh (its own id, no slice open).
TEST(PerfettoTraceReaderTest, AnEndedTasksTrackIsForgottenEvenAsADefault) {
  namespace pb = perfetto::protos;
  std::string bytes;
  const auto add = [&](const pb::TracePacket& packet) {
    pb::Trace trace;
    *trace.add_packet() = packet;
    bytes += trace.SerializeAsString();
  };
  const auto describe = [&](uint64_t uuid, const char* name) {
    pb::TracePacket packet;
    packet.mutable_track_descriptor()->set_uuid(uuid);
    packet.mutable_track_descriptor()->set_name(name);
    add(packet);
  };
  const auto slice = [&](uint64_t ts, pb::TrackEvent::Type type, uint64_t track, bool first) {
    pb::TracePacket packet;
    packet.set_trusted_packet_sequence_id(1);
    packet.set_timestamp(ts);
    if (first) {
      packet.set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
      packet.mutable_trace_packet_defaults()->mutable_track_event_defaults()->set_track_uuid(33);
    }
    packet.mutable_track_event()->set_type(type);
    if (track != 0) packet.mutable_track_event()->set_track_uuid(track);
    if (type == pb::TrackEvent::TYPE_SLICE_BEGIN) packet.mutable_track_event()->set_name("job");
    add(packet);
  };
  describe(33, "job");
  describe(65, "idle");  // described last: 33 is found as the default, not as the last described
  slice(10, pb::TrackEvent::TYPE_SLICE_BEGIN, 0, true);  // on the default track, 33
  slice(20, pb::TrackEvent::TYPE_SLICE_END, 0, false);
  describe(49, "job");  // 33's entry, reused
  slice(30, pb::TrackEvent::TYPE_SLICE_BEGIN, 49, false);
  slice(40, pb::TrackEvent::TYPE_SLICE_END, 49, false);
  std::vector<std::string> seen;
  StatusOr<TraceFileInfo> info = ReadTraceText(
      bytes, "t.pftrace",
      [&](const TraceEvent& e) {
        seen.push_back(std::string(1, e.phase) + " " + std::string(e.id) + " " +
                       std::to_string(*e.ts_ns));
      },
      TraceReadOptions{});
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(seen, (std::vector<std::string>{"b 0x21 10", "e 0x21 20", "b 0x31 30", "e 0x31 40"}));
  // Then the default track again: described no more.
  const size_t last = bytes.size();
  slice(50, pb::TrackEvent::TYPE_SLICE_BEGIN, 0, false);
  info = ReadTraceText(
      bytes, "t.pftrace", [](const TraceEvent&) {}, TraceReadOptions{});
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().message(),
            "t.pftrace: byte " + std::to_string(last) + ": track 33 has no descriptor");
}

}  // namespace
}  // namespace benchprof::trace_summary
