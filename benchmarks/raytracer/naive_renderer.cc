// The naive implementation: heap math, every inverse recomputed, fresh lists.
// The whole renderer is instantiated here, for NaivePolicy (policy.h).

#include <memory>

#include "raytracer/policy.h"
#include "raytracer/renderer.h"
#include "raytracer/scene_renderer.h"

namespace benchprof::raytracer {

template class SceneRenderer<NaivePolicy>;

namespace internal {

std::unique_ptr<Renderer> MakeNaiveRenderer(const SceneDescription& scene, int width, int height) {
  return std::make_unique<SceneRenderer<NaivePolicy>>(scene, width, height);
}

}  // namespace internal
}  // namespace benchprof::raytracer
