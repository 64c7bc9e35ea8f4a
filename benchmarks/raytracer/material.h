// Material: how a surface responds to light (the Phong parameters, the
// book's reflection and refraction parameters and an optional pattern).
// Defaults are the book's.
//
// Example:
//   Material glass;
//   glass.transparency = 1.0;
//   glass.refractive_index = 1.5;
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_MATERIAL_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_MATERIAL_H_

#include <optional>

#include "raytracer/color.h"
#include "raytracer/pattern.h"

namespace benchprof::raytracer {

struct Material {
  Color color = kWhite;
  double ambient = 0.1;
  double diffuse = 0.9;
  double specular = 0.9;
  double shininess = 200;
  double reflective = 0;
  double transparency = 0;
  double refractive_index = 1.0;
  // Replaces `color` when set.
  std::optional<PatternSpec> pattern;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_MATERIAL_H_
