// Shared by the ray tracer's unit tests: the book's EPSILON comparisons for
// tuples, colours and matrices, and the type lists that run one test body
// against every math type or renderer policy.
#ifndef BENCHPROF_TESTS_RAYTRACER_RAYTRACER_TEST_UTIL_H_
#define BENCHPROF_TESTS_RAYTRACER_RAYTRACER_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <type_traits>

#include "raytracer/color.h"
#include "raytracer/matrix.h"
#include "raytracer/policy.h"

namespace benchprof::raytracer {

// The book's tests compare with |a - b| < EPSILON.
inline constexpr double kBookEpsilon = 0.0001;

template <class TupleT>
::testing::AssertionResult TupleNear(const TupleT& actual, double x, double y, double z, double w) {
  const double expected[4] = {x, y, z, w};
  for (int i = 0; i < 4; ++i) {
    if (!(std::abs(actual[i] - expected[i]) < kBookEpsilon)) {
      return ::testing::AssertionFailure()
             << "got (" << actual[0] << ", " << actual[1] << ", " << actual[2] << ", " << actual[3]
             << "), want (" << x << ", " << y << ", " << z << ", " << w << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

#define EXPECT_POINT(t, x, y, z) EXPECT_TRUE(::benchprof::raytracer::TupleNear((t), x, y, z, 1))
#define EXPECT_VECTOR(t, x, y, z) EXPECT_TRUE(::benchprof::raytracer::TupleNear((t), x, y, z, 0))
#define EXPECT_TUPLE(t, x, y, z, w) EXPECT_TRUE(::benchprof::raytracer::TupleNear((t), x, y, z, w))

inline ::testing::AssertionResult ColorNear(const Color& actual, double r, double g, double b,
                                            double tolerance = kBookEpsilon) {
  if (std::abs(actual.r - r) < tolerance && std::abs(actual.g - g) < tolerance &&
      std::abs(actual.b - b) < tolerance) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got color(" << actual.r << ", " << actual.g << ", " << actual.b << "), want (" << r
         << ", " << g << ", " << b << ")";
}

#define EXPECT_COLOR(c, r, g, b) EXPECT_TRUE(::benchprof::raytracer::ColorNear((c), r, g, b))

template <class MatrixT>
::testing::AssertionResult MatrixNear(const MatrixT& actual, const Matrix& expected) {
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      if (!(std::abs(actual(r, c) - expected(r, c)) < kBookEpsilon)) {
        return ::testing::AssertionFailure() << "element (" << r << ", " << c << ") is "
                                             << actual(r, c) << ", want " << expected(r, c);
      }
    }
  }
  return ::testing::AssertionSuccess();
}

using MathTypes = ::testing::Types<FixedMath, HeapMath>;
using Policies = ::testing::Types<NaivePolicy, CachedPolicy, OptimizedPolicy>;

// Readable typed-test names: FixedMath/HeapMath, naive/cached/optimized.
struct TypeNames {
  template <class T>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<T, FixedMath>) return "FixedMath";
    if constexpr (std::is_same_v<T, HeapMath>) return "HeapMath";
    if constexpr (std::is_same_v<T, NaivePolicy>) return "naive";
    if constexpr (std::is_same_v<T, CachedPolicy>) return "cached";
    if constexpr (std::is_same_v<T, OptimizedPolicy>) return "optimized";
    return "unknown";
  }
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_TESTS_RAYTRACER_RAYTRACER_TEST_UTIL_H_
