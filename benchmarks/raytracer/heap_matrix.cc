#include "raytracer/heap_matrix.h"

namespace benchprof::raytracer {

// Every formula below must match matrix.h/matrix.cc operation for operation.

HeapMatrix::HeapMatrix(int size) : size_(size), e_(static_cast<size_t>(size * size)) {}

HeapMatrix HeapMatrix::FromRows(std::initializer_list<std::initializer_list<double>> rows) {
  HeapMatrix m(static_cast<int>(rows.size()));
  int r = 0;
  for (const auto& row : rows) {
    int c = 0;
    for (double value : row) {
      if (c < m.size_) m(r, c) = value;
      ++c;
    }
    ++r;
  }
  return m;
}

HeapMatrix HeapMatrix::Identity() {
  HeapMatrix m(4);
  for (int i = 0; i < 4; ++i) m(i, i) = 1;
  return m;
}

HeapMatrix HeapMatrix::FromMatrix(const Matrix& m) {
  HeapMatrix h(4);
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) h(r, c) = m(r, c);
  }
  return h;
}

Matrix HeapMatrix::ToMatrix() const {
  Matrix m;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m(r, c) = (*this)(r, c);
  }
  return m;
}

HeapMatrix operator*(const HeapMatrix& a, const HeapMatrix& b) {
  const int n = a.size();
  HeapMatrix m(n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      double sum = a(r, 0) * b(0, c);
      for (int k = 1; k < n; ++k) sum = sum + a(r, k) * b(k, c);
      m(r, c) = sum;
    }
  }
  return m;
}

HeapTuple operator*(const HeapMatrix& m, const HeapTuple& t) {
  return {m(0, 0) * t.x() + m(0, 1) * t.y() + m(0, 2) * t.z() + m(0, 3) * t.w(),
          m(1, 0) * t.x() + m(1, 1) * t.y() + m(1, 2) * t.z() + m(1, 3) * t.w(),
          m(2, 0) * t.x() + m(2, 1) * t.y() + m(2, 2) * t.z() + m(2, 3) * t.w(),
          m(3, 0) * t.x() + m(3, 1) * t.y() + m(3, 2) * t.z() + m(3, 3) * t.w()};
}

HeapMatrix Transpose(const HeapMatrix& m) {
  HeapMatrix t(m.size());
  for (int r = 0; r < m.size(); ++r) {
    for (int c = 0; c < m.size(); ++c) t(c, r) = m(r, c);
  }
  return t;
}

HeapMatrix Submatrix(const HeapMatrix& m, int row, int col) {
  HeapMatrix sub(m.size() - 1);
  int i = 0;
  for (int r = 0; r < m.size(); ++r) {
    if (r == row) continue;
    int j = 0;
    for (int c = 0; c < m.size(); ++c) {
      if (c != col) sub(i, j++) = m(r, c);
    }
    ++i;
  }
  return sub;
}

double Minor(const HeapMatrix& m, int row, int col) { return Determinant(Submatrix(m, row, col)); }

double Cofactor(const HeapMatrix& m, int row, int col) {
  const double minor = Minor(m, row, col);
  return (row + col) % 2 == 0 ? minor : -minor;
}

double Determinant(const HeapMatrix& m) {
  if (m.size() == 2) return m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
  double det = 0;
  for (int c = 0; c < m.size(); ++c) det = det + m(0, c) * Cofactor(m, 0, c);
  return det;
}

bool IsInvertible(const HeapMatrix& m) { return Determinant(m) != 0; }

HeapMatrix Inverse(const HeapMatrix& m) {
  const double det = Determinant(m);
  HeapMatrix inverse(m.size());
  for (int r = 0; r < m.size(); ++r) {
    for (int c = 0; c < m.size(); ++c) inverse(c, r) = Cofactor(m, r, c) / det;
  }
  return inverse;
}

}  // namespace benchprof::raytracer
