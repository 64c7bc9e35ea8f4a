#include "raytracer/heap_tuple.h"

#include <cmath>

namespace benchprof::raytracer {

// Every formula below must match tuple.h operation for operation.

HeapTuple::HeapTuple() : e_(4) {}

HeapTuple::HeapTuple(double x, double y, double z, double w) : e_(4) {
  e_[0] = x;
  e_[1] = y;
  e_[2] = z;
  e_[3] = w;
}

HeapTuple HeapPoint(double x, double y, double z) { return {x, y, z, 1}; }
HeapTuple HeapVector3(double x, double y, double z) { return {x, y, z, 0}; }

HeapTuple operator+(const HeapTuple& a, const HeapTuple& b) {
  return {a.x() + b.x(), a.y() + b.y(), a.z() + b.z(), a.w() + b.w()};
}

HeapTuple operator-(const HeapTuple& a, const HeapTuple& b) {
  return {a.x() - b.x(), a.y() - b.y(), a.z() - b.z(), a.w() - b.w()};
}

HeapTuple operator-(const HeapTuple& a) { return {-a.x(), -a.y(), -a.z(), -a.w()}; }

HeapTuple operator*(const HeapTuple& a, double s) {
  return {a.x() * s, a.y() * s, a.z() * s, a.w() * s};
}

HeapTuple operator/(const HeapTuple& a, double s) {
  return {a.x() / s, a.y() / s, a.z() / s, a.w() / s};
}

double Dot(const HeapTuple& a, const HeapTuple& b) {
  return a.x() * b.x() + a.y() * b.y() + a.z() * b.z() + a.w() * b.w();
}

double Magnitude(const HeapTuple& a) { return std::sqrt(Dot(a, a)); }

HeapTuple Normalize(const HeapTuple& a) { return a / Magnitude(a); }

HeapTuple Cross(const HeapTuple& a, const HeapTuple& b) {
  return HeapVector3(a.y() * b.z() - a.z() * b.y(), a.z() * b.x() - a.x() * b.z(),
                     a.x() * b.y() - a.y() * b.x());
}

HeapTuple Reflect(const HeapTuple& in, const HeapTuple& normal) {
  return in - normal * (2 * Dot(in, normal));
}

}  // namespace benchprof::raytracer
