// SceneDescription: a scene as plain data (shapes, lights, camera, shading
// options), independent of the renderer implementation that draws it.
//
// Scenes are described once (scenes.h) and each implementation builds its
// own world from the description (world_builder.h), so the three start from
// the same bits.
//
// Example:
//   SceneDescription scene = ReferenceScene(/*faithful=*/false);  // scenes.h
//   scene.camera.width = 64;
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_SCENE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_SCENE_H_

#include <limits>
#include <string>
#include <vector>

#include "raytracer/color.h"
#include "raytracer/material.h"
#include "raytracer/matrix.h"
#include "raytracer/tuple.h"

namespace benchprof::raytracer {

// How shading behaves: the book's rules by default, or the Go original's
// quirks (see FaithfulOptions()).
struct RenderOptions {
  // How far over_point and under_point sit off the surface.
  double surface_epsilon = 0.0001;
  // The Go original checks a shape's cast-shadow flag only on top-level
  // objects; the book's rule (and ours) applies it at every level, so a
  // group's child can opt out and a group that opts out hides its children.
  bool shadow_flag_top_level_only = false;
  // Reflection and refraction budgets are counted separately, and the Go
  // original's refracted ray passes them swapped. Otherwise the book's single
  // budget is shared by both.
  bool swapped_refraction_budgets = false;
};

// The Go original's behaviour, so renders can be compared with it: epsilon
// 0.001, the cast-shadow flag on top-level objects only, and swapped
// refraction budgets. (Its never-updated ceiling pattern inverse is a scene
// detail; see ReferenceScene.)
inline RenderOptions FaithfulOptions() { return {0.001, true, true}; }

struct ShapeSpec {
  enum class Kind { kSphere, kPlane, kCube, kCylinder, kGroup };

  Kind kind = Kind::kSphere;
  std::string name;  // for people reading the description; not used to render
  Matrix transform = Matrix::Identity();
  Material material;
  bool casts_shadow = true;
  // Cylinders only.
  double minimum = -std::numeric_limits<double>::infinity();
  double maximum = std::numeric_limits<double>::infinity();
  bool closed = false;
  // Groups only.
  std::vector<ShapeSpec> children;
};

struct LightSpec {
  Tuple position;
  Color intensity = kWhite;
};

struct CameraSpec {
  int width = 0;
  int height = 0;
  double field_of_view = 0;               // radians, across the longer side
  Matrix transform = Matrix::Identity();  // world to camera (a ViewTransform)
};

struct SceneDescription {
  std::string name;
  CameraSpec camera;
  std::vector<LightSpec> lights;
  std::vector<ShapeSpec> shapes;
  RenderOptions options;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_SCENE_H_
