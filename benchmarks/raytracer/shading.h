// Shading: the colour a ray sees (the book's color_at) and its parts:
// intersecting the world, shadows, Phong surface colour, reflection and
// refraction combined with Schlick's approximation.
//
// Written once for every policy. The naive policies' intersection lists are
// fresh, sorted and copied per call (intersection.h, trace_context.h); the
// optimized policy fills the worker's reused lists, skips sorting for shadow
// rays and stops a shadow ray at its first occluder. Both ask the same
// question of the same numbers, so they return the same colours.
//
// Example:
//   TraceContext<OptimizedPolicy> context;
//   Color c = ColorAt(world, camera.RayForPixel(5, 5), RecursionBudget{}, context);
//
// Thread-safety: thread-safe for distinct contexts (the world is only read).
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_SHADING_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_SHADING_H_

#include <cmath>
#include <optional>

#include "raytracer/color.h"
#include "raytracer/computations.h"
#include "raytracer/intersection.h"
#include "raytracer/lighting.h"
#include "raytracer/policy.h"
#include "raytracer/ray.h"
#include "raytracer/trace_context.h"
#include "raytracer/world.h"

namespace benchprof::raytracer {

// How many more reflected and refracted rays a ray may spawn. The book has
// one budget (`remaining`); with it both counts stay equal. The Go original
// counts them separately (RenderOptions::swapped_refraction_budgets).
struct RecursionBudget {
  int reflections = 5;
  int refractions = 5;

  // The budget of a reflected ray.
  RecursionBudget AfterReflection(const RenderOptions& options) const {
    if (options.swapped_refraction_budgets) return {reflections - 1, refractions};
    return {reflections - 1, refractions - 1};
  }
  // The budget of a refracted ray. The Go original decrements its refraction
  // budget and passes it in the reflection slot (and vice versa).
  RecursionBudget AfterRefraction(const RenderOptions& options) const {
    if (options.swapped_refraction_budgets) return {refractions - 1, reflections};
    return {reflections - 1, refractions - 1};
  }
};

// Appends the intersections of `ray` with every object to `xs` and sorts
// them by t.
template <class P>
void IntersectWorld(const World<P>& world, const Ray<TupleOf<P>>& ray, IntersectionList<P>& xs) {
  for (const auto& object : world.objects()) object->Intersect(ray, xs);
  SortIntersections<P>(xs);
}

// Whether `shape` blocks light: its cast-shadow flag, and its groups' flags
// or (Go's rule) only the top-level ancestor's.
template <class P>
bool CastsShadow(const Shape<P>& shape, const RenderOptions& options) {
  if (options.shadow_flag_top_level_only) {
    const Shape<P>* top = &shape;
    while (top->parent() != nullptr) top = top->parent();
    return top->casts_shadow();
  }
  for (const Shape<P>* s = &shape; s != nullptr; s = s->parent()) {
    if (!s->casts_shadow()) return false;
  }
  return true;
}

// Whether something that casts shadows lies between `point` and the light at
// `light_position`: the shadow ray's hit among casting shapes is closer than
// the light.
template <class P>
bool IsShadowed(const World<P>& world, const TupleOf<P>& light_position, const TupleOf<P>& point,
                TraceContext<P>& context) {
  const TupleOf<P> v = light_position - point;
  const double distance = Magnitude(v);
  const Ray<TupleOf<P>> ray{point, Normalize(v)};
  decltype(auto) xs = context.Intersections();
  if constexpr (P::kReuseScratch) {
    // Any occluder will do: stop at the first object that has one.
    for (const auto& object : world.objects()) {
      xs.clear();
      object->Intersect(ray, xs);
      for (const Intersection<P>& x : xs) {
        if (x.t >= 0 && x.t < distance && CastsShadow(*x.object, world.options())) return true;
      }
    }
    return false;
  } else {
    IntersectWorld(world, ray, xs);
    IntersectionList<P> casting;
    for (const Intersection<P>& x : xs) {
      if (CastsShadow(*x.object, world.options())) casting.push_back(x);
    }
    const std::optional<Intersection<P>> hit = FindHit<P>(casting);
    return hit && hit->t < distance;
  }
}

template <class P>
Color ColorAt(const World<P>& world, const Ray<TupleOf<P>>& ray, const RecursionBudget& budget,
              TraceContext<P>& context);

// The reflected ray's colour times the surface's reflectivity; black when
// the surface does not reflect or the budget is spent.
template <class P>
Color ReflectedColor(const World<P>& world, const Computations<P>& comps,
                     const RecursionBudget& budget, TraceContext<P>& context) {
  const double reflective = comps.object->material().reflective;
  if (budget.reflections <= 0 || reflective == 0) return kBlack;
  const Ray<TupleOf<P>> reflected{comps.over_point, comps.reflectv};
  return ColorAt(world, reflected, budget.AfterReflection(world.options()), context) * reflective;
}

// The refracted ray's colour times the surface's transparency (Snell's law);
// black for opaque surfaces, a spent budget or total internal reflection.
template <class P>
Color RefractedColor(const World<P>& world, const Computations<P>& comps,
                     const RecursionBudget& budget, TraceContext<P>& context) {
  const double transparency = comps.object->material().transparency;
  if (transparency == 0 || budget.refractions <= 0) return kBlack;
  const double n_ratio = comps.n1 / comps.n2;
  const double cos_i = Dot(comps.eyev, comps.normalv);
  const double sin2_t = n_ratio * n_ratio * (1 - cos_i * cos_i);
  if (sin2_t > 1) return kBlack;
  const double cos_t = std::sqrt(1.0 - sin2_t);
  const TupleOf<P> direction = comps.normalv * (n_ratio * cos_i - cos_t) - comps.eyev * n_ratio;
  const Ray<TupleOf<P>> refracted{comps.under_point, direction};
  return ColorAt(world, refracted, budget.AfterRefraction(world.options()), context) * transparency;
}

// The colour at a prepared hit: each light's Phong colour (with shadows),
// plus reflection and refraction, blended by Schlick's reflectance when the
// surface both reflects and transmits.
template <class P>
Color ShadeHit(const World<P>& world, const Computations<P>& comps, const RecursionBudget& budget,
               TraceContext<P>& context) {
  Color surface = kBlack;
  for (const PointLight<P>& light : world.lights()) {
    const bool shadowed = IsShadowed(world, light.position, comps.over_point, context);
    surface +=
        Lighting(*comps.object, light, comps.over_point, comps.eyev, comps.normalv, shadowed);
  }
  const Color reflected = ReflectedColor(world, comps, budget, context);
  const Color refracted = RefractedColor(world, comps, budget, context);
  const Material& material = comps.object->material();
  if (material.reflective > 0 && material.transparency > 0) {
    const double reflectance = Schlick(comps);
    return surface + reflected * reflectance + refracted * (1 - reflectance);
  }
  return surface + reflected + refracted;
}

// The colour `ray` sees: black if it hits nothing.
template <class P>
Color ColorAt(const World<P>& world, const Ray<TupleOf<P>>& ray, const RecursionBudget& budget,
              TraceContext<P>& context) {
  decltype(auto) xs = context.Intersections();
  IntersectWorld(world, ray, xs);
  const std::optional<Intersection<P>> hit = FindHit<P>(xs);
  if (!hit) return kBlack;
  // The last use of `xs`: the recursion below may reuse the context's list.
  const Computations<P> comps =
      PrepareComputations<P>(*hit, ray, xs, world.options().surface_epsilon, context);
  return ShadeHit(world, comps, budget, context);
}

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_SHADING_H_
