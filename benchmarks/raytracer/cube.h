// Cube: the axis-aligned cube from (-1, -1, -1) to (1, 1, 1) in object space.
//
// Example:
//   Cube<OptimizedPolicy> c;
//   Tuple n = c.LocalNormalAt(Point(1, 0.5, -0.8));  // vector(1, 0, 0)
//
// Thread-safety: as Shape.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_CUBE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_CUBE_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "raytracer/shape.h"

namespace benchprof::raytracer {

template <class P>
class Cube final : public Shape<P> {
 public:
  using typename Shape<P>::Math;
  using typename Shape<P>::Tuple;
  using typename Shape<P>::RayT;

  Cube() = default;

  // The book's Intersect, with LocalIntersect called directly (this class
  // is final) rather than through a second virtual call.
  void Intersect(const RayT& ray, IntersectionList<P>& xs) const override {
    LocalIntersect(Transform(ray, this->transform().InverseMatrix()), xs);
  }

  // The book's slab test: where the ray enters and leaves the cube, if it
  // enters before it leaves.
  void LocalIntersect(const RayT& ray, IntersectionList<P>& xs) const override {
    double x_min, x_max, y_min, y_max, z_min, z_max;
    CheckAxis(ray.origin.x(), ray.direction.x(), x_min, x_max);
    CheckAxis(ray.origin.y(), ray.direction.y(), y_min, y_max);
    CheckAxis(ray.origin.z(), ray.direction.z(), z_min, z_max);
    const double t_min = std::max({x_min, y_min, z_min});
    const double t_max = std::min({x_max, y_max, z_max});
    if (t_min > t_max) return;
    xs.push_back({t_min, this});
    xs.push_back({t_max, this});
  }

  // The normal of the face the point is on: the axis of its largest component.
  Tuple LocalNormalAt(const Tuple& p) const override {
    const double max_c = std::max({std::abs(p.x()), std::abs(p.y()), std::abs(p.z())});
    if (max_c == std::abs(p.x())) return Math::Vector(p.x(), 0, 0);
    if (max_c == std::abs(p.y())) return Math::Vector(0, p.y(), 0);
    return Math::Vector(0, 0, p.z());
  }

  Bounds LocalBounds() const override { return Bounds::Of(Point(-1, -1, -1), Point(1, 1, 1)); }

 private:
  static void CheckAxis(double origin, double direction, double& t_min, double& t_max) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double t_min_numerator = -1 - origin;
    const double t_max_numerator = 1 - origin;
    if (std::abs(direction) >= kShapeEpsilon) {
      t_min = t_min_numerator / direction;
      t_max = t_max_numerator / direction;
    } else {
      t_min = t_min_numerator * kInf;
      t_max = t_max_numerator * kInf;
    }
    if (t_min > t_max) std::swap(t_min, t_max);
  }
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_CUBE_H_
