// The three implementations of the ray tracer, as policies the renderer
// templates are instantiated with. They differ only in these choices, so
// their images are identical and their profiles differ where Go's did:
//
//   NaivePolicy:     heap tuples and matrices (an allocation per operation);
//                    each shape's, pattern's and camera's inverse recomputed
//                    by cofactor expansion on every use; a fresh intersection
//                    list per world intersection, sorted with a buffer, and
//                    the hit found in a filtered, re-sorted copy.
//   CachedPolicy:    as naive, but inverses and inverse-transposes are
//                    computed once, when a transform is set.
//   OptimizedPolicy: fixed-size value types, cached inverses, and per-worker
//                    scratch (intersection lists, refraction containers)
//                    allocated once and reused, so a pixel allocates nothing.
//
// Example:
//   SceneRenderer<CachedPolicy> renderer(scene, 64, 48);  // scene_renderer.h
//
// Thread-safety: stateless.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_POLICY_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_POLICY_H_

#include "raytracer/math_traits.h"

namespace benchprof::raytracer {

struct NaivePolicy {
  using Math = HeapMath;
  static constexpr bool kCacheInverses = false;
  static constexpr bool kReuseScratch = false;
};

struct CachedPolicy {
  using Math = HeapMath;
  static constexpr bool kCacheInverses = true;
  static constexpr bool kReuseScratch = false;
};

struct OptimizedPolicy {
  using Math = FixedMath;
  static constexpr bool kCacheInverses = true;
  static constexpr bool kReuseScratch = true;
};

// The point/vector type of policy P.
template <class P>
using TupleOf = typename P::Math::Tuple;

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_POLICY_H_
