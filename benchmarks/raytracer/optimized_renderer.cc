// The optimized implementation: value math, cached inverses, reused scratch.
// The whole renderer is instantiated here, for OptimizedPolicy (policy.h).

#include <memory>

#include "raytracer/policy.h"
#include "raytracer/renderer.h"
#include "raytracer/scene_renderer.h"

namespace benchprof::raytracer {

template class SceneRenderer<OptimizedPolicy>;

namespace internal {

std::unique_ptr<Renderer> MakeOptimizedRenderer(const SceneDescription& scene, int width,
                                                int height) {
  return std::make_unique<SceneRenderer<OptimizedPolicy>>(scene, width, height);
}

}  // namespace internal
}  // namespace benchprof::raytracer
