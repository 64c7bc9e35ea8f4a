// FixedMath and HeapMath: the two sets of math types the renderer is written
// over (see policy.h for how the three implementations pick one).
//
// The geometry and shading code is written once, as templates that name
// `Math::Tuple`, `Math::Matrix` and the factories below and call the free
// operations (`+`, `*`, Dot, Normalize, Inverse, Transpose, ...) that both
// sets overload with the same arithmetic. FixedMath is std::array values;
// HeapMath allocates on every construction and operation.
//
// Example:
//   template <class Math> double Length() {
//     return Magnitude(Math::Point(1, 2, 3) - Math::Point(0, 0, 0));
//   }
//
// Thread-safety: stateless.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_MATH_TRAITS_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_MATH_TRAITS_H_

#include "raytracer/heap_matrix.h"
#include "raytracer/heap_tuple.h"
#include "raytracer/matrix.h"
#include "raytracer/tuple.h"

namespace benchprof::raytracer {

struct FixedMath {
  using Tuple = raytracer::Tuple;
  using Matrix = raytracer::Matrix;

  static Tuple Point(double x, double y, double z) { return raytracer::Point(x, y, z); }
  static Tuple Vector(double x, double y, double z) { return raytracer::Vector(x, y, z); }
  static Matrix FromMatrix(const raytracer::Matrix& m) { return m; }
  static raytracer::Tuple ToFixed(const Tuple& t) { return t; }
};

struct HeapMath {
  using Tuple = HeapTuple;
  using Matrix = HeapMatrix;

  static Tuple Point(double x, double y, double z) { return HeapPoint(x, y, z); }
  static Tuple Vector(double x, double y, double z) { return HeapVector3(x, y, z); }
  static Matrix FromMatrix(const raytracer::Matrix& m) { return HeapMatrix::FromMatrix(m); }
  static raytracer::Tuple ToFixed(const Tuple& t) { return {t.x(), t.y(), t.z(), t.w()}; }
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_MATH_TRAITS_H_
