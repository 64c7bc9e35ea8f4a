// Tuple: the fixed-size 4-component point/vector of the optimized renderer,
// a std::array<double, 4> value with the book's operations.
//
// A point has w = 1 and a vector w = 0, so translations move points and leave
// vectors alone. heap_tuple.h has the same interface over a heap array for
// the naive renderers; every operation there performs the same floating-point
// operations in the same order as here, so the three renderers produce
// bit-identical images.
//
// Example:
//   Tuple v = Normalize(Point(3, 2, 1) - Point(5, 6, 7));
//   double d = Dot(v, Vector(0, 0, 1));
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_TUPLE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_TUPLE_H_

#include <array>
#include <cmath>

namespace benchprof::raytracer {

class Tuple {
 public:
  constexpr Tuple() = default;
  constexpr Tuple(double x, double y, double z, double w) : e_{x, y, z, w} {}

  constexpr double x() const { return e_[0]; }
  constexpr double y() const { return e_[1]; }
  constexpr double z() const { return e_[2]; }
  constexpr double w() const { return e_[3]; }
  // Component i: 0 = x, 1 = y, 2 = z, 3 = w.
  constexpr double operator[](int i) const { return e_[i]; }
  // Normals leave normal_to_world with w = 0 whatever the matrix did to it.
  constexpr void set_w(double w) { e_[3] = w; }

  friend constexpr bool operator==(const Tuple&, const Tuple&) = default;

 private:
  std::array<double, 4> e_{};
};

constexpr Tuple Point(double x, double y, double z) { return {x, y, z, 1}; }
constexpr Tuple Vector(double x, double y, double z) { return {x, y, z, 0}; }

inline Tuple operator+(const Tuple& a, const Tuple& b) {
  return {a.x() + b.x(), a.y() + b.y(), a.z() + b.z(), a.w() + b.w()};
}
inline Tuple operator-(const Tuple& a, const Tuple& b) {
  return {a.x() - b.x(), a.y() - b.y(), a.z() - b.z(), a.w() - b.w()};
}
inline Tuple operator-(const Tuple& a) { return {-a.x(), -a.y(), -a.z(), -a.w()}; }
inline Tuple operator*(const Tuple& a, double s) {
  return {a.x() * s, a.y() * s, a.z() * s, a.w() * s};
}
inline Tuple operator/(const Tuple& a, double s) {
  return {a.x() / s, a.y() / s, a.z() / s, a.w() / s};
}

// The dot product over all four components (the book's definition).
inline double Dot(const Tuple& a, const Tuple& b) {
  return a.x() * b.x() + a.y() * b.y() + a.z() * b.z() + a.w() * b.w();
}
inline double Magnitude(const Tuple& a) { return std::sqrt(Dot(a, a)); }
// `a` scaled to length 1; `a` must not be the zero vector.
inline Tuple Normalize(const Tuple& a) { return a / Magnitude(a); }
// The cross product of two vectors (w is ignored; the result is a vector).
inline Tuple Cross(const Tuple& a, const Tuple& b) {
  return Vector(a.y() * b.z() - a.z() * b.y(), a.z() * b.x() - a.x() * b.z(),
                a.x() * b.y() - a.y() * b.x());
}
// `in` reflected about `normal` (a unit vector).
inline Tuple Reflect(const Tuple& in, const Tuple& normal) {
  return in - normal * (2 * Dot(in, normal));
}

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_TUPLE_H_
