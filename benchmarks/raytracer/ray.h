// Ray: an origin point and a direction vector, over either tuple type.
//
// Example:
//   Ray<Tuple> r{Point(2, 3, 4), Vector(1, 0, 0)};
//   Tuple p = Position(r, 2.5);                     // point(4.5, 3, 4)
//   Ray<Tuple> s = Transform(r, Scaling(2, 3, 4));  // origin (4, 9, 16)
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_RAY_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_RAY_H_

namespace benchprof::raytracer {

template <class TupleT>
struct Ray {
  TupleT origin;
  TupleT direction;
};

// The point at distance `t` along the ray (in units of the direction's length).
template <class TupleT>
TupleT Position(const Ray<TupleT>& ray, double t) {
  return ray.origin + ray.direction * t;
}

// The ray with `m` applied to its origin and direction.
template <class TupleT, class MatrixT>
Ray<TupleT> Transform(const Ray<TupleT>& ray, const MatrixT& m) {
  return {m * ray.origin, m * ray.direction};
}

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_RAY_H_
