// What a region costs: one StartRegion + End pair (two events), with a trace
// being recorded, with none, and compiled out (trace_region_disabled.cc).
// The targets: <= 20 ns recording, <= 1 ns off.
//
//   build/release/tests/tracer/trace_region_benchmark --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
//
// BM_Region/recording starts its own trace whose writer discards the chunks
// unread, so the figure is the recording threads' cost alone (the writer's
// formatting runs on another thread; BM_WriterFormat/json and /perfetto
// measure it per record for each file format on the same records, which
// says how many events per second a real trace sustains before the pool
// runs dry and events are dropped; BM_StoreChunk/spool and /window what the
// writer does with them while benchmarks run, without and with
// --trace_window). Run under --trace, it measures into that trace instead.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string_view>

#include "benchprof/trace.h"
#include "encode/perfetto_trace_writer.h"
#include "tracer/chrome_json_writer.h"
#include "tracer/record_decoder.h"
#include "tracer/trace_buffer.h"
#include "tracer/trace_clock.h"
#include "tracer/trace_recorder.h"
#include "tracer/trace_spool.h"
#include "tracer/trace_window.h"

namespace {

void BM_Region_NotRecording(benchmark::State& state) {
  if (benchprof::TraceIsRecording()) {
    state.SkipWithError("run without --trace");
    return;
  }
  for (auto _ : state) {
    benchprof::Region region = benchprof::StartRegion("Work");
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Region_NotRecording);

void BM_Region_Recording(benchmark::State& state) {
  const bool own_trace = !benchprof::TraceIsRecording();
  if (own_trace) {
    benchprof::tracer::RecorderOptions options;
    options.sample_cpu = false;
    options.chunk_count = 1024;
    if (benchprof::Status started = benchprof::tracer::StartRecording(nullptr, options);
        !started.ok()) {
      state.SkipWithError(started.message().c_str());
      return;
    }
  }
  benchprof::Task task = benchprof::NewTask("benchmark");
  { benchprof::Region first = benchprof::StartRegion(task, "First"); }  // the slot and a chunk
  for (auto _ : state) {
    benchprof::Region region = benchprof::StartRegion(task, "Work");
    benchmark::ClobberMemory();
  }
  task.End();
  if (own_trace) {
    benchprof::StatusOr<benchprof::tracer::RecorderStats> stats =
        benchprof::tracer::StopRecording();
    if (!stats.ok()) {
      state.SkipWithError(stats.status().message().c_str());
      return;
    }
    // Drops would make this the cost of dropping, not of recording.
    state.counters["dropped"] = static_cast<double>(stats->dropped_events);
  }
}
BENCHMARK(BM_Region_Recording);

// The floor of a recorded region: its two timestamps (rdtsc when the TSC is
// invariant, as BM_Region_Recording uses).
void BM_TwoTimestamps(benchmark::State& state) {
  benchprof::tracer::SetTickSource(benchprof::tracer::TscIsInvariant()
                                       ? benchprof::tracer::ClockSource::kTsc
                                       : benchprof::tracer::ClockSource::kMonotonic);
  for (auto _ : state) {
    benchmark::DoNotOptimize(benchprof::tracer::ReadTicks());
    benchmark::DoNotOptimize(benchprof::tracer::ReadTicks());
  }
}
BENCHMARK(BM_TwoTimestamps);

// Fills `chunk` with a thread's share of the annotated RSS pool: per
// document a task, a log and four regions. Returns the slots used.
uint32_t FillWithRssPoolRecords(benchprof::tracer::Chunk& chunk) {
  using namespace benchprof::tracer;
  uint32_t count = 0;
  uint64_t ticks = 1000;
  uint64_t task = 1;
  const char* const regions[] = {"OpenFile", "ReadAll", "Unmarshal", "Search"};
  auto add = [&](RecordKind kind, uint64_t a, const char* name) {
    chunk.slots[count++].record = Record{ticks += 700, a, reinterpret_cast<uint64_t>(name),
                                         Meta(kind, 0, kind == RecordKind::kTaskBegin ? 1 : 0)};
    if (kind == RecordKind::kTaskBegin) chunk.slots[count++] = RecordSlot{};  // parent 0
  };
  while (count + 16 < kSlotsPerChunk) {
    add(RecordKind::kTaskBegin, task, "document");
    const std::string_view message = "feeds/1234.xml";
    chunk.slots[count].record =
        Record{ticks += 100, task, reinterpret_cast<uint64_t>("document"),
               Meta(RecordKind::kLog, static_cast<uint32_t>(message.size()), 1)};
    std::memcpy(chunk.slots[count + 1].bytes, message.data(), message.size());
    count += 2;
    for (const char* region : regions) {
      add(RecordKind::kRegionBegin, task, region);
      add(RecordKind::kRegionEnd, task, region);
    }
    add(RecordKind::kTaskEnd, task, "document");
    ++task;
  }
  chunk.header.tid = 1;
  return count;
}

// Decoding and formatting one chunk of events (to /dev/null): the writer's
// cost per event, for each format on the same records.
template <typename Writer>
void BM_WriterFormat(benchmark::State& state) {
  using namespace benchprof::tracer;
  static Chunk chunk;
  const uint32_t count = FillWithRssPoolRecords(chunk);
  const TraceClock clock = TraceClock::Monotonic(0);
  Writer writer("/dev/null");
  writer.Begin(TraceInfo{1, "bench", "monotonic"});
  RecordDecoder decoder(clock, writer);
  uint64_t events = 0;
  for (auto _ : state) {
    const uint64_t before = writer.events_written();
    decoder.Decode(chunk, 0, count);
    events += writer.events_written() - before;
  }
  // Per record decoded: the same for both formats (the JSON writes more
  // entries per record: a region of a task twice).
  state.SetItemsProcessed(state.iterations() * count);
  state.counters["entries/iter"] = static_cast<double>(events) / state.iterations();
  TraceTotals totals;
  decoder.Finish(0, totals);
  (void)writer.End(totals);
}
BENCHMARK_TEMPLATE(BM_WriterFormat, benchprof::tracer::ChromeJsonWriter)
    ->Name("BM_WriterFormat/json");
BENCHMARK_TEMPLATE(BM_WriterFormat, benchprof::encode::PerfettoTraceWriter)
    ->Name("BM_WriterFormat/perfetto");

// What the writer does with a filled chunk while the benchmarks run: append
// it to the spool (a write to a temporary file) for a whole trace, or pack
// it into the flight recorder's window (--trace_window). Per record, on the
// same records as BM_WriterFormat; for the window also the packed size.
void BM_StoreChunk_Spool(benchmark::State& state) {
  using namespace benchprof::tracer;
  static Chunk chunk;
  const uint32_t count = FillWithRssPoolRecords(chunk);
  for (auto _ : state) {
    state.PauseTiming();  // a fresh spool now and then: the disk is not the subject
    benchprof::StatusOr<TraceSpool> spool = TraceSpool::Create();
    if (!spool.ok()) {
      state.SkipWithError(spool.status().message().c_str());
      return;
    }
    state.ResumeTiming();
    for (int i = 0; i < 64; ++i) (void)spool->Append(1, chunk.slots, count);
  }
  state.SetItemsProcessed(state.iterations() * 64 * count);
}
BENCHMARK(BM_StoreChunk_Spool)->Name("BM_StoreChunk/spool");

void BM_StoreChunk_Window(benchmark::State& state) {
  using namespace benchprof::tracer;
  static Chunk chunk;
  const uint32_t count = FillWithRssPoolRecords(chunk);
  TraceWindow window(/*window_ticks=*/UINT64_MAX / 2, 64 * TraceWindow::kBlockBytes);
  for (auto _ : state) {
    for (int i = 0; i < 64; ++i) (void)window.Append(1, chunk.slots, count);
  }
  state.SetItemsProcessed(state.iterations() * 64 * count);
  state.counters["bytes/record"] =
      static_cast<double>(window.bytes_kept()) / static_cast<double>(window.records_kept());
}
BENCHMARK(BM_StoreChunk_Window)->Name("BM_StoreChunk/window");

}  // namespace
