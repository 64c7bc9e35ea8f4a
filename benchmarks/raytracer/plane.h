// Plane: the infinite xz plane through the object-space origin, normal +y.
//
// Example:
//   Plane<OptimizedPolicy> floor;
//   floor.SetTransform(Translation(0, -1, 0));
//
// Thread-safety: as Shape.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_PLANE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_PLANE_H_

#include <cmath>
#include <limits>

#include "raytracer/policy.h"
#include "raytracer/shape.h"

namespace benchprof::raytracer {

template <class P>
class Plane final : public Shape<P> {
 public:
  using typename Shape<P>::Math;
  using typename Shape<P>::Tuple;
  using typename Shape<P>::RayT;

  Plane() = default;

  // Only y of the object-space ray matters, so the optimized policy
  // transforms just that row of the origin and the direction (the same
  // operations a full transform performs for it, so the same bits).
  void Intersect(const RayT& ray, IntersectionList<P>& xs) const override {
    if constexpr (P::kReuseScratch) {
      const auto& m = this->transform().InverseMatrix();
      const TupleOf<P>& o = ray.origin;
      const TupleOf<P>& d = ray.direction;
      IntersectY(m(1, 0) * o.x() + m(1, 1) * o.y() + m(1, 2) * o.z() + m(1, 3) * o.w(),
                 m(1, 0) * d.x() + m(1, 1) * d.y() + m(1, 2) * d.z() + m(1, 3) * d.w(), xs);
    } else {
      Shape<P>::Intersect(ray, xs);
    }
  }

  // One intersection, unless the ray is parallel to the plane (or in it).
  void LocalIntersect(const RayT& ray, IntersectionList<P>& xs) const override {
    IntersectY(ray.origin.y(), ray.direction.y(), xs);
  }

  Tuple LocalNormalAt(const Tuple&) const override { return Math::Vector(0, 1, 0); }

  Bounds LocalBounds() const override {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    return Bounds::Of(Point(-kInf, 0, -kInf), Point(kInf, 0, kInf));
  }

 private:
  // From the object-space ray's origin and direction y components.
  void IntersectY(double origin_y, double direction_y, IntersectionList<P>& xs) const {
    if (std::abs(direction_y) < kShapeEpsilon) return;
    xs.push_back({-origin_y / direction_y, this});
  }
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_PLANE_H_
