#include "raytracer/bounds.h"

#include <algorithm>
#include <cmath>

namespace benchprof::raytracer {

Bounds Bounds::Of(const Tuple& min, const Tuple& max) {
  Bounds b;
  b.Add(min);
  b.Add(max);
  return b;
}

Bounds Bounds::Infinite() { return Of(Point(-kInf, -kInf, -kInf), Point(kInf, kInf, kInf)); }

void Bounds::Add(const Tuple& point) {
  for (int axis = 0; axis < 3; ++axis) {
    min_[axis] = std::min(min_[axis], point[axis]);
    max_[axis] = std::max(max_[axis], point[axis]);
  }
}

void Bounds::Add(const Bounds& other) {
  if (other.empty()) return;
  Add(Point(other.min_[0], other.min_[1], other.min_[2]));
  Add(Point(other.max_[0], other.max_[1], other.max_[2]));
}

Bounds Bounds::Transformed(const Matrix& transform) const {
  if (empty()) return {};
  for (int axis = 0; axis < 3; ++axis) {
    // A rotated infinite extent spreads to other axes (and inf * 0 is NaN).
    if (std::isinf(min_[axis]) || std::isinf(max_[axis])) return Infinite();
  }
  Bounds out;
  for (int corner = 0; corner < 8; ++corner) {
    out.Add(transform * Point((corner & 1) != 0 ? max_[0] : min_[0],
                              (corner & 2) != 0 ? max_[1] : min_[1],
                              (corner & 4) != 0 ? max_[2] : min_[2]));
  }
  return out;
}

BoundingSphere::BoundingSphere(const Bounds& box) {
  if (box.empty()) return;
  double half_diagonal_squared = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (std::isinf(box.min()[axis]) || std::isinf(box.max()[axis])) {
      everything_ = true;
      return;
    }
    center_[axis] = (box.min()[axis] + box.max()[axis]) / 2;
    const double half = (box.max()[axis] - box.min()[axis]) / 2;
    half_diagonal_squared += half * half;
  }
  // Far more slack than the rounding of Intersects() can eat.
  const double radius = std::sqrt(half_diagonal_squared) * (1 + 1e-6) + 1e-9;
  radius_squared_ = radius * radius;
}

}  // namespace benchprof::raytracer
