// HeapTuple: the naive renderers' point/vector, four doubles on the heap.
//
// This mirrors the Go original's first version, whose tuples were slices:
// constructing, copying or computing a HeapTuple allocates (through
// HeapAllocator, so the optimiser cannot drop it), and every operation
// returns a new one. The interface and the arithmetic are those of Tuple
// (tuple.h), operation for operation, so results are bit-identical.
//
// Example:
//   HeapTuple v = Normalize(HeapPoint(3, 2, 1) - HeapPoint(5, 6, 7));  // 4 allocations
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_TUPLE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_TUPLE_H_

#include "raytracer/heap_allocator.h"

namespace benchprof::raytracer {

class HeapTuple {
 public:
  // Allocates; the components start at zero.
  HeapTuple();
  // Allocates.
  HeapTuple(double x, double y, double z, double w);

  double x() const { return e_[0]; }
  double y() const { return e_[1]; }
  double z() const { return e_[2]; }
  double w() const { return e_[3]; }
  // Component i: 0 = x, 1 = y, 2 = z, 3 = w.
  double operator[](int i) const { return e_[i]; }
  void set_w(double w) { e_[3] = w; }

  friend bool operator==(const HeapTuple& a, const HeapTuple& b) { return a.e_ == b.e_; }

 private:
  HeapVector<double> e_;
};

HeapTuple HeapPoint(double x, double y, double z);
HeapTuple HeapVector3(double x, double y, double z);

// Each of these returns a new heap tuple: one allocation per call.
HeapTuple operator+(const HeapTuple& a, const HeapTuple& b);
HeapTuple operator-(const HeapTuple& a, const HeapTuple& b);
HeapTuple operator-(const HeapTuple& a);
HeapTuple operator*(const HeapTuple& a, double s);
HeapTuple operator/(const HeapTuple& a, double s);
HeapTuple Normalize(const HeapTuple& a);
HeapTuple Cross(const HeapTuple& a, const HeapTuple& b);
HeapTuple Reflect(const HeapTuple& in, const HeapTuple& normal);

// These return scalars and do not allocate.
double Dot(const HeapTuple& a, const HeapTuple& b);
double Magnitude(const HeapTuple& a);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_TUPLE_H_
