// Renderer: the ray tracer's public entry point. Pick an implementation
// (naive, cached or optimized; see policy.h), build it for a scene and a
// canvas size, and render with a schedule.
//
// Building converts the scene into the implementation's types once; Render()
// can then be called repeatedly (the benchmarks do). What a render allocates
// is the implementation's business (the naive ones allocate on every
// operation); the optimized one allocates only its worker threads and, the
// first time, their scratch space. All three produce the same image.
//
// Example:
//   std::unique_ptr<Renderer> r =
//       MakeRenderer(Implementation::kOptimized, ReferenceScene(false), 640, 480);
//   Canvas canvas(640, 480);
//   r->Render({Schedule::kLine, DefaultThreadCount()}, canvas);
//
// Thread-safety: thread-compatible; one Render() at a time per renderer.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_RENDERER_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_RENDERER_H_

#include <memory>
#include <optional>
#include <string_view>

#include "raytracer/canvas.h"
#include "raytracer/scene.h"
#include "raytracer/scheduler.h"

namespace benchprof::raytracer {

enum class Implementation { kNaive, kCached, kOptimized };

// "naive", "cached", "optimized".
std::string_view ImplementationName(Implementation implementation);
std::optional<Implementation> ParseImplementation(std::string_view name);
inline constexpr std::string_view kImplementationNames = "naive, cached, optimized";

struct RenderSettings {
  Schedule schedule = Schedule::kSingle;
  int threads = 1;  // workers of the pool schedules; ignored by kSingle
};

class Renderer {
 public:
  virtual ~Renderer() = default;

  virtual int width() const = 0;
  virtual int height() const = 0;

  // Allocates the scratch space of `workers` workers now (Render() otherwise
  // does it the first time it needs it), so that later renders with up to
  // that many workers allocate nothing but their threads.
  virtual void PrepareWorkers(int workers) = 0;

  // Renders every pixel into `canvas`, which must be width() x height().
  virtual void Render(const RenderSettings& settings, Canvas& canvas) = 0;
};

// A renderer of `scene` onto a width x height canvas (both positive), using
// the scene's camera with that canvas size.
std::unique_ptr<Renderer> MakeRenderer(Implementation implementation, const SceneDescription& scene,
                                       int width, int height);

namespace internal {
// One per implementation, each in its own translation unit.
std::unique_ptr<Renderer> MakeNaiveRenderer(const SceneDescription& scene, int width, int height);
std::unique_ptr<Renderer> MakeCachedRenderer(const SceneDescription& scene, int width, int height);
std::unique_ptr<Renderer> MakeOptimizedRenderer(const SceneDescription& scene, int width,
                                                int height);
}  // namespace internal

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_RENDERER_H_
