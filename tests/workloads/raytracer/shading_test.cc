// The book's lighting, world, shading, reflection, refraction, Schlick and
// camera vectors (workloads.md §4.5, groups 27-41), run against all three
// renderer policies with the book's EPSILON.

#include "raytracer/shading.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "raytracer/camera.h"
#include "raytracer/computations.h"
#include "raytracer/plane.h"
#include "raytracer/scene_renderer.h"
#include "raytracer/scenes.h"
#include "raytracer/sphere.h"
#include "raytracer/transform.h"
#include "raytracer/world_builder.h"
#include "raytracer_test_util.h"

namespace benchprof::raytracer {
namespace {

const double kHalfRoot2 = std::sqrt(2.0) / 2;

template <class P>
class ShadingTest : public ::testing::Test {
 protected:
  using RayT = Ray<TupleOf<P>>;

  static TupleOf<P> Pt(double x, double y, double z) { return P::Math::Point(x, y, z); }
  static TupleOf<P> Vec(double x, double y, double z) { return P::Math::Vector(x, y, z); }
  static RayT MakeRay(double ox, double oy, double oz, double dx, double dy, double dz) {
    return {Pt(ox, oy, oz), Vec(dx, dy, dz)};
  }

  // The book's default world: the light at (-10, 10, -10), an outer unit
  // sphere and an inner sphere scaled by 0.5.
  static World<P> DefaultWorld() { return BuildWorld<P>(DefaultWorldScene(false)); }

  static std::unique_ptr<Sphere<P>> GlassSphere() {
    auto s = std::make_unique<Sphere<P>>();
    Material m;
    m.transparency = 1.0;
    m.refractive_index = 1.5;
    s->SetMaterial(m);
    return s;
  }

  Computations<P> Prepare(const IntersectionList<P>& xs, size_t hit_index, const RayT& ray) {
    return PrepareComputations<P>(xs[hit_index], ray, xs, kBookEpsilon, context_);
  }

  TraceContext<P> context_;
};
TYPED_TEST_SUITE(ShadingTest, Policies, TypeNames);

template <class P>
void ChangeMaterial(Shape<P>& shape, void (*change)(Material&)) {
  Material m = shape.material();
  change(m);
  shape.SetMaterial(m);
}

// 27
TYPED_TEST(ShadingTest, Lighting) {
  using P = TypeParam;
  const Sphere<P> s;
  const auto position = this->Pt(0, 0, 0);
  const auto normal = this->Vec(0, 0, -1);
  auto light = [&](double x, double y, double z) {
    return PointLight<P>{this->Pt(x, y, z), kWhite};
  };
  const auto front = light(0, 0, -10);
  const auto above = light(0, 10, -10);
  EXPECT_COLOR(Lighting(s, front, position, this->Vec(0, 0, -1), normal, false), 1.9, 1.9, 1.9);
  EXPECT_COLOR(Lighting(s, front, position, this->Vec(0, kHalfRoot2, -kHalfRoot2), normal, false),
               1.0, 1.0, 1.0);
  EXPECT_COLOR(Lighting(s, above, position, this->Vec(0, 0, -1), normal, false), 0.7364, 0.7364,
               0.7364);
  EXPECT_COLOR(Lighting(s, above, position, this->Vec(0, -kHalfRoot2, -kHalfRoot2), normal, false),
               1.6364, 1.6364, 1.6364);
  EXPECT_COLOR(Lighting(s, light(0, 0, 10), position, this->Vec(0, 0, -1), normal, false), 0.1, 0.1,
               0.1);
  EXPECT_COLOR(Lighting(s, front, position, this->Vec(0, 0, -1), normal, true), 0.1, 0.1, 0.1);
}

// 28
TYPED_TEST(ShadingTest, IntersectWorld) {
  const World<TypeParam> w = this->DefaultWorld();
  IntersectionList<TypeParam> xs;
  IntersectWorld(w, this->MakeRay(0, 0, -5, 0, 0, 1), xs);
  ASSERT_EQ(xs.size(), 4u);
  EXPECT_NEAR(xs[0].t, 4, kBookEpsilon);
  EXPECT_NEAR(xs[1].t, 4.5, kBookEpsilon);
  EXPECT_NEAR(xs[2].t, 5.5, kBookEpsilon);
  EXPECT_NEAR(xs[3].t, 6, kBookEpsilon);
}

// 29
TYPED_TEST(ShadingTest, ShadeHitAndColorAt) {
  using P = TypeParam;
  World<P> w = this->DefaultWorld();
  {
    const auto ray = this->MakeRay(0, 0, -5, 0, 0, 1);
    const IntersectionList<P> xs = {{4, &w.object(0)}};
    EXPECT_COLOR(ShadeHit(w, this->Prepare(xs, 0, ray), RecursionBudget{}, this->context_), 0.38066,
                 0.47583, 0.2855);
    EXPECT_COLOR(ColorAt(w, ray, RecursionBudget{}, this->context_), 0.38066, 0.47583, 0.2855);
    EXPECT_EQ(ColorAt(w, this->MakeRay(0, 0, -5, 0, 1, 0), RecursionBudget{}, this->context_),
              kBlack);
  }
  w.ClearLights();
  w.AddLight({this->Pt(0, 0.25, 0), kWhite});
  const auto ray = this->MakeRay(0, 0, 0, 0, 0, 1);
  const IntersectionList<P> xs = {{0.5, &w.object(1)}};
  EXPECT_COLOR(ShadeHit(w, this->Prepare(xs, 0, ray), RecursionBudget{}, this->context_), 0.90498,
               0.90498, 0.90498);
}

// 30
TYPED_TEST(ShadingTest, ColorAtWithHitBehindTheRay) {
  World<TypeParam> w = this->DefaultWorld();
  ChangeMaterial<TypeParam>(w.object(0), [](Material& m) { m.ambient = 1; });
  ChangeMaterial<TypeParam>(w.object(1), [](Material& m) { m.ambient = 1; });
  const Color inner = w.object(1).material().color;
  EXPECT_COLOR(ColorAt(w, this->MakeRay(0, 0, 0.75, 0, 0, -1), RecursionBudget{}, this->context_),
               inner.r, inner.g, inner.b);
}

// 31
TYPED_TEST(ShadingTest, IsShadowed) {
  const World<TypeParam> w = this->DefaultWorld();
  const auto light = this->Pt(-10, 10, -10);
  EXPECT_FALSE(IsShadowed(w, light, this->Pt(0, 10, 0), this->context_));
  EXPECT_TRUE(IsShadowed(w, light, this->Pt(10, -10, 10), this->context_));
  EXPECT_FALSE(IsShadowed(w, light, this->Pt(-20, 20, -20), this->context_));
  EXPECT_FALSE(IsShadowed(w, light, this->Pt(-2, 2, -2), this->context_));
}

TYPED_TEST(ShadingTest, CastShadowFlag) {
  using P = TypeParam;
  World<P> w = this->DefaultWorld();
  w.object(0).set_casts_shadow(false);
  w.object(1).set_casts_shadow(false);
  EXPECT_FALSE(IsShadowed(w, this->Pt(-10, 10, -10), this->Pt(10, -10, 10), this->context_));

  // A child that opts out inside a group: honoured by the book's rule, not by
  // the Go original's (which looks at top-level objects only).
  World<P> g;
  auto group = std::make_unique<Group<P>>();
  auto child = std::make_unique<Sphere<P>>();
  child->set_casts_shadow(false);
  group->AddChild(std::move(child));
  g.AddObject(std::move(group));
  EXPECT_FALSE(IsShadowed(g, this->Pt(-10, 10, -10), this->Pt(10, -10, 10), this->context_));
  g.set_options(FaithfulOptions());
  EXPECT_TRUE(IsShadowed(g, this->Pt(-10, 10, -10), this->Pt(10, -10, 10), this->context_));
}

// 32
TYPED_TEST(ShadingTest, ShadeHitInShadow) {
  using P = TypeParam;
  World<P> w;
  w.AddLight({this->Pt(0, 0, -10), kWhite});
  w.AddObject(std::make_unique<Sphere<P>>());
  auto s2 = std::make_unique<Sphere<P>>();
  s2->SetTransform(Translation(0, 0, 10));
  const Shape<P>* second = w.AddObject(std::move(s2));
  const auto ray = this->MakeRay(0, 0, 5, 0, 0, 1);
  const IntersectionList<P> xs = {{4, second}};
  EXPECT_COLOR(ShadeHit(w, this->Prepare(xs, 0, ray), RecursionBudget{}, this->context_), 0.1, 0.1,
               0.1);
}

// 33
TYPED_TEST(ShadingTest, PrepareComputations) {
  using P = TypeParam;
  const Sphere<P> s;
  {
    const auto ray = this->MakeRay(0, 0, -5, 0, 0, 1);
    const IntersectionList<P> xs = {{4, &s}};
    const Computations<P> c = this->Prepare(xs, 0, ray);
    EXPECT_EQ(c.t, 4);
    EXPECT_EQ(c.object, &s);
    EXPECT_POINT(c.point, 0, 0, -1);
    EXPECT_VECTOR(c.eyev, 0, 0, -1);
    EXPECT_VECTOR(c.normalv, 0, 0, -1);
    EXPECT_FALSE(c.inside);
  }
  {
    const auto ray = this->MakeRay(0, 0, 0, 0, 0, 1);
    const IntersectionList<P> xs = {{1, &s}};
    const Computations<P> c = this->Prepare(xs, 0, ray);
    EXPECT_POINT(c.point, 0, 0, 1);
    EXPECT_VECTOR(c.eyev, 0, 0, -1);
    EXPECT_TRUE(c.inside);
    EXPECT_VECTOR(c.normalv, 0, 0, -1);
  }
  {
    Sphere<P> shifted;
    shifted.SetTransform(Translation(0, 0, 1));
    const auto ray = this->MakeRay(0, 0, -5, 0, 0, 1);
    const IntersectionList<P> xs = {{5, &shifted}};
    const Computations<P> c = this->Prepare(xs, 0, ray);
    EXPECT_LT(c.over_point.z(), -kBookEpsilon / 2);
    EXPECT_GT(c.point.z(), c.over_point.z());
    EXPECT_GT(c.under_point.z(), kBookEpsilon / 2);
    EXPECT_LT(c.point.z(), c.under_point.z());
  }
}

// 34-35
TYPED_TEST(ShadingTest, Reflection) {
  using P = TypeParam;
  {
    const Plane<P> plane;
    const auto ray = this->MakeRay(0, 1, -1, 0, -kHalfRoot2, kHalfRoot2);
    const IntersectionList<P> xs = {{std::sqrt(2.0), &plane}};
    EXPECT_VECTOR(this->Prepare(xs, 0, ray).reflectv, 0, kHalfRoot2, kHalfRoot2);
  }
  {
    World<P> w = this->DefaultWorld();
    ChangeMaterial<P>(w.object(1), [](Material& m) { m.ambient = 1; });
    const auto ray = this->MakeRay(0, 0, 0, 0, 0, 1);
    const IntersectionList<P> xs = {{1, &w.object(1)}};
    EXPECT_EQ(ReflectedColor(w, this->Prepare(xs, 0, ray), RecursionBudget{}, this->context_),
              kBlack);
  }
  World<P> w = this->DefaultWorld();
  auto plane = std::make_unique<Plane<P>>();
  Material m;
  m.reflective = 0.5;
  plane->SetMaterial(m);
  plane->SetTransform(Translation(0, -1, 0));
  const Shape<P>* floor = w.AddObject(std::move(plane));
  const auto ray = this->MakeRay(0, 0, -3, 0, -kHalfRoot2, kHalfRoot2);
  const IntersectionList<P> xs = {{std::sqrt(2.0), floor}};
  const Computations<P> c = this->Prepare(xs, 0, ray);
  EXPECT_COLOR(ReflectedColor(w, c, RecursionBudget{}, this->context_), 0.19032, 0.2379, 0.14274);
  EXPECT_COLOR(ShadeHit(w, c, RecursionBudget{}, this->context_), 0.87677, 0.92436, 0.82918);
  EXPECT_EQ(ReflectedColor(w, c, RecursionBudget{0, 0}, this->context_), kBlack);
}

TYPED_TEST(ShadingTest, MutuallyReflectiveSurfacesTerminate) {
  using P = TypeParam;
  World<P> w;
  w.AddLight({this->Pt(0, 0, 0), kWhite});
  Material mirror;
  mirror.reflective = 1;
  for (double y : {-1.0, 1.0}) {
    auto plane = std::make_unique<Plane<P>>();
    plane->SetMaterial(mirror);
    plane->SetTransform(Translation(0, y, 0));
    w.AddObject(std::move(plane));
  }
  const Color c = ColorAt(w, this->MakeRay(0, 0, 0, 0, 1, 0), RecursionBudget{}, this->context_);
  EXPECT_GT(c.r, 0);
  w.set_options(FaithfulOptions());
  EXPECT_GT(ColorAt(w, this->MakeRay(0, 0, 0, 0, 1, 0), RecursionBudget{}, this->context_).r, 0);
}

// 36
TYPED_TEST(ShadingTest, RefractiveIndicesAtEachIntersection) {
  using P = TypeParam;
  auto a = this->GlassSphere();
  a->SetTransform(Scaling(2, 2, 2));
  auto b = this->GlassSphere();
  b->SetTransform(Translation(0, 0, -0.25));
  auto c = this->GlassSphere();
  c->SetTransform(Translation(0, 0, 0.25));
  for (auto [shape, index] : {std::pair{a.get(), 1.5}, {b.get(), 2.0}, {c.get(), 2.5}}) {
    Material m = shape->material();
    m.refractive_index = index;
    shape->SetMaterial(m);
  }
  const auto ray = this->MakeRay(0, 0, -4, 0, 0, 1);
  const IntersectionList<P> xs = {{2, a.get()},    {2.75, b.get()}, {3.25, c.get()},
                                  {4.75, b.get()}, {5.25, c.get()}, {6, a.get()}};
  const double want[6][2] = {{1.0, 1.5}, {1.5, 2.0}, {2.0, 2.5},
                             {2.5, 2.5}, {2.5, 1.5}, {1.5, 1.0}};
  for (size_t i = 0; i < 6; ++i) {
    const Computations<P> comps = this->Prepare(xs, i, ray);
    EXPECT_EQ(comps.n1, want[i][0]) << "index " << i;
    EXPECT_EQ(comps.n2, want[i][1]) << "index " << i;
  }
}

// 37
TYPED_TEST(ShadingTest, RefractedColor) {
  using P = TypeParam;
  {
    World<P> w = this->DefaultWorld();
    const Shape<P>* s = &w.object(0);
    const auto ray = this->MakeRay(0, 0, -5, 0, 0, 1);
    const IntersectionList<P> xs = {{4, s}, {6, s}};
    EXPECT_EQ(RefractedColor(w, this->Prepare(xs, 0, ray), RecursionBudget{}, this->context_),
              kBlack);
    ChangeMaterial<P>(w.object(0), [](Material& m) {
      m.transparency = 1.0;
      m.refractive_index = 1.5;
    });
    EXPECT_EQ(RefractedColor(w, this->Prepare(xs, 0, ray), RecursionBudget{0, 0}, this->context_),
              kBlack);
    const auto inside = this->MakeRay(0, 0, kHalfRoot2, 0, 1, 0);
    const IntersectionList<P> tir = {{-kHalfRoot2, s}, {kHalfRoot2, s}};
    EXPECT_EQ(RefractedColor(w, this->Prepare(tir, 1, inside), RecursionBudget{}, this->context_),
              kBlack);
  }
  World<P> w = this->DefaultWorld();
  ChangeMaterial<P>(w.object(0), [](Material& m) {
    m.ambient = 1.0;
    m.pattern = PatternSpec::Test();
  });
  ChangeMaterial<P>(w.object(1), [](Material& m) {
    m.transparency = 1.0;
    m.refractive_index = 1.5;
  });
  const Shape<P>* a = &w.object(0);
  const Shape<P>* b = &w.object(1);
  const auto ray = this->MakeRay(0, 0, 0.1, 0, 1, 0);
  const IntersectionList<P> xs = {{-0.9899, a}, {-0.4899, b}, {0.4899, b}, {0.9899, a}};
  EXPECT_COLOR(RefractedColor(w, this->Prepare(xs, 2, ray), RecursionBudget{}, this->context_), 0,
               0.99888, 0.04725);
}

// 38
TYPED_TEST(ShadingTest, ShadeHitWithTransparencyAndReflection) {
  using P = TypeParam;
  for (bool reflective : {false, true}) {
    World<P> w = this->DefaultWorld();
    auto floor = std::make_unique<Plane<P>>();
    floor->SetTransform(Translation(0, -1, 0));
    Material fm;
    fm.transparency = 0.5;
    fm.refractive_index = 1.5;
    if (reflective) fm.reflective = 0.5;
    floor->SetMaterial(fm);
    const Shape<P>* f = w.AddObject(std::move(floor));
    auto ball = std::make_unique<Sphere<P>>();
    Material bm;
    bm.color = {1, 0, 0};
    bm.ambient = 0.5;
    ball->SetMaterial(bm);
    ball->SetTransform(Translation(0, -3.5, -0.5));
    w.AddObject(std::move(ball));
    const auto ray = this->MakeRay(0, 0, -3, 0, -kHalfRoot2, kHalfRoot2);
    const IntersectionList<P> xs = {{std::sqrt(2.0), f}};
    const Color c = ShadeHit(w, this->Prepare(xs, 0, ray), RecursionBudget{}, this->context_);
    if (reflective) {
      EXPECT_COLOR(c, 0.93391, 0.69643, 0.69243);
    } else {
      EXPECT_COLOR(c, 0.93642, 0.68642, 0.68642);
    }
  }
}

// 39
TYPED_TEST(ShadingTest, Schlick) {
  using P = TypeParam;
  auto s = this->GlassSphere();
  {
    const auto ray = this->MakeRay(0, 0, kHalfRoot2, 0, 1, 0);
    const IntersectionList<P> xs = {{-kHalfRoot2, s.get()}, {kHalfRoot2, s.get()}};
    EXPECT_EQ(Schlick(this->Prepare(xs, 1, ray)), 1.0);
  }
  {
    const auto ray = this->MakeRay(0, 0, 0, 0, 1, 0);
    const IntersectionList<P> xs = {{-1, s.get()}, {1, s.get()}};
    EXPECT_NEAR(Schlick(this->Prepare(xs, 1, ray)), 0.04, kBookEpsilon);
  }
  const auto ray = this->MakeRay(0, 0.99, -2, 0, 0, 1);
  const IntersectionList<P> xs = {{1.8589, s.get()}};
  EXPECT_NEAR(Schlick(this->Prepare(xs, 0, ray)), 0.48873, kBookEpsilon);
}

// 40
TYPED_TEST(ShadingTest, Camera) {
  using P = TypeParam;
  EXPECT_NEAR(Camera<P>(200, 125, kPi / 2).pixel_size(), 0.01, kBookEpsilon);
  EXPECT_NEAR(Camera<P>(125, 200, kPi / 2).pixel_size(), 0.01, kBookEpsilon);
  Camera<P> c(201, 101, kPi / 2);
  const auto centre = c.RayForPixel(100, 50);
  EXPECT_POINT(centre.origin, 0, 0, 0);
  EXPECT_VECTOR(centre.direction, 0, 0, -1);
  EXPECT_VECTOR(c.RayForPixel(0, 0).direction, 0.66519, 0.33259, -0.66851);
  c.SetTransform(RotationY(kPi / 4) * Translation(0, -2, 5));
  const auto moved = c.RayForPixel(100, 50);
  EXPECT_POINT(moved.origin, 0, 2, -5);
  EXPECT_VECTOR(moved.direction, kHalfRoot2, 0, -kHalfRoot2);
}

// 41
TYPED_TEST(ShadingTest, RenderDefaultWorld) {
  using P = TypeParam;
  SceneRenderer<P> renderer(DefaultWorldScene(false), 11, 11);
  Canvas canvas(11, 11);
  renderer.Render({}, canvas);
  EXPECT_COLOR(canvas.At(5, 5), 0.38066, 0.47583, 0.2855);
}

}  // namespace
}  // namespace benchprof::raytracer
