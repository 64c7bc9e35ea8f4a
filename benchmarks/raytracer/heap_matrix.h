// HeapMatrix: the naive renderers' square matrix, its elements on the heap.
//
// This mirrors the Go original's first version, whose matrices were slices.
// Creating, copying, multiplying or transposing a HeapMatrix allocates
// (through HeapAllocator, so the optimiser cannot drop it). Inverse() is the
// book's recursive cofactor expansion through heap submatrices: a 4x4 inverse
// allocates its result, and each of its 20 4x4 cofactors (4 for the
// determinant, 16 for the elements) allocates a 3x3 submatrix whose
// determinant allocates three 2x2 submatrices, 81 allocations in all. The
// arithmetic is that of Matrix (matrix.h), operation for operation.
//
// Example:
//   HeapMatrix m = HeapMatrix::FromMatrix(Translation(5, -3, 2));
//   HeapTuple p = Inverse(m) * HeapPoint(2, 1, 7);  // point(-3, 4, 5)
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_MATRIX_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_MATRIX_H_

#include <initializer_list>

#include "raytracer/heap_allocator.h"
#include "raytracer/heap_tuple.h"
#include "raytracer/matrix.h"

namespace benchprof::raytracer {

class HeapMatrix {
 public:
  // The size x size zero matrix. Allocates.
  explicit HeapMatrix(int size);

  // A square matrix from its rows; the row count is the size, and missing
  // values in a row are zero.
  static HeapMatrix FromRows(std::initializer_list<std::initializer_list<double>> rows);
  static HeapMatrix Identity();  // 4x4
  static HeapMatrix FromMatrix(const Matrix& m);

  int size() const { return size_; }
  double operator()(int row, int col) const { return e_[row * size_ + col]; }
  double& operator()(int row, int col) { return e_[row * size_ + col]; }

  // The same 4x4 matrix as a fixed-size value; size() must be 4.
  Matrix ToMatrix() const;

  friend bool operator==(const HeapMatrix& a, const HeapMatrix& b) {
    return a.size_ == b.size_ && a.e_ == b.e_;
  }

 private:
  int size_;
  HeapVector<double> e_;
};

// Both of equal size. Allocates the result.
HeapMatrix operator*(const HeapMatrix& a, const HeapMatrix& b);
// `m` is 4x4. Allocates the result.
HeapTuple operator*(const HeapMatrix& m, const HeapTuple& t);
HeapMatrix Transpose(const HeapMatrix& m);

// `m` without `row` and `col`: a new (size - 1)-square matrix.
HeapMatrix Submatrix(const HeapMatrix& m, int row, int col);
// The determinant of Submatrix(m, row, col).
double Minor(const HeapMatrix& m, int row, int col);
// Minor(), negated when row + col is odd.
double Cofactor(const HeapMatrix& m, int row, int col);
// By cofactor expansion along the first row; `m` is at least 2x2.
double Determinant(const HeapMatrix& m);
bool IsInvertible(const HeapMatrix& m);
// Cofactor(row, col) / determinant stored at (col, row). `m` must be
// invertible; otherwise the result holds infinities or NaNs.
HeapMatrix Inverse(const HeapMatrix& m);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_HEAP_MATRIX_H_
