// Transform: the book's transformation matrices (translation, scaling,
// rotations, shearing, the camera's view transform) as fixed-size Matrix
// values.
//
// Scenes are described once with these and every renderer converts the
// composed matrices to its own matrix type, so all three start from the same
// bits. Compose with `*` right to left in application order: the transform
// that first scales, then rotates, then translates is
// `Translation(...) * RotationX(...) * Scaling(...)`.
//
// Example:
//   Matrix m = Translation(10, 5, 7) * Scaling(5, 5, 5) * RotationX(kPi / 2);
//   Tuple p = m * Point(1, 0, 1);  // point(15, 0, 7)
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_TRANSFORM_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_TRANSFORM_H_

#include <numbers>

#include "raytracer/matrix.h"
#include "raytracer/tuple.h"

namespace benchprof::raytracer {

inline constexpr double kPi = std::numbers::pi;

Matrix Translation(double x, double y, double z);
Matrix Scaling(double x, double y, double z);
// Rotations by `radians` about an axis, left-handed as in the book.
Matrix RotationX(double radians);
Matrix RotationY(double radians);
Matrix RotationZ(double radians);
// Each coordinate moved in proportion to the two others: x_y is how much y
// moves x, and so on.
Matrix Shearing(double x_y, double x_z, double y_x, double y_z, double z_x, double z_y);
// The world-to-camera transform of an eye at `from` looking at `to`, with
// `up` roughly up (it need not be perpendicular to the view direction).
Matrix ViewTransform(const Tuple& from, const Tuple& to, const Tuple& up);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_TRANSFORM_H_
