// The book's tuple, colour, matrix and transform vectors (workloads.md §4.5,
// groups 1-21), run against both math types; and the property the three
// renderers' identical images rest on: heap and fixed-size arithmetic give
// the same bits.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "raytracer/color.h"
#include "raytracer/heap_matrix.h"
#include "raytracer/heap_tuple.h"
#include "raytracer/math_traits.h"
#include "raytracer/matrix.h"
#include "raytracer/transform.h"
#include "raytracer/tuple.h"
#include "raytracer_test_util.h"

namespace benchprof::raytracer {
namespace {

template <class M>
class MathTest : public ::testing::Test {};
TYPED_TEST_SUITE(MathTest, MathTypes, TypeNames);

template <class M>
typename M::Matrix Rows(std::initializer_list<std::initializer_list<double>> rows) {
  return M::FromMatrix(Matrix::FromRows(rows));
}

// 1-6: tuples.
TYPED_TEST(MathTest, TupleArithmetic) {
  using M = TypeParam;
  using T = typename M::Tuple;
  EXPECT_TUPLE(T(3, -2, 5, 1) + T(-2, 3, 1, 0), 1, 1, 6, 1);
  EXPECT_VECTOR(M::Point(3, 2, 1) - M::Point(5, 6, 7), -2, -4, -6);
  EXPECT_POINT(M::Point(3, 2, 1) - M::Vector(5, 6, 7), -2, -4, -6);
  EXPECT_VECTOR(M::Vector(0, 0, 0) - M::Vector(1, -2, 3), -1, 2, -3);
  EXPECT_TUPLE(-T(1, -2, 3, -4), -1, 2, -3, 4);
  EXPECT_TUPLE(T(1, -2, 3, -4) * 3.5, 3.5, -7, 10.5, -14);
  EXPECT_TUPLE(T(1, -2, 3, -4) * 0.5, 0.5, -1, 1.5, -2);
  EXPECT_TUPLE(T(1, -2, 3, -4) / 2, 0.5, -1, 1.5, -2);
}

TYPED_TEST(MathTest, MagnitudeNormalizeDotCross) {
  using M = TypeParam;
  EXPECT_NEAR(Magnitude(M::Vector(1, 2, 3)), std::sqrt(14.0), kBookEpsilon);
  EXPECT_NEAR(Magnitude(M::Vector(-1, -2, -3)), std::sqrt(14.0), kBookEpsilon);
  EXPECT_VECTOR(Normalize(M::Vector(4, 0, 0)), 1, 0, 0);
  EXPECT_VECTOR(Normalize(M::Vector(1, 2, 3)), 0.26726, 0.53452, 0.80178);
  EXPECT_NEAR(Magnitude(Normalize(M::Vector(1, 2, 3))), 1, kBookEpsilon);
  EXPECT_EQ(Dot(M::Vector(1, 2, 3), M::Vector(2, 3, 4)), 20);
  EXPECT_VECTOR(Cross(M::Vector(1, 2, 3), M::Vector(2, 3, 4)), -1, 2, -1);
  EXPECT_VECTOR(Cross(M::Vector(2, 3, 4), M::Vector(1, 2, 3)), 1, -2, 1);
}

TYPED_TEST(MathTest, Reflect) {
  using M = TypeParam;
  EXPECT_VECTOR(Reflect(M::Vector(1, -1, 0), M::Vector(0, 1, 0)), 1, 1, 0);
  const double h = std::sqrt(2.0) / 2;
  EXPECT_VECTOR(Reflect(M::Vector(0, -1, 0), M::Vector(h, h, 0)), 1, 0, 0);
}

// 7: colours (one type for every implementation).
TEST(ColorTest, Arithmetic) {
  EXPECT_COLOR(Color(0.9, 0.6, 0.75) + Color(0.7, 0.1, 0.25), 1.6, 0.7, 1.0);
  EXPECT_COLOR(Color(0.9, 0.6, 0.75) - Color(0.7, 0.1, 0.25), 0.2, 0.5, 0.5);
  EXPECT_COLOR(Color(0.2, 0.3, 0.4) * 2, 0.4, 0.6, 0.8);
  EXPECT_COLOR(Color(1, 0.2, 0.4) * Color(0.9, 1, 0.1), 0.9, 0.2, 0.04);
}

// 8-9: products.
TYPED_TEST(MathTest, MatrixProducts) {
  using M = TypeParam;
  const auto a = Rows<M>({{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 8, 7, 6}, {5, 4, 3, 2}});
  const auto b = Rows<M>({{-2, 1, 2, 3}, {3, 2, 1, -1}, {4, 3, 6, 5}, {1, 2, 7, 8}});
  EXPECT_TRUE(MatrixNear(
      a * b, Matrix::FromRows(
                 {{20, 22, 50, 48}, {44, 54, 114, 108}, {40, 58, 110, 102}, {16, 26, 46, 42}})));
  const auto c = Rows<M>({{1, 2, 3, 4}, {2, 4, 4, 2}, {8, 6, 4, 1}, {0, 0, 0, 1}});
  EXPECT_TUPLE(c * typename M::Tuple(1, 2, 3, 1), 18, 24, 33, 1);
  EXPECT_TRUE(
      MatrixNear(M::FromMatrix(Matrix::Identity()) * a,
                 Matrix::FromRows({{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 8, 7, 6}, {5, 4, 3, 2}})));
  EXPECT_TRUE(MatrixNear(
      Transpose(c), Matrix::FromRows({{1, 2, 8, 0}, {2, 4, 6, 0}, {3, 4, 4, 0}, {4, 2, 1, 1}})));
}

// 10: only the heap matrix has 2x2 and 3x3 sizes.
TEST(HeapMatrixTest, SmallDeterminantsAndCofactors) {
  EXPECT_EQ(Determinant(HeapMatrix::FromRows({{1, 5}, {-3, 2}})), 17);
  const HeapMatrix m = HeapMatrix::FromRows({{1, 2, 6}, {-5, 8, -4}, {2, 6, 4}});
  EXPECT_EQ(Cofactor(m, 0, 0), 56);
  EXPECT_EQ(Cofactor(m, 0, 1), 12);
  EXPECT_EQ(Cofactor(m, 0, 2), -46);
  EXPECT_EQ(Determinant(m), -196);
  const HeapMatrix a = HeapMatrix::FromRows({{3, 5, 0}, {2, -1, -7}, {6, -1, 5}});
  EXPECT_EQ(Minor(a, 1, 0), 25);
  EXPECT_EQ(Cofactor(a, 1, 0), -25);
  EXPECT_EQ(Submatrix(a, 0, 2), HeapMatrix::FromRows({{2, -1}, {6, -1}}));
}

// 11-12: 4x4 determinants.
TYPED_TEST(MathTest, Determinants) {
  using M = TypeParam;
  const auto m = Rows<M>({{-2, -8, 3, 5}, {-3, 1, 7, 3}, {1, 2, -9, 6}, {-6, 7, 7, -9}});
  EXPECT_EQ(Cofactor(m, 0, 0), 690);
  EXPECT_EQ(Cofactor(m, 0, 1), 447);
  EXPECT_EQ(Cofactor(m, 0, 2), 210);
  EXPECT_EQ(Cofactor(m, 0, 3), 51);
  EXPECT_EQ(Determinant(m), -4071);
  const auto invertible = Rows<M>({{6, 4, 4, 4}, {5, 5, 7, 6}, {4, -9, 3, -7}, {9, 1, 7, -6}});
  EXPECT_EQ(Determinant(invertible), -2120);
  EXPECT_TRUE(IsInvertible(invertible));
  const auto singular = Rows<M>({{-4, 2, -2, -3}, {9, 6, 2, 6}, {0, -5, 1, -5}, {0, 0, 0, 0}});
  EXPECT_EQ(Determinant(singular), 0);
  EXPECT_FALSE(IsInvertible(singular));
}

// 13-16: inverses.
TYPED_TEST(MathTest, Inverses) {
  using M = TypeParam;
  const auto a = Rows<M>({{-5, 2, 6, -8}, {1, -5, 1, 8}, {7, 7, -6, -7}, {1, -3, 7, 4}});
  const auto b = Inverse(a);
  EXPECT_EQ(Determinant(a), 532);
  EXPECT_EQ(Cofactor(a, 2, 3), -160);
  EXPECT_DOUBLE_EQ(b(3, 2), -160.0 / 532);
  EXPECT_EQ(Cofactor(a, 3, 2), 105);
  EXPECT_DOUBLE_EQ(b(2, 3), 105.0 / 532);
  EXPECT_TRUE(MatrixNear(b, Matrix::FromRows({{0.21805, 0.45113, 0.24060, -0.04511},
                                              {-0.80827, -1.45677, -0.44361, 0.52068},
                                              {-0.07895, -0.22368, -0.05263, 0.19737},
                                              {-0.52256, -0.81391, -0.30075, 0.30639}})));
  EXPECT_TRUE(
      MatrixNear(Inverse(Rows<M>({{8, -5, 9, 2}, {7, 5, 6, 1}, {-6, 0, 9, 6}, {-3, 0, -9, -4}})),
                 Matrix::FromRows({{-0.15385, -0.15385, -0.28205, -0.53846},
                                   {-0.07692, 0.12308, 0.02564, 0.03077},
                                   {0.35897, 0.35897, 0.43590, 0.92308},
                                   {-0.69231, -0.69231, -0.76923, -1.92308}})));
  EXPECT_TRUE(
      MatrixNear(Inverse(Rows<M>({{9, 3, 0, 9}, {-5, -2, -6, -3}, {-4, 9, 6, 4}, {-7, 6, 6, 2}})),
                 Matrix::FromRows({{-0.04074, -0.07778, 0.14444, -0.22222},
                                   {-0.07778, 0.03333, 0.36667, -0.33333},
                                   {-0.02901, -0.14630, -0.10926, 0.12963},
                                   {0.17778, 0.06667, -0.26667, 0.33333}})));
  const Matrix m = Matrix::FromRows({{3, -9, 7, 3}, {3, -8, 2, -9}, {-4, 4, 4, 1}, {-6, 5, -1, 1}});
  const auto c = Rows<M>({{8, 2, 2, 2}, {3, -1, 7, 0}, {7, 0, 5, 4}, {6, -2, 0, 5}});
  EXPECT_TRUE(MatrixNear((M::FromMatrix(m) * c) * Inverse(c), m));
}

// 17-20: transforms applied to points and vectors.
TYPED_TEST(MathTest, Transforms) {
  using M = TypeParam;
  auto apply = [](const Matrix& t, const typename M::Tuple& p) { return M::FromMatrix(t) * p; };
  EXPECT_POINT(apply(Translation(5, -3, 2), M::Point(-3, 4, 5)), 2, 1, 7);
  EXPECT_POINT(apply(Inverse(Translation(5, -3, 2)), M::Point(-3, 4, 5)), -8, 7, 3);
  EXPECT_VECTOR(apply(Translation(5, -3, 2), M::Vector(-3, 4, 5)), -3, 4, 5);
  EXPECT_POINT(apply(Scaling(2, 3, 4), M::Point(-4, 6, 8)), -8, 18, 32);
  EXPECT_VECTOR(apply(Scaling(2, 3, 4), M::Vector(-4, 6, 8)), -8, 18, 32);
  EXPECT_VECTOR(apply(Inverse(Scaling(2, 3, 4)), M::Vector(-4, 6, 8)), -2, 2, 2);
  EXPECT_POINT(apply(Scaling(-1, 1, 1), M::Point(2, 3, 4)), -2, 3, 4);

  const double h = std::sqrt(2.0) / 2;
  EXPECT_POINT(apply(RotationX(kPi / 4), M::Point(0, 1, 0)), 0, h, h);
  EXPECT_POINT(apply(Inverse(RotationX(kPi / 4)), M::Point(0, 1, 0)), 0, h, -h);
  EXPECT_POINT(apply(RotationX(kPi / 2), M::Point(0, 1, 0)), 0, 0, 1);
  EXPECT_POINT(apply(RotationY(kPi / 4), M::Point(0, 0, 1)), h, 0, h);
  EXPECT_POINT(apply(RotationY(kPi / 2), M::Point(0, 0, 1)), 1, 0, 0);
  EXPECT_POINT(apply(RotationZ(kPi / 4), M::Point(0, 1, 0)), -h, h, 0);
  EXPECT_POINT(apply(RotationZ(kPi / 2), M::Point(0, 1, 0)), -1, 0, 0);

  const auto p = M::Point(2, 3, 4);
  EXPECT_POINT(apply(Shearing(1, 0, 0, 0, 0, 0), p), 5, 3, 4);
  EXPECT_POINT(apply(Shearing(0, 1, 0, 0, 0, 0), p), 6, 3, 4);
  EXPECT_POINT(apply(Shearing(0, 0, 1, 0, 0, 0), p), 2, 5, 4);
  EXPECT_POINT(apply(Shearing(0, 0, 0, 1, 0, 0), p), 2, 7, 4);
  EXPECT_POINT(apply(Shearing(0, 0, 0, 0, 1, 0), p), 2, 3, 6);
  EXPECT_POINT(apply(Shearing(0, 0, 0, 0, 0, 1), p), 2, 3, 7);

  const auto p2 = apply(RotationX(kPi / 2), M::Point(1, 0, 1));
  EXPECT_POINT(p2, 1, -1, 0);
  const auto p3 = apply(Scaling(5, 5, 5), p2);
  EXPECT_POINT(p3, 5, -5, 0);
  EXPECT_POINT(apply(Translation(10, 5, 7), p3), 15, 0, 7);
  EXPECT_POINT(
      apply(Translation(10, 5, 7) * Scaling(5, 5, 5) * RotationX(kPi / 2), M::Point(1, 0, 1)), 15,
      0, 7);
}

// 21: the view transform (fixed-size only: scenes are described with it).
TEST(TransformTest, ViewTransform) {
  EXPECT_TRUE(MatrixNear(ViewTransform(Point(0, 0, 0), Point(0, 0, -1), Vector(0, 1, 0)),
                         Matrix::Identity()));
  EXPECT_TRUE(MatrixNear(ViewTransform(Point(0, 0, 0), Point(0, 0, 1), Vector(0, 1, 0)),
                         Scaling(-1, 1, -1)));
  EXPECT_TRUE(MatrixNear(ViewTransform(Point(0, 0, 8), Point(0, 0, 0), Vector(0, 1, 0)),
                         Translation(0, 0, -8)));
  EXPECT_TRUE(MatrixNear(ViewTransform(Point(1, 3, 2), Point(4, -2, 8), Vector(1, 1, 0)),
                         Matrix::FromRows({{-0.50709, 0.50709, 0.67612, -2.36643},
                                           {0.76772, 0.60609, 0.12122, -2.82843},
                                           {-0.35857, 0.59761, -0.71714, 0},
                                           {0, 0, 0, 1}})));
}

// The heap types must compute exactly what the fixed-size ones do, or the
// three renderers' images would differ in the last bits.
TEST(MathIdentityTest, HeapAndFixedArithmeticAreBitIdentical) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> value(-10, 10);
  for (int trial = 0; trial < 200; ++trial) {
    Matrix m;
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) m(r, c) = value(rng);
    }
    const HeapMatrix h = HeapMatrix::FromMatrix(m);
    ASSERT_EQ(Inverse(h).ToMatrix(), Inverse(m));
    ASSERT_EQ(Determinant(h), Determinant(m));
    ASSERT_EQ(Transpose(Inverse(h)).ToMatrix(), Transpose(Inverse(m)));
    ASSERT_EQ((h * h).ToMatrix(), m * m);
    const Tuple t(value(rng), value(rng), value(rng), 1);
    const HeapTuple ht = HeapMath::Point(t.x(), t.y(), t.z());
    ASSERT_EQ(HeapMath::ToFixed(h * ht), m * t);
    ASSERT_EQ(HeapMath::ToFixed(Normalize(ht)), Normalize(t));
    ASSERT_EQ(HeapMath::ToFixed(Reflect(ht, Normalize(ht))), Reflect(t, Normalize(t)));
    ASSERT_EQ(HeapMath::ToFixed(Cross(ht, ht * 0.5 - ht)), Cross(t, t * 0.5 - t));
  }
}

}  // namespace
}  // namespace benchprof::raytracer
