// Sphere: the unit sphere at the object-space origin (scale and translate it
// with its transform).
//
// Example:
//   Sphere<OptimizedPolicy> s;
//   IntersectionList<OptimizedPolicy> xs;
//   s.LocalIntersect({Point(0, 0, -5), Vector(0, 0, 1)}, xs);  // t = 4 and 6
//
// Thread-safety: as Shape.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_SPHERE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_SPHERE_H_

#include <cmath>

#include "raytracer/shape.h"

namespace benchprof::raytracer {

template <class P>
class Sphere final : public Shape<P> {
 public:
  using typename Shape<P>::Math;
  using typename Shape<P>::Tuple;
  using typename Shape<P>::RayT;

  Sphere() = default;

  // The book's Intersect, with LocalIntersect called directly (this class
  // is final) rather than through a second virtual call.
  void Intersect(const RayT& ray, IntersectionList<P>& xs) const override {
    LocalIntersect(Transform(ray, this->transform().InverseMatrix()), xs);
  }

  // Both roots of |origin + t·direction|² = 1, the smaller first; a tangent
  // ray gives the same t twice.
  void LocalIntersect(const RayT& ray, IntersectionList<P>& xs) const override {
    const Tuple sphere_to_ray = ray.origin - Math::Point(0, 0, 0);
    const double a = Dot(ray.direction, ray.direction);
    const double b = 2 * Dot(ray.direction, sphere_to_ray);
    const double c = Dot(sphere_to_ray, sphere_to_ray) - 1;
    const double discriminant = b * b - 4 * a * c;
    if (discriminant < 0) return;
    const double root = std::sqrt(discriminant);
    xs.push_back({(-b - root) / (2 * a), this});
    xs.push_back({(-b + root) / (2 * a), this});
  }

  Tuple LocalNormalAt(const Tuple& local_point) const override {
    return local_point - Math::Point(0, 0, 0);
  }

  Bounds LocalBounds() const override { return Bounds::Of(Point(-1, -1, -1), Point(1, 1, 1)); }
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_SPHERE_H_
