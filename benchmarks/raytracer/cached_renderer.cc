// The cached implementation: heap math, inverses computed once per transform.
// The whole renderer is instantiated here, for CachedPolicy (policy.h).

#include <memory>

#include "raytracer/policy.h"
#include "raytracer/renderer.h"
#include "raytracer/scene_renderer.h"

namespace benchprof::raytracer {

template class SceneRenderer<CachedPolicy>;

namespace internal {

std::unique_ptr<Renderer> MakeCachedRenderer(const SceneDescription& scene, int width, int height) {
  return std::make_unique<SceneRenderer<CachedPolicy>>(scene, width, height);
}

}  // namespace internal
}  // namespace benchprof::raytracer
