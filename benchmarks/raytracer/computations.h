// Computations: what shading needs to know about a hit (the book's
// prepare_computations), and the Schlick approximation of the Fresnel
// reflectance computed from it.
//
// Example:
//   Computations<P> comps = PrepareComputations(hit, ray, xs, kBookEpsilon, context);
//   double reflectance = Schlick(comps);
//
// Thread-safety: thread-compatible; the functions touch only their arguments.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_COMPUTATIONS_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_COMPUTATIONS_H_

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

#include "raytracer/intersection.h"
#include "raytracer/policy.h"
#include "raytracer/ray.h"
#include "raytracer/shape.h"
#include "raytracer/trace_context.h"

namespace benchprof::raytracer {

template <class P>
struct Computations {
  double t;
  const Shape<P>* object;
  TupleOf<P> point;
  TupleOf<P> eyev;     // towards the eye
  TupleOf<P> normalv;  // facing the eye (flipped when the hit is inside the object)
  bool inside;
  TupleOf<P> reflectv;
  TupleOf<P> over_point;   // just above the surface: for shadows and reflections
  TupleOf<P> under_point;  // just below it: where refracted rays start
  double n1;               // refractive index of the medium the ray leaves
  double n2;               // ... and of the one it enters
};

// The refractive indices on either side of `hit`: walks the sorted list,
// keeping the objects the ray is inside (the book's `containers`).
template <class P>
std::pair<double, double> RefractiveIndices(const Intersection<P>& hit,
                                            std::span<const Intersection<P>> xs,
                                            TraceContext<P>& context) {
  decltype(auto) containers = context.Containers();
  double n1 = 1.0;
  double n2 = 1.0;
  for (const Intersection<P>& x : xs) {
    const bool is_hit = x.t == hit.t && x.object == hit.object;
    if (is_hit && !containers.empty()) n1 = containers.back()->material().refractive_index;
    const auto found = std::find(containers.begin(), containers.end(), x.object);
    if (found != containers.end()) {
      containers.erase(found);
    } else {
      containers.push_back(x.object);
    }
    if (is_hit) {
      if (!containers.empty()) n2 = containers.back()->material().refractive_index;
      break;
    }
  }
  return {n1, n2};
}

// The book's prepare_computations for `hit`, one of `xs` (the sorted
// intersections of `ray`). `epsilon` is how far over_point and under_point
// are moved off the surface.
template <class P>
Computations<P> PrepareComputations(const Intersection<P>& hit, const Ray<TupleOf<P>>& ray,
                                    std::span<const Intersection<P>> xs, double epsilon,
                                    TraceContext<P>& context) {
  TupleOf<P> point = Position(ray, hit.t);
  TupleOf<P> eyev = -ray.direction;
  TupleOf<P> normalv = hit.object->NormalAt(point);
  bool inside = false;
  if (Dot(normalv, eyev) < 0) {
    inside = true;
    normalv = -normalv;
  }
  TupleOf<P> reflectv = Reflect(ray.direction, normalv);
  TupleOf<P> over_point = point + normalv * epsilon;
  TupleOf<P> under_point = point - normalv * epsilon;
  const auto [n1, n2] = RefractiveIndices<P>(hit, xs, context);
  return {hit.t,
          hit.object,
          std::move(point),
          std::move(eyev),
          std::move(normalv),
          inside,
          std::move(reflectv),
          std::move(over_point),
          std::move(under_point),
          n1,
          n2};
}

// The fraction of light reflected at the hit (Schlick's approximation of
// the Fresnel equations); 1 under total internal reflection.
template <class P>
double Schlick(const Computations<P>& comps) {
  double cos = Dot(comps.eyev, comps.normalv);
  if (comps.n1 > comps.n2) {
    const double n = comps.n1 / comps.n2;
    const double sin2_t = n * n * (1.0 - cos * cos);
    if (sin2_t > 1.0) return 1.0;
    cos = std::sqrt(1.0 - sin2_t);
  }
  const double r = (comps.n1 - comps.n2) / (comps.n1 + comps.n2);
  const double r0 = r * r;
  return r0 + (1 - r0) * std::pow(1 - cos, 5);
}

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_COMPUTATIONS_H_
