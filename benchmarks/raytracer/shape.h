// Shape: what every object in a scene has (a transform, a material, a
// parent group, whether it casts shadows) and the book's two-step protocol
// for intersections and normals: transform into object space, then ask the
// concrete shape (sphere.h, plane.h, cube.h, cylinder.h, group.h).
//
// Shapes are immutable while a scene renders: every piece of scratch state
// lives in the caller's TraceContext, so the workers of a render share one
// world (the Go original gave each worker a copy because its shapes held
// scratch buffers).
//
// Example:
//   Sphere<OptimizedPolicy> s;
//   s.SetTransform(Scaling(2, 2, 2));
//   IntersectionList<OptimizedPolicy> xs;
//   s.Intersect({Point(0, 0, -5), Vector(0, 0, 1)}, xs);  // t = 3 and 7
//
// Thread-safety: thread-compatible; const functions may run concurrently.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_SHAPE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_SHAPE_H_

#include <optional>

#include "raytracer/bounds.h"
#include "raytracer/intersection.h"
#include "raytracer/material.h"
#include "raytracer/matrix.h"
#include "raytracer/pattern.h"
#include "raytracer/ray.h"
#include "raytracer/transform_cache.h"

namespace benchprof::raytracer {

// The book's EPSILON, for the shapes' own tolerance tests (rays parallel to
// a plane or a cylinder's axis, which cylinder cap a point is on).
inline constexpr double kShapeEpsilon = 0.0001;

template <class P>
class Group;

template <class P>
class Shape {
 public:
  using Math = typename P::Math;
  using Tuple = typename Math::Tuple;
  using RayT = Ray<Tuple>;

  virtual ~Shape() = default;
  Shape(const Shape&) = delete;
  Shape& operator=(const Shape&) = delete;

  // Replaces the object-to-parent transform (the identity by default). A
  // shape's transform must be set before it is added to a group, which
  // bounds its children when they are added.
  void SetTransform(const Matrix& transform) {
    transform_.Set(transform);
    RefreshParentSpaceBounds();
  }
  const TransformCache<P>& transform() const { return transform_; }

  const Material& material() const { return material_; }
  void SetMaterial(const Material& material) {
    material_ = material;
    pattern_.reset();
    if (material.pattern) pattern_.emplace(*material.pattern);
  }
  // The material's pattern in this renderer's types; null if it has none.
  const Pattern<P>* pattern() const { return pattern_ ? &*pattern_ : nullptr; }

  // Whether the shape occludes lights (true by default).
  bool casts_shadow() const { return casts_shadow_; }
  void set_casts_shadow(bool casts) { casts_shadow_ = casts; }

  // The group this shape was added to; null for top-level shapes.
  const Shape* parent() const { return parent_; }

  // Appends the intersections of `ray` (in the parent's space) with this
  // shape to `xs`, in no particular order: the book's way, by transforming
  // the ray into object space for LocalIntersect(). Shapes may take a
  // shortcut with the optimized policy, as long as the t values are the
  // same bits.
  virtual void Intersect(const RayT& ray, IntersectionList<P>& xs) const {
    LocalIntersect(Transform(ray, transform_.InverseMatrix()), xs);
  }

  // The unit surface normal at `world_point`, a point on this primitive.
  Tuple NormalAt(const Tuple& world_point) const {
    return NormalToWorld(LocalNormalAt(WorldToObject(world_point)));
  }

  // `point` from world space to this shape's object space, through every
  // enclosing group.
  Tuple WorldToObject(const Tuple& point) const;

  // An object-space normal to a unit world-space normal, through every
  // enclosing group.
  Tuple NormalToWorld(const Tuple& normal) const;

  // The box around the shape in its own object space.
  virtual Bounds LocalBounds() const = 0;

  // The box around the shape in its parent's space.
  const Bounds& ParentSpaceBounds() const { return parent_space_bounds_; }
  // The sphere around that box.
  const BoundingSphere& ParentSpaceSphere() const { return parent_space_sphere_; }

  // The concrete shape's intersections with a ray in object space.
  virtual void LocalIntersect(const RayT& local_ray, IntersectionList<P>& xs) const = 0;

  // The concrete shape's normal at an object-space point on its surface.
  virtual Tuple LocalNormalAt(const Tuple& local_point) const = 0;

 protected:
  Shape() = default;

  // Recomputes ParentSpaceBounds(): after the transform or, for a group, the
  // children change. (Not from a constructor: LocalBounds() is virtual.)
  void RefreshParentSpaceBounds() {
    parent_space_bounds_ = LocalBounds().Transformed(transform_.fixed());
    parent_space_sphere_ = BoundingSphere(parent_space_bounds_);
  }

 private:
  friend class Group<P>;

  TransformCache<P> transform_;
  Material material_;
  std::optional<Pattern<P>> pattern_;
  bool casts_shadow_ = true;
  const Shape* parent_ = nullptr;
  // Every shape's box is infinite until SetTransform() or AddChild() says
  // otherwise, which is always correct, if useless.
  Bounds parent_space_bounds_ = Bounds::Infinite();
  BoundingSphere parent_space_sphere_{Bounds::Infinite()};
};

template <class P>
typename Shape<P>::Tuple Shape<P>::WorldToObject(const Tuple& point) const {
  if (parent_ != nullptr) return transform_.InverseMatrix() * parent_->WorldToObject(point);
  return transform_.InverseMatrix() * point;
}

template <class P>
typename Shape<P>::Tuple Shape<P>::NormalToWorld(const Tuple& normal) const {
  Tuple world_normal = transform_.InverseTransposeMatrix() * normal;
  world_normal.set_w(0);
  world_normal = Normalize(world_normal);
  if (parent_ != nullptr) return parent_->NormalToWorld(world_normal);
  return world_normal;
}

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_SHAPE_H_
