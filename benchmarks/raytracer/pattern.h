// Pattern: a colour that varies over a surface (the book's checkers, and its
// test pattern that returns the point as a colour), with its own transform.
//
// PatternSpec describes one in the scene; Pattern<P> is the renderer's copy
// with the transform in the policy's matrix type, so the naive renderer
// recomputes the pattern's inverse on every lookup like every other inverse.
//
// Example:
//   Pattern<OptimizedPolicy> p(PatternSpec::Checkers(kWhite, kBlack));
//   Color c = p.ColorAt(Point(1.01, 0, 0));  // black
//
// Thread-safety: thread-compatible; const functions may run concurrently.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_PATTERN_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_PATTERN_H_

#include <cmath>

#include "raytracer/color.h"
#include "raytracer/matrix.h"
#include "raytracer/transform_cache.h"

namespace benchprof::raytracer {

struct PatternSpec {
  enum class Kind {
    kCheckers,  // 3D checkers of unit cubes: `a` where floor(x)+floor(y)+floor(z) is even
    kTest,      // the book's test pattern: color(x, y, z) of the pattern-space point
  };

  static PatternSpec Checkers(const Color& a, const Color& b,
                              const Matrix& transform = Matrix::Identity()) {
    return {Kind::kCheckers, a, b, transform};
  }
  static PatternSpec Test(const Matrix& transform = Matrix::Identity()) {
    return {Kind::kTest, kBlack, kBlack, transform};
  }

  Kind kind = Kind::kCheckers;
  Color a = kWhite;
  Color b = kBlack;
  Matrix transform = Matrix::Identity();
};

template <class P>
class Pattern {
 public:
  using Tuple = typename P::Math::Tuple;

  explicit Pattern(const PatternSpec& spec)
      : kind_(spec.kind), a_(spec.a), b_(spec.b), transform_(spec.transform) {}

  // The colour at `object_point`, a point in the space of the shape that
  // carries the pattern (see Shape::WorldToObject).
  Color ColorAt(const Tuple& object_point) const {
    const Tuple p = transform_.InverseMatrix() * object_point;
    switch (kind_) {
      case PatternSpec::Kind::kTest:
        return {p.x(), p.y(), p.z()};
      case PatternSpec::Kind::kCheckers:
        break;
    }
    // The sum is a whole number; it is even when half of it is one too
    // (cheaper than fmod, and exact).
    const double half = (std::floor(p.x()) + std::floor(p.y()) + std::floor(p.z())) * 0.5;
    return half == std::floor(half) ? a_ : b_;
  }

 private:
  PatternSpec::Kind kind_;
  Color a_;
  Color b_;
  TransformCache<P> transform_;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_PATTERN_H_
