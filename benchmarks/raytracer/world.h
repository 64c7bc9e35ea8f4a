// World: the shapes and lights of a scene in one renderer's types, with the
// shading options. Built from a SceneDescription by world_builder.h; tests
// build small ones directly.
//
// Example:
//   World<OptimizedPolicy> world;
//   world.AddLight({Point(-10, 10, -10), kWhite});
//   world.AddObject(std::make_unique<Sphere<OptimizedPolicy>>());
//
// Thread-safety: thread-compatible; a built world is only read while
// rendering, by any number of workers.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_WORLD_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_WORLD_H_

#include <memory>
#include <span>
#include <vector>

#include "raytracer/light.h"
#include "raytracer/scene.h"
#include "raytracer/shape.h"

namespace benchprof::raytracer {

template <class P>
class World {
 public:
  World() = default;
  World(World&&) noexcept = default;
  World& operator=(World&&) noexcept = default;

  // Takes ownership of a top-level shape; returns it.
  Shape<P>* AddObject(std::unique_ptr<Shape<P>> object) {
    objects_.push_back(std::move(object));
    return objects_.back().get();
  }
  void AddLight(PointLight<P> light) { lights_.push_back(std::move(light)); }
  void ClearLights() { lights_.clear(); }

  std::span<const std::unique_ptr<Shape<P>>> objects() const { return objects_; }
  // Top-level shape `i`, for tests that change a material or transform.
  Shape<P>& object(size_t i) { return *objects_[i]; }
  std::span<const PointLight<P>> lights() const { return lights_; }

  const RenderOptions& options() const { return options_; }
  void set_options(const RenderOptions& options) { options_ = options; }

 private:
  std::vector<std::unique_ptr<Shape<P>>> objects_;
  std::vector<PointLight<P>> lights_;
  RenderOptions options_;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_WORLD_H_
