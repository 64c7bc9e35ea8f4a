// Benchmarks for the ray tracer workload: the reference scene rendered by
// each implementation with each schedule, named
// BM_Render/<implementation>/<schedule>/<width>x<height>[/workers:N].
//
// The naive and cached implementations render the same reduced image, so
// their ns/op and allocs/op compare directly; the optimized one renders the
// full 640x480 frame (its px/s compares with the others'). Pool schedules use
// the hardware's thread count and report real time. Scene building and the
// workers' scratch space are set up before the timed loop, as the Go
// original's per-worker contexts were before its clock started.

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "raytracer/canvas.h"
#include "raytracer/renderer.h"
#include "raytracer/scenes.h"
#include "raytracer/scheduler.h"

namespace benchprof::raytracer {
namespace {

struct RenderCase {
  Implementation implementation;
  Schedule schedule;
  int width;
  int height;
};

void BM_Render(benchmark::State& state, RenderCase c) {
  const int workers = c.schedule == Schedule::kSingle ? 1 : DefaultThreadCount();
  const std::unique_ptr<Renderer> renderer =
      MakeRenderer(c.implementation, ReferenceScene(/*faithful=*/false), c.width, c.height);
  renderer->PrepareWorkers(workers);
  Canvas canvas(c.width, c.height);
  const RenderSettings settings{c.schedule, workers};
  for (auto _ : state) {
    renderer->Render(settings, canvas);
    benchmark::DoNotOptimize(canvas);
    benchmark::ClobberMemory();
  }
  state.counters["px/s"] = benchmark::Counter(static_cast<double>(c.width) * c.height,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

// One iteration between ~10 ms and ~1 s on a 2-core machine: the naive
// implementation at 80x60 takes about half a second.
constexpr int kReducedWidth = 80;
constexpr int kReducedHeight = 60;

int RegisterRenderBenchmarks() {
  for (Implementation impl :
       {Implementation::kNaive, Implementation::kCached, Implementation::kOptimized}) {
    const bool full = impl == Implementation::kOptimized;
    const int width = full ? 640 : kReducedWidth;
    const int height = full ? 480 : kReducedHeight;
    for (Schedule schedule : {Schedule::kSingle, Schedule::kPixel, Schedule::kLine}) {
      std::string name = "BM_Render/" + std::string(ImplementationName(impl)) + "/" +
                         std::string(ScheduleName(schedule)) + "/" + std::to_string(width) + "x" +
                         std::to_string(height);
      if (schedule != Schedule::kSingle) {
        name += "/workers:" + std::to_string(DefaultThreadCount());
      }
      benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(
          name.c_str(), BM_Render, RenderCase{impl, schedule, width, height});
      b->Unit(benchmark::kMillisecond);
      if (schedule != Schedule::kSingle) b->UseRealTime();
    }
  }
  return 0;
}

const int kRegistered = RegisterRenderBenchmarks();

}  // namespace
}  // namespace benchprof::raytracer
