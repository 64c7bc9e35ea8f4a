#include "raytracer/matrix.h"

#include <array>

namespace benchprof::raytracer {
namespace {

// An NxN row-major block: the 3x3 and 2x2 submatrices of the expansion.
template <int N>
using Square = std::array<double, N * N>;

template <int N>
Square<N - 1> Submatrix(const Square<N>& m, int row, int col) {
  Square<N - 1> sub{};
  int i = 0;
  for (int r = 0; r < N; ++r) {
    if (r == row) continue;
    for (int c = 0; c < N; ++c) {
      if (c != col) sub[i++] = m[r * N + c];
    }
  }
  return sub;
}

template <int N>
double SquareCofactor(const Square<N>& m, int row, int col);

// Keep the order of operations in step with heap_matrix.cc: the naive
// renderer's recomputed inverses must equal these bit for bit.
template <int N>
double SquareDeterminant(const Square<N>& m) {
  if constexpr (N == 2) {
    return m[0] * m[3] - m[1] * m[2];
  } else {
    double det = 0;
    for (int c = 0; c < N; ++c) det = det + m[c] * SquareCofactor<N>(m, 0, c);
    return det;
  }
}

template <int N>
double SquareCofactor(const Square<N>& m, int row, int col) {
  const double minor = SquareDeterminant<N - 1>(Submatrix<N>(m, row, col));
  return (row + col) % 2 == 0 ? minor : -minor;
}

Square<4> Elements(const Matrix& m) {
  Square<4> e{};
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) e[r * 4 + c] = m(r, c);
  }
  return e;
}

}  // namespace

Matrix Matrix::FromRows(std::initializer_list<std::initializer_list<double>> rows) {
  Matrix m;
  int r = 0;
  for (const auto& row : rows) {
    int c = 0;
    for (double value : row) {
      if (r < 4 && c < 4) m(r, c) = value;
      ++c;
    }
    ++r;
  }
  return m;
}

Matrix Transpose(const Matrix& m) {
  Matrix t;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) t(c, r) = m(r, c);
  }
  return t;
}

double Determinant(const Matrix& m) { return SquareDeterminant<4>(Elements(m)); }

double Cofactor(const Matrix& m, int row, int col) {
  return SquareCofactor<4>(Elements(m), row, col);
}

bool IsInvertible(const Matrix& m) { return Determinant(m) != 0; }

Matrix Inverse(const Matrix& m) {
  const Square<4> e = Elements(m);
  const double det = SquareDeterminant<4>(e);
  Matrix inverse;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) inverse(c, r) = SquareCofactor<4>(e, r, c) / det;
  }
  return inverse;
}

}  // namespace benchprof::raytracer
