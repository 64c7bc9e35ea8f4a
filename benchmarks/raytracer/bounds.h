// Bounds: an axis-aligned bounding box, so a group's children are only
// tested against rays that enter the box around them.
//
// Boxes are computed once when a scene is built, in fixed-size math, and
// tested with plain doubles, so the test costs the same (and allocates
// nothing) in every implementation. Infinite extents (planes) are allowed.
// The test is conservative: where IEEE arithmetic gives no answer (0/0 for
// a ray lying on a face) the box counts as hit, so a box never hides a
// surface a ray would have hit. BoundingSphere, a padded sphere around a
// box, is the division-free pre-test the optimized renderer applies before
// it transforms a ray into a group's space.
//
// Example:
//   Bounds b = Bounds::Of(Point(-1, -1, -1), Point(1, 1, 1));
//   bool hit = b.Intersects(Ray<Tuple>{Point(0, 0, -5), Vector(0, 0, 1)});  // true
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_BOUNDS_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_BOUNDS_H_

#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "raytracer/matrix.h"
#include "raytracer/ray.h"
#include "raytracer/tuple.h"

namespace benchprof::raytracer {

class Bounds {
 public:
  // The empty box, which no ray intersects and which Add() grows.
  Bounds() = default;
  static Bounds Of(const Tuple& min, const Tuple& max);
  static Bounds Infinite();

  const std::array<double, 3>& min() const { return min_; }
  const std::array<double, 3>& max() const { return max_; }
  bool empty() const { return min_[0] > max_[0] || min_[1] > max_[1] || min_[2] > max_[2]; }

  // Grows the box to contain `point`, or all of `other`.
  void Add(const Tuple& point);
  void Add(const Bounds& other);

  // The box around this one after `transform`: its eight corners transformed.
  // A box with an infinite extent stays infinite on every axis.
  Bounds Transformed(const Matrix& transform) const;

  // Whether `ray` (in this box's space, any tuple type) meets the box for
  // some t, positive or negative; the group tests t ranges itself.
  template <class TupleT>
  bool Intersects(const Ray<TupleT>& ray) const {
    if (empty()) return false;
    const double origin[3] = {ray.origin.x(), ray.origin.y(), ray.origin.z()};
    const double direction[3] = {ray.direction.x(), ray.direction.y(), ray.direction.z()};
    double t_min = -std::numeric_limits<double>::infinity();
    double t_max = std::numeric_limits<double>::infinity();
    for (int axis = 0; axis < 3; ++axis) {
      double t0 = (min_[axis] - origin[axis]) / direction[axis];
      double t1 = (max_[axis] - origin[axis]) / direction[axis];
      if (std::isnan(t0) || std::isnan(t1)) continue;  // no answer: do not cull
      if (t0 > t1) std::swap(t0, t1);
      if (t0 > t_min) t_min = t0;
      if (t1 < t_max) t_max = t1;
    }
    return t_min <= t_max;
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  std::array<double, 3> min_{kInf, kInf, kInf};
  std::array<double, 3> max_{-kInf, -kInf, -kInf};
};

// A sphere around a Bounds box: a looser test than the box's, but one with
// no division, for culling whole groups before their rays are transformed.
// The radius is padded so that rounding never culls a ray that meets the box.
class BoundingSphere {
 public:
  // Never hit: the sphere around the empty box.
  BoundingSphere() = default;
  // Around `box`; a box with an infinite extent gives a sphere every ray hits.
  explicit BoundingSphere(const Bounds& box);

  // Whether the line of `ray` (any tuple type; any t) meets the sphere.
  template <class TupleT>
  bool Intersects(const Ray<TupleT>& ray) const {
    if (everything_) return true;
    const double ox = ray.origin.x() - center_[0];
    const double oy = ray.origin.y() - center_[1];
    const double oz = ray.origin.z() - center_[2];
    const double dx = ray.direction.x();
    const double dy = ray.direction.y();
    const double dz = ray.direction.z();
    const double a = dx * dx + dy * dy + dz * dz;
    const double half_b = ox * dx + oy * dy + oz * dz;
    const double c = ox * ox + oy * oy + oz * oz - radius_squared_;
    return half_b * half_b - a * c >= 0;
  }

 private:
  bool everything_ = false;
  std::array<double, 3> center_{0, 0, 0};
  double radius_squared_ = -1;  // no real point is inside
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_BOUNDS_H_
