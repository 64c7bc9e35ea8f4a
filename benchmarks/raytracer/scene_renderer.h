// SceneRenderer: the Renderer for one policy: the scene's world and camera
// in that policy's types, and one TraceContext per worker.
//
// Instantiated once per policy, in naive_renderer.cc, cached_renderer.cc and
// optimized_renderer.cc, so each implementation's code is its own and shows
// under its own names in a profile.
//
// Example:
//   SceneRenderer<OptimizedPolicy> r(DefaultWorldScene(false), 11, 11);
//   Canvas canvas(11, 11);
//   r.Render({}, canvas);
//
// Thread-safety: thread-compatible; one Render() at a time.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_SCENE_RENDERER_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_SCENE_RENDERER_H_

#include <algorithm>
#include <memory>
#include <vector>

#include "raytracer/camera.h"
#include "raytracer/canvas.h"
#include "raytracer/renderer.h"
#include "raytracer/scene.h"
#include "raytracer/scheduler.h"
#include "raytracer/shading.h"
#include "raytracer/trace_context.h"
#include "raytracer/world.h"
#include "raytracer/world_builder.h"

namespace benchprof::raytracer {

template <class P>
class SceneRenderer final : public Renderer {
 public:
  SceneRenderer(const SceneDescription& scene, int width, int height)
      : world_(BuildWorld<P>(scene)), camera_(BuildCamera<P>(scene.camera, width, height)) {}

  int width() const override { return camera_.hsize(); }
  int height() const override { return camera_.vsize(); }

  void PrepareWorkers(int workers) override {
    while (contexts_.size() < static_cast<size_t>(workers)) {
      contexts_.push_back(std::make_unique<TraceContext<P>>());
    }
  }

  void Render(const RenderSettings& settings, Canvas& canvas) override {
    const int workers = settings.schedule == Schedule::kSingle ? 1 : std::max(settings.threads, 1);
    PrepareWorkers(workers);
    RunSchedule(settings.schedule, workers, width(), height(),
                [this, &canvas](int worker, const PixelSpan& span) {
                  TraceContext<P>& context = *contexts_[static_cast<size_t>(worker)];
                  for (int x = span.x_begin; x < span.x_end; ++x) {
                    canvas.Set(x, span.y, PixelColor(x, span.y, context));
                  }
                });
  }

  // The colour of pixel (x, y): the primary ray through it, traced with the
  // full recursion budget.
  Color PixelColor(int x, int y, TraceContext<P>& context) const {
    return ColorAt(world_, camera_.RayForPixel(x, y), RecursionBudget{}, context);
  }

  const World<P>& world() const { return world_; }

 private:
  World<P> world_;
  Camera<P> camera_;
  // One per worker, each on its own heap block so workers do not share
  // cache lines; kept between renders.
  std::vector<std::unique_ptr<TraceContext<P>>> contexts_;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_SCENE_RENDERER_H_
