// The scenes the CLI and the benchmarks render, described as data.
//
//   reference:     the Go original's reference image (eriklupander/rt at
//                  HEAD, 2020-07): 3 checkered planes, a glass sphere, a red
//                  sphere, a closed cylinder and a group of 3 small reflective
//                  spheres, one light; 640x480, field of view pi/3.
//   dec2019:       its December 2019 predecessor (10 primitives, with a cube),
//                  which the "naive" and "inverse cached" timings used.
//   default-world: the book's default world (two spheres) seen by the book's
//                  11x11 camera.
//
// `faithful` selects the Go original's quirks (FaithfulOptions() in scene.h)
// and, in the reference scene, the ceiling and wall checkers as rt drew them:
// rt set that pattern's transform to scale(0.2) without updating its cached
// inverse, so it rendered unit checkers. The default is the book's behaviour.
//
// Example:
//   SceneDescription scene = ReferenceScene(/*faithful=*/false);
//   auto renderer = MakeRenderer(Implementation::kOptimized, scene, 640, 480);
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_SCENES_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_SCENES_H_

#include <optional>
#include <string_view>

#include "raytracer/scene.h"

namespace benchprof::raytracer {

SceneDescription ReferenceScene(bool faithful);
SceneDescription December2019Scene(bool faithful);
SceneDescription DefaultWorldScene(bool faithful);

// The scene called `name` ("reference", "dec2019", "default-world"), or
// nothing for an unknown name.
std::optional<SceneDescription> SceneByName(std::string_view name, bool faithful);

// The names SceneByName() knows, for help and error messages.
inline constexpr std::string_view kSceneNames = "reference, dec2019, default-world";

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_SCENES_H_
