// What a region costs: one StartRegion + End pair (two events), with a trace
// being recorded, with none, and compiled out (trace_region_disabled.cc).
// The targets: <= 20 ns recording, <= 1 ns off.
//
//   build/release/tests/tracer/trace_region_benchmark --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
//
// BM_Region/recording starts its own trace whose writer discards the chunks
// unread, so the figure is the recording threads' cost alone (the writer's
// formatting runs on another thread; BM_WriterFormat measures it per event,
// which says how many events per second a real trace sustains before the
// pool runs dry and events are dropped). Run under --trace, it measures into
// that trace instead.
#include <benchmark/benchmark.h>

#include <memory>

#include "benchprof/trace.h"
#include "tracer/chrome_json_writer.h"
#include "tracer/record_decoder.h"
#include "tracer/trace_buffer.h"
#include "tracer/trace_clock.h"
#include "tracer/trace_recorder.h"

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

// Decoding and formatting one chunk of region events as JSON (to /dev/null):
// the writer's cost per event.
void BM_WriterFormat(benchmark::State& state) {
  using namespace benchprof::tracer;
  static Chunk chunk;
  const uint32_t count = kSlotsPerChunk - kSlotsPerChunk % 2;
  for (uint32_t i = 0; i < count; ++i) {
    const RecordKind kind = i % 2 == 0 ? RecordKind::kRegionBegin : RecordKind::kRegionEnd;
    chunk.slots[i].record =
        Record{1000 + 10 * uint64_t{i}, 0, reinterpret_cast<uint64_t>("Work"), Meta(kind)};
  }
  chunk.header.tid = 1;
  const TraceClock clock = TraceClock::Monotonic(0);
  ChromeJsonWriter json("/dev/null");
  json.Begin(TraceInfo{1, "bench", "monotonic"});
  RecordDecoder decoder(clock, json);
  for (auto _ : state) decoder.Decode(chunk, 0, count);
  state.SetItemsProcessed(state.iterations() * count);
  TraceTotals totals;
  decoder.Finish(0, totals);
  (void)json.End(totals);
}
BENCHMARK(BM_WriterFormat);

}  // namespace
