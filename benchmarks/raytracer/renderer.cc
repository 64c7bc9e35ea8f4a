#include "raytracer/renderer.h"

namespace benchprof::raytracer {

std::string_view ImplementationName(Implementation implementation) {
  switch (implementation) {
    case Implementation::kNaive:
      return "naive";
    case Implementation::kCached:
      return "cached";
    case Implementation::kOptimized:
      return "optimized";
  }
  return "unknown";
}

std::optional<Implementation> ParseImplementation(std::string_view name) {
  for (Implementation i :
       {Implementation::kNaive, Implementation::kCached, Implementation::kOptimized}) {
    if (name == ImplementationName(i)) return i;
  }
  return std::nullopt;
}

std::unique_ptr<Renderer> MakeRenderer(Implementation implementation, const SceneDescription& scene,
                                       int width, int height) {
  switch (implementation) {
    case Implementation::kNaive:
      return internal::MakeNaiveRenderer(scene, width, height);
    case Implementation::kCached:
      return internal::MakeCachedRenderer(scene, width, height);
    case Implementation::kOptimized:
      return internal::MakeOptimizedRenderer(scene, width, height);
  }
  return nullptr;
}

}  // namespace benchprof::raytracer
