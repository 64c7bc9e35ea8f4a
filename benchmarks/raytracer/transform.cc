#include "raytracer/transform.h"

#include <cmath>

namespace benchprof::raytracer {

Matrix Translation(double x, double y, double z) {
  Matrix m = Matrix::Identity();
  m(0, 3) = x;
  m(1, 3) = y;
  m(2, 3) = z;
  return m;
}

Matrix Scaling(double x, double y, double z) {
  Matrix m = Matrix::Identity();
  m(0, 0) = x;
  m(1, 1) = y;
  m(2, 2) = z;
  return m;
}

Matrix RotationX(double radians) {
  const double c = std::cos(radians);
  const double s = std::sin(radians);
  return Matrix::FromRows({{1, 0, 0, 0}, {0, c, -s, 0}, {0, s, c, 0}, {0, 0, 0, 1}});
}

Matrix RotationY(double radians) {
  const double c = std::cos(radians);
  const double s = std::sin(radians);
  return Matrix::FromRows({{c, 0, s, 0}, {0, 1, 0, 0}, {-s, 0, c, 0}, {0, 0, 0, 1}});
}

Matrix RotationZ(double radians) {
  const double c = std::cos(radians);
  const double s = std::sin(radians);
  return Matrix::FromRows({{c, -s, 0, 0}, {s, c, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}});
}

Matrix Shearing(double x_y, double x_z, double y_x, double y_z, double z_x, double z_y) {
  return Matrix::FromRows({{1, x_y, x_z, 0}, {y_x, 1, y_z, 0}, {z_x, z_y, 1, 0}, {0, 0, 0, 1}});
}

Matrix ViewTransform(const Tuple& from, const Tuple& to, const Tuple& up) {
  const Tuple forward = Normalize(to - from);
  const Tuple left = Cross(forward, Normalize(up));
  const Tuple true_up = Cross(left, forward);
  const Matrix orientation = Matrix::FromRows({{left.x(), left.y(), left.z(), 0},
                                               {true_up.x(), true_up.y(), true_up.z(), 0},
                                               {-forward.x(), -forward.y(), -forward.z(), 0},
                                               {0, 0, 0, 1}});
  return orientation * Translation(-from.x(), -from.y(), -from.z());
}

}  // namespace benchprof::raytracer
