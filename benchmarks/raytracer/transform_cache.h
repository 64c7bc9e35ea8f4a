// TransformCache: an object's transform and the inverse matrices the renderer
// needs, either cached or recomputed on every use, as the policy says.
//
// Shapes, patterns and the camera keep one each. With a caching policy the
// inverse and inverse-transpose are computed once, in Set(); without one,
// InverseMatrix() runs the full cofactor inverse on every call, which is the
// naive renderer's dominant cost (and Go's first profile's).
//
// Example:
//   TransformCache<CachedPolicy> t(Scaling(2, 2, 2));
//   HeapTuple local = t.InverseMatrix() * HeapPoint(2, 2, 2);  // point(1, 1, 1)
//
// Thread-safety: thread-compatible; the const functions may be called
// concurrently.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_TRANSFORM_CACHE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_TRANSFORM_CACHE_H_

#include <type_traits>

#include "raytracer/matrix.h"

namespace benchprof::raytracer {

template <class P>
class TransformCache {
 public:
  using Matrix = typename P::Math::Matrix;

  TransformCache() : TransformCache(raytracer::Matrix::Identity()) {}
  explicit TransformCache(const raytracer::Matrix& transform)
      : fixed_(transform),
        transform_(P::Math::FromMatrix(transform)),
        inverse_(MakeInverse(transform_)),
        inverse_transpose_(MakeInverseTranspose(inverse_)) {}

  // Replaces the transform (it does not compose with the previous one).
  void Set(const raytracer::Matrix& transform) { *this = TransformCache(transform); }

  // The transform as it was given, in the fixed-size type.
  const raytracer::Matrix& fixed() const { return fixed_; }

  // (Inverse and Transpose are called unqualified so that the heap overloads
  // are found by argument-dependent lookup.)

  // The inverse: a reference to the cached matrix, or a freshly computed one.
  decltype(auto) InverseMatrix() const {
    if constexpr (P::kCacheInverses) {
      return (inverse_);
    } else {
      return Inverse(transform_);
    }
  }

  // The inverse's transpose, which maps object-space normals to world space.
  decltype(auto) InverseTransposeMatrix() const {
    if constexpr (P::kCacheInverses) {
      return (inverse_transpose_);
    } else {
      return Transpose(Inverse(transform_));
    }
  }

 private:
  struct NotCached {};
  using Cached = std::conditional_t<P::kCacheInverses, Matrix, NotCached>;

  static Cached MakeInverse(const Matrix& transform) {
    if constexpr (P::kCacheInverses) {
      return Inverse(transform);
    } else {
      return {};
    }
  }
  static Cached MakeInverseTranspose(const Cached& inverse) {
    if constexpr (P::kCacheInverses) {
      return Transpose(inverse);
    } else {
      return {};
    }
  }

  raytracer::Matrix fixed_;
  Matrix transform_;
  [[no_unique_address]] Cached inverse_;
  [[no_unique_address]] Cached inverse_transpose_;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_TRANSFORM_CACHE_H_
