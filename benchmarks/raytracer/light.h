// PointLight: a light source with no size, at a point in world space.
//
// Example:
//   PointLight<OptimizedPolicy> light{Point(-10, 10, -10), kWhite};
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_LIGHT_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_LIGHT_H_

#include "raytracer/color.h"

namespace benchprof::raytracer {

template <class P>
struct PointLight {
  typename P::Math::Tuple position;
  Color intensity;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_LIGHT_H_
