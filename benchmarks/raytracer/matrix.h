// Matrix: the fixed-size 4x4 transformation matrix of the optimized renderer,
// a std::array<double, 16> value (row-major).
//
// The inverse is computed the book's way, by cofactor expansion, with the
// same operations in the same order as the heap version (heap_matrix.h), so a
// cached fixed-size inverse is bit-identical to one the naive renderer
// recomputes. The optimized renderer computes it once per shape, so its cost
// does not matter there.
//
// Example:
//   Matrix m = Translation(5, -3, 2);           // transform.h
//   Tuple p = Inverse(m) * Point(2, 1, 7);      // point(-3, 4, 5)
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_MATRIX_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_MATRIX_H_

#include <array>
#include <initializer_list>

#include "raytracer/tuple.h"

namespace benchprof::raytracer {

class Matrix {
 public:
  // The zero matrix.
  constexpr Matrix() = default;

  // A matrix from its four rows of four values; missing values are zero.
  static Matrix FromRows(std::initializer_list<std::initializer_list<double>> rows);
  static constexpr Matrix Identity() {
    Matrix m;
    for (int i = 0; i < 4; ++i) m(i, i) = 1;
    return m;
  }

  constexpr double operator()(int row, int col) const { return e_[row * 4 + col]; }
  constexpr double& operator()(int row, int col) { return e_[row * 4 + col]; }

  friend constexpr bool operator==(const Matrix&, const Matrix&) = default;

 private:
  std::array<double, 16> e_{};
};

inline Matrix operator*(const Matrix& a, const Matrix& b) {
  Matrix m;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      m(r, c) = a(r, 0) * b(0, c) + a(r, 1) * b(1, c) + a(r, 2) * b(2, c) + a(r, 3) * b(3, c);
    }
  }
  return m;
}

inline Tuple operator*(const Matrix& m, const Tuple& t) {
  return {m(0, 0) * t.x() + m(0, 1) * t.y() + m(0, 2) * t.z() + m(0, 3) * t.w(),
          m(1, 0) * t.x() + m(1, 1) * t.y() + m(1, 2) * t.z() + m(1, 3) * t.w(),
          m(2, 0) * t.x() + m(2, 1) * t.y() + m(2, 2) * t.z() + m(2, 3) * t.w(),
          m(3, 0) * t.x() + m(3, 1) * t.y() + m(3, 2) * t.z() + m(3, 3) * t.w()};
}

Matrix Transpose(const Matrix& m);

// The determinant, by cofactor expansion along the first row.
double Determinant(const Matrix& m);

// The determinant of the 3x3 submatrix without `row` and `col`, negated when
// row + col is odd.
double Cofactor(const Matrix& m, int row, int col);

// True if the determinant is not zero.
bool IsInvertible(const Matrix& m);

// The inverse: cofactor(row, col) / determinant stored at (col, row). `m`
// must be invertible; otherwise the result holds infinities or NaNs.
Matrix Inverse(const Matrix& m);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_MATRIX_H_
