// Cylinder: the radius-1 cylinder around the object-space y axis, between
// `minimum` and `maximum` (exclusive; infinite by default), optionally
// closed with caps.
//
// Example:
//   Cylinder<OptimizedPolicy> c(0, 3, /*closed=*/true);
//
// Thread-safety: as Shape.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_CYLINDER_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_CYLINDER_H_

#include <cmath>
#include <limits>
#include <utility>

#include "raytracer/shape.h"

namespace benchprof::raytracer {

template <class P>
class Cylinder final : public Shape<P> {
 public:
  using typename Shape<P>::Math;
  using typename Shape<P>::Tuple;
  using typename Shape<P>::RayT;

  // The open, infinite cylinder.
  Cylinder() = default;
  Cylinder(double minimum, double maximum, bool closed)
      : minimum_(minimum), maximum_(maximum), closed_(closed) {}

  double minimum() const { return minimum_; }
  double maximum() const { return maximum_; }
  bool closed() const { return closed_; }

  // The book's Intersect, with LocalIntersect called directly (this class
  // is final) rather than through a second virtual call.
  void Intersect(const RayT& ray, IntersectionList<P>& xs) const override {
    LocalIntersect(Transform(ray, this->transform().InverseMatrix()), xs);
  }

  // The wall's intersections within (minimum, maximum), then the caps'.
  void LocalIntersect(const RayT& ray, IntersectionList<P>& xs) const override {
    const Tuple& o = ray.origin;
    const Tuple& d = ray.direction;
    const double a = d.x() * d.x() + d.z() * d.z();
    if (std::abs(a) >= kShapeEpsilon) {  // else the ray is parallel to the axis
      const double b = 2 * o.x() * d.x() + 2 * o.z() * d.z();
      const double c = o.x() * o.x() + o.z() * o.z() - 1;
      const double discriminant = b * b - 4 * a * c;
      // Missing the infinite wall means missing the caps too.
      if (discriminant < 0) return;
      const double root = std::sqrt(discriminant);
      double t0 = (-b - root) / (2 * a);
      double t1 = (-b + root) / (2 * a);
      if (t0 > t1) std::swap(t0, t1);
      const double y0 = o.y() + t0 * d.y();
      if (minimum_ < y0 && y0 < maximum_) xs.push_back({t0, this});
      const double y1 = o.y() + t1 * d.y();
      if (minimum_ < y1 && y1 < maximum_) xs.push_back({t1, this});
    }
    IntersectCaps(ray, xs);
  }

  Tuple LocalNormalAt(const Tuple& p) const override {
    const double distance = p.x() * p.x() + p.z() * p.z();
    if (distance < 1 && p.y() >= maximum_ - kShapeEpsilon) return Math::Vector(0, 1, 0);
    if (distance < 1 && p.y() <= minimum_ + kShapeEpsilon) return Math::Vector(0, -1, 0);
    return Math::Vector(p.x(), 0, p.z());
  }

  Bounds LocalBounds() const override {
    return Bounds::Of(Point(-1, minimum_, -1), Point(1, maximum_, 1));
  }

 private:
  // Whether the ray at `t` is within the unit radius (on a cap's disc).
  static bool CheckCap(const RayT& ray, double t) {
    const double x = ray.origin.x() + t * ray.direction.x();
    const double z = ray.origin.z() + t * ray.direction.z();
    return x * x + z * z <= 1;
  }

  void IntersectCaps(const RayT& ray, IntersectionList<P>& xs) const {
    if (!closed_ || std::abs(ray.direction.y()) < kShapeEpsilon) return;
    const double t_lower = (minimum_ - ray.origin.y()) / ray.direction.y();
    if (CheckCap(ray, t_lower)) xs.push_back({t_lower, this});
    const double t_upper = (maximum_ - ray.origin.y()) / ray.direction.y();
    if (CheckCap(ray, t_upper)) xs.push_back({t_upper, this});
  }

  double minimum_ = -std::numeric_limits<double>::infinity();
  double maximum_ = std::numeric_limits<double>::infinity();
  bool closed_ = false;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_CYLINDER_H_
