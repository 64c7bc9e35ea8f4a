// TraceContext: one worker's scratch space for tracing rays: the list a
// world intersection fills and the list of objects a refracted ray is inside.
//
// With the optimized policy both are allocated once, with room for any scene
// of ordinary depth, and reused for every ray; they grow (once) only if a
// scene needs more. With the naive policies every request returns a fresh,
// empty list, as the Go original's first version made a new slice per call.
// One list suffices for every recursion level because a level is done with
// its intersections (PrepareComputations) before it spawns the next.
//
// Example:
//   TraceContext<OptimizedPolicy> context;
//   Color c = ColorAt(world, ray, RecursionBudget{}, context);  // shading.h
//
// Thread-safety: thread-compatible; give each worker its own.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_TRACE_CONTEXT_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_TRACE_CONTEXT_H_

#include "raytracer/heap_allocator.h"
#include "raytracer/intersection.h"

namespace benchprof::raytracer {

template <class P>
class TraceContext {
 public:
  using ContainerList = HeapVector<const Shape<P>*>;

  TraceContext() {
    if constexpr (P::kReuseScratch) {
      intersections_.reserve(kIntersectionCapacity);
      containers_.reserve(kContainerCapacity);
    }
  }

  // An empty intersection list: this context's buffer, or a new list.
  decltype(auto) Intersections() {
    if constexpr (P::kReuseScratch) {
      intersections_.clear();
      return (intersections_);
    } else {
      return IntersectionList<P>();
    }
  }

  // An empty list of shapes: this context's buffer, or a new list.
  decltype(auto) Containers() {
    if constexpr (P::kReuseScratch) {
      containers_.clear();
      return (containers_);
    } else {
      return ContainerList();
    }
  }

 private:
  static constexpr size_t kIntersectionCapacity = 256;
  static constexpr size_t kContainerCapacity = 64;

  IntersectionList<P> intersections_;
  ContainerList containers_;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_TRACE_CONTEXT_H_
