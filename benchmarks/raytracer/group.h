// Group: a shape made of child shapes that share its transform, with a
// bounding box around them so rays that miss the box skip the children.
//
// A child's transform must be set before it is added (the box is grown as
// children arrive). Intersections name the primitive that was hit, never the
// group.
//
// Example:
//   Group<OptimizedPolicy> g;
//   g.SetTransform(RotationY(0.67));
//   auto s = std::make_unique<Sphere<OptimizedPolicy>>();
//   s->SetTransform(Translation(-2, 0.25, -1) * Scaling(0.25, 0.25, 0.25));
//   g.AddChild(std::move(s));
//
// Thread-safety: as Shape.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_GROUP_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_GROUP_H_

#include <memory>
#include <span>
#include <vector>

#include "raytracer/shape.h"

namespace benchprof::raytracer {

template <class P>
class Group final : public Shape<P> {
 public:
  using typename Shape<P>::Math;
  using typename Shape<P>::Tuple;
  using typename Shape<P>::RayT;

  Group() = default;

  // Takes ownership of `child`, makes this group its parent and grows the
  // bounding box. Returns the child.
  Shape<P>* AddChild(std::unique_ptr<Shape<P>> child) {
    child->parent_ = this;
    bounds_.Add(child->ParentSpaceBounds());
    this->RefreshParentSpaceBounds();
    children_.push_back(std::move(child));
    return children_.back().get();
  }

  std::span<const std::unique_ptr<Shape<P>>> children() const { return children_; }

  // The optimized policy first tests a sphere around the group in the
  // parent's space, so most rays that miss the group are not transformed.
  // The box test in LocalIntersect still decides, so the children see the
  // same rays as without it.
  void Intersect(const RayT& ray, IntersectionList<P>& xs) const override {
    if constexpr (P::kReuseScratch) {
      if (!this->ParentSpaceSphere().Intersects(ray)) return;
    }
    Shape<P>::Intersect(ray, xs);
  }

  void LocalIntersect(const RayT& ray, IntersectionList<P>& xs) const override {
    if (!bounds_.Intersects(ray)) return;
    for (const auto& child : children_) child->Intersect(ray, xs);
  }

  // Never called: intersections name primitives, and normals are asked of
  // them. Returns the zero vector.
  Tuple LocalNormalAt(const Tuple&) const override { return Math::Vector(0, 0, 0); }

  Bounds LocalBounds() const override { return bounds_; }

 private:
  std::vector<std::unique_ptr<Shape<P>>> children_;
  Bounds bounds_;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_GROUP_H_
