// Intersection: a ray parameter t and the primitive it hit, plus the lists
// of them and the book's `hit`: the intersection with the lowest t >= 0.
//
// Lists are HeapVectors in every implementation; what differs is their
// lifetime. The naive and cached renderers make a fresh list per world
// intersection, sort it with std::stable_sort (which allocates a buffer) and
// find the hit in a filtered, re-sorted copy, as the Go original's first
// version did with sort.Slice. The optimized renderer reuses per-worker lists
// and sorts in place. Both sorts are stable, so ties keep the order the shapes
// were tested in and all implementations pick the same hit.
//
// Example:
//   IntersectionList<OptimizedPolicy> xs = {{5, &s}, {-3, &s}, {2, &s}};
//   std::optional<Intersection<OptimizedPolicy>> h = FindHit<OptimizedPolicy>(xs);  // t = 2
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_INTERSECTION_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_INTERSECTION_H_

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>

#include "raytracer/heap_allocator.h"

namespace benchprof::raytracer {

template <class P>
class Shape;

template <class P>
struct Intersection {
  double t;
  const Shape<P>* object;  // the primitive (never a group)
};

template <class P>
using IntersectionList = HeapVector<Intersection<P>>;

namespace internal {

inline bool ByT(double a, double b) { return a < b; }

// Stable insertion sort: lists hold a handful of entries, and it needs no
// buffer.
template <class P>
void InsertionSortByT(std::span<Intersection<P>> xs) {
  for (size_t i = 1; i < xs.size(); ++i) {
    const Intersection<P> x = xs[i];
    size_t j = i;
    for (; j > 0 && ByT(x.t, xs[j - 1].t); --j) xs[j] = xs[j - 1];
    xs[j] = x;
  }
}

}  // namespace internal

// Sorts by increasing t, keeping the order of equal t's.
template <class P>
void SortIntersections(IntersectionList<P>& xs) {
  if constexpr (P::kReuseScratch) {
    internal::InsertionSortByT<P>(xs);
  } else {
    std::stable_sort(xs.begin(), xs.end(), [](const Intersection<P>& a, const Intersection<P>& b) {
      return internal::ByT(a.t, b.t);
    });
  }
}

// The first of the intersections with the lowest t >= 0, if any, in one
// pass over a list in any order.
template <class P>
std::optional<Intersection<P>> LowestNonNegative(std::span<const Intersection<P>> xs) {
  std::optional<Intersection<P>> best;
  for (const Intersection<P>& x : xs) {
    if (x.t >= 0 && (!best || internal::ByT(x.t, best->t))) best = x;
  }
  return best;
}

// The hit: the first of the intersections with the lowest t >= 0, for a list
// in any order. The naive policies, like the Go original, copy the
// non-negative intersections into a new list and sort it.
template <class P>
std::optional<Intersection<P>> FindHit(const IntersectionList<P>& xs) {
  if constexpr (P::kReuseScratch) {
    return LowestNonNegative<P>(xs);
  } else {
    IntersectionList<P> candidates;
    for (const Intersection<P>& x : xs) {
      if (x.t >= 0) candidates.push_back(x);
    }
    SortIntersections<P>(candidates);
    if (candidates.empty()) return std::nullopt;
    return candidates.front();
  }
}

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_INTERSECTION_H_
