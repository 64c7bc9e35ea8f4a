// Lighting: the Phong reflection model (ambient + diffuse + specular) at one
// point of a surface for one light, as the book defines it.
//
// Example:
//   Color c = Lighting(sphere, light, point, eyev, normalv, /*in_shadow=*/false);
//
// Thread-safety: thread-safe (reads its arguments only).
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_LIGHTING_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_LIGHTING_H_

#include <cmath>

#include "raytracer/color.h"
#include "raytracer/light.h"
#include "raytracer/material.h"
#include "raytracer/policy.h"
#include "raytracer/shape.h"

namespace benchprof::raytracer {

// The colour of `object` (its material, or its pattern at `point`) at world
// point `point`, seen along `eyev` (towards the eye), with surface normal
// `normalv`, lit by `light`. In shadow only the ambient term remains.
template <class P>
Color Lighting(const Shape<P>& object, const PointLight<P>& light, const TupleOf<P>& point,
               const TupleOf<P>& eyev, const TupleOf<P>& normalv, bool in_shadow) {
  const Material& m = object.material();
  const Color surface = object.pattern() != nullptr
                            ? object.pattern()->ColorAt(object.WorldToObject(point))
                            : m.color;
  const Color effective = surface * light.intensity;
  const TupleOf<P> lightv = Normalize(light.position - point);
  const Color ambient = effective * m.ambient;
  if (in_shadow) return ambient;

  // A negative cosine means the light is on the other side of the surface.
  const double light_dot_normal = Dot(lightv, normalv);
  if (light_dot_normal < 0) return ambient;
  const Color diffuse = effective * m.diffuse * light_dot_normal;
  const TupleOf<P> reflectv = Reflect(-lightv, normalv);
  const double reflect_dot_eye = Dot(reflectv, eyev);
  if (reflect_dot_eye <= 0) return ambient + diffuse;
  const double factor = std::pow(reflect_dot_eye, m.shininess);
  const Color specular = light.intensity * m.specular * factor;
  return ambient + diffuse + specular;
}

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_LIGHTING_H_
