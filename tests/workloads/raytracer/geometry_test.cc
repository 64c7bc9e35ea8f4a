// The book's ray, shape, intersection, normal, group and pattern vectors
// (workloads.md §4.5, groups 22-26 and 42-45), run against all three
// renderer policies.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "raytracer/cube.h"
#include "raytracer/cylinder.h"
#include "raytracer/group.h"
#include "raytracer/intersection.h"
#include "raytracer/pattern.h"
#include "raytracer/plane.h"
#include "raytracer/ray.h"
#include "raytracer/sphere.h"
#include "raytracer/transform.h"
#include "raytracer_test_util.h"

namespace benchprof::raytracer {
namespace {

template <class P>
class GeometryTest : public ::testing::Test {
 protected:
  using RayT = Ray<typename P::Math::Tuple>;

  static RayT MakeRay(double ox, double oy, double oz, double dx, double dy, double dz) {
    return {P::Math::Point(ox, oy, oz), P::Math::Vector(dx, dy, dz)};
  }

  // The t values of `shape`'s intersections with the ray, in the shape's order.
  static std::vector<double> Ts(const Shape<P>& shape, const RayT& ray, bool local = false) {
    IntersectionList<P> xs;
    if (local) {
      shape.LocalIntersect(ray, xs);
    } else {
      shape.Intersect(ray, xs);
    }
    std::vector<double> ts;
    for (const auto& x : xs) ts.push_back(x.t);
    return ts;
  }
};
TYPED_TEST_SUITE(GeometryTest, Policies, TypeNames);

#define EXPECT_TS(actual, ...)                                          \
  do {                                                                  \
    const std::vector<double> want_ = {__VA_ARGS__};                    \
    const std::vector<double> got_ = (actual);                          \
    ASSERT_EQ(got_.size(), want_.size());                               \
    for (size_t i_ = 0; i_ < want_.size(); ++i_) {                      \
      EXPECT_NEAR(got_[i_], want_[i_], kBookEpsilon) << "index " << i_; \
    }                                                                   \
  } while (false)

// 22
TYPED_TEST(GeometryTest, RayPositionAndTransform) {
  using Math = typename TypeParam::Math;
  const auto r = TestFixture::MakeRay(2, 3, 4, 1, 0, 0);
  EXPECT_POINT(Position(r, 0), 2, 3, 4);
  EXPECT_POINT(Position(r, 1), 3, 3, 4);
  EXPECT_POINT(Position(r, -1), 1, 3, 4);
  EXPECT_POINT(Position(r, 2.5), 4.5, 3, 4);
  const auto s = TestFixture::MakeRay(1, 2, 3, 0, 1, 0);
  const auto moved = Transform(s, Math::FromMatrix(Translation(3, 4, 5)));
  EXPECT_POINT(moved.origin, 4, 6, 8);
  EXPECT_VECTOR(moved.direction, 0, 1, 0);
  const auto scaled = Transform(s, Math::FromMatrix(Scaling(2, 3, 4)));
  EXPECT_POINT(scaled.origin, 2, 6, 12);
  EXPECT_VECTOR(scaled.direction, 0, 3, 0);
}

// 23
TYPED_TEST(GeometryTest, SphereIntersections) {
  Sphere<TypeParam> s;
  EXPECT_TS(this->Ts(s, this->MakeRay(0, 0, -5, 0, 0, 1)), 4, 6);
  EXPECT_TS(this->Ts(s, this->MakeRay(0, 1, -5, 0, 0, 1)), 5, 5);
  EXPECT_TS(this->Ts(s, this->MakeRay(0, 2, -5, 0, 0, 1)));
  EXPECT_TS(this->Ts(s, this->MakeRay(0, 0, 0, 0, 0, 1)), -1, 1);
  EXPECT_TS(this->Ts(s, this->MakeRay(0, 0, 5, 0, 0, 1)), -6, -4);
  s.SetTransform(Scaling(2, 2, 2));
  EXPECT_TS(this->Ts(s, this->MakeRay(0, 0, -5, 0, 0, 1)), 3, 7);
  s.SetTransform(Translation(5, 0, 0));
  EXPECT_TS(this->Ts(s, this->MakeRay(0, 0, -5, 0, 0, 1)));
  IntersectionList<TypeParam> xs;
  s.SetTransform(Matrix::Identity());
  s.Intersect(this->MakeRay(0, 0, -5, 0, 0, 1), xs);
  ASSERT_EQ(xs.size(), 2u);
  EXPECT_EQ(xs[0].object, &s);
}

// 24
TYPED_TEST(GeometryTest, Hit) {
  Sphere<TypeParam> s;
  auto hit = [&](std::vector<double> ts) -> std::optional<double> {
    IntersectionList<TypeParam> xs;
    for (double t : ts) xs.push_back({t, &s});
    const auto h = FindHit<TypeParam>(xs);
    if (!h) return std::nullopt;
    return h->t;
  };
  EXPECT_EQ(hit({1, 2}), 1);
  EXPECT_EQ(hit({-1, 1}), 1);
  EXPECT_EQ(hit({-2, -1}), std::nullopt);
  EXPECT_EQ(hit({5, 7, -3, 2}), 2);
}

TYPED_TEST(GeometryTest, SortIsStableByT) {
  Sphere<TypeParam> a;
  Sphere<TypeParam> b;
  IntersectionList<TypeParam> xs = {{3, &a}, {1, &b}, {3, &b}, {1, &a}, {-2, &a}};
  SortIntersections<TypeParam>(xs);
  ASSERT_EQ(xs.size(), 5u);
  EXPECT_EQ(xs[0].t, -2);
  EXPECT_EQ(xs[1].object, &b);
  EXPECT_EQ(xs[2].object, &a);
  EXPECT_EQ(xs[3].object, &a);
  EXPECT_EQ(xs[4].object, &b);
  const auto h = FindHit<TypeParam>(xs);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->object, &b);
}

// 25
TYPED_TEST(GeometryTest, SphereNormals) {
  using Math = typename TypeParam::Math;
  Sphere<TypeParam> s;
  EXPECT_VECTOR(s.NormalAt(Math::Point(1, 0, 0)), 1, 0, 0);
  const double t = std::sqrt(3.0) / 3;
  EXPECT_VECTOR(s.NormalAt(Math::Point(t, t, t)), t, t, t);
  s.SetTransform(Translation(0, 1, 0));
  EXPECT_VECTOR(s.NormalAt(Math::Point(0, 1.70711, -0.70711)), 0, 0.70711, -0.70711);
  s.SetTransform(Scaling(1, 0.5, 1) * RotationZ(kPi / 5));
  const double h = std::sqrt(2.0) / 2;
  EXPECT_VECTOR(s.NormalAt(Math::Point(0, h, -h)), 0, 0.97014, -0.24254);
}

// 26
TYPED_TEST(GeometryTest, GroupsTransformPointsAndNormals) {
  using Math = typename TypeParam::Math;
  auto g1 = std::make_unique<Group<TypeParam>>();
  g1->SetTransform(RotationY(kPi / 2));
  auto g2 = std::make_unique<Group<TypeParam>>();
  g2->SetTransform(Scaling(2, 2, 2));
  auto sphere = std::make_unique<Sphere<TypeParam>>();
  sphere->SetTransform(Translation(5, 0, 0));
  Shape<TypeParam>* s = g2->AddChild(std::move(sphere));
  g1->AddChild(std::move(g2));
  EXPECT_POINT(s->WorldToObject(Math::Point(-2, 0, -10)), 0, 0, -1);

  auto h1 = std::make_unique<Group<TypeParam>>();
  h1->SetTransform(RotationY(kPi / 2));
  auto h2 = std::make_unique<Group<TypeParam>>();
  h2->SetTransform(Scaling(1, 2, 3));
  auto sphere2 = std::make_unique<Sphere<TypeParam>>();
  sphere2->SetTransform(Translation(5, 0, 0));
  Shape<TypeParam>* s2 = h2->AddChild(std::move(sphere2));
  h1->AddChild(std::move(h2));
  const double t = std::sqrt(3.0) / 3;
  EXPECT_VECTOR(s2->NormalToWorld(Math::Vector(t, t, t)), 0.2857, 0.4286, -0.8571);
  EXPECT_VECTOR(s2->NormalAt(Math::Point(1.7321, 1.1547, -5.5774)), 0.2857, 0.4286, -0.8571);
}

TYPED_TEST(GeometryTest, GroupIntersectionsNameTheChildrenAndUseBounds) {
  Group<TypeParam> empty;
  EXPECT_TS(this->Ts(empty, this->MakeRay(0, 0, 0, 0, 0, 1), /*local=*/true));

  Group<TypeParam> g;
  auto s1 = std::make_unique<Sphere<TypeParam>>();
  auto s2 = std::make_unique<Sphere<TypeParam>>();
  s2->SetTransform(Translation(0, 0, -3));
  auto s3 = std::make_unique<Sphere<TypeParam>>();
  s3->SetTransform(Translation(5, 0, 0));
  const Shape<TypeParam>* p1 = g.AddChild(std::move(s1));
  const Shape<TypeParam>* p2 = g.AddChild(std::move(s2));
  g.AddChild(std::move(s3));
  EXPECT_EQ(p1->parent(), &g);
  IntersectionList<TypeParam> xs;
  g.LocalIntersect(this->MakeRay(0, 0, -5, 0, 0, 1), xs);
  SortIntersections<TypeParam>(xs);
  ASSERT_EQ(xs.size(), 4u);
  EXPECT_EQ(xs[0].object, p2);
  EXPECT_EQ(xs[1].object, p2);
  EXPECT_EQ(xs[2].object, p1);
  EXPECT_EQ(xs[3].object, p1);

  Group<TypeParam> scaled;
  scaled.SetTransform(Scaling(2, 2, 2));
  auto s4 = std::make_unique<Sphere<TypeParam>>();
  s4->SetTransform(Translation(5, 0, 0));
  scaled.AddChild(std::move(s4));
  EXPECT_EQ(this->Ts(scaled, this->MakeRay(10, 0, -10, 0, 0, 1)).size(), 2u);
  // Outside the box: the child is never asked.
  EXPECT_TRUE(this->Ts(scaled, this->MakeRay(10, 5, -10, 0, 0, 1)).empty());
  const Bounds b = scaled.LocalBounds();
  EXPECT_EQ(b.min()[0], 4);
  EXPECT_EQ(b.max()[0], 6);
}

// 42
TYPED_TEST(GeometryTest, Plane) {
  using Math = typename TypeParam::Math;
  Plane<TypeParam> p;
  EXPECT_VECTOR(p.LocalNormalAt(Math::Point(0, 0, 0)), 0, 1, 0);
  EXPECT_VECTOR(p.LocalNormalAt(Math::Point(10, 0, -10)), 0, 1, 0);
  EXPECT_VECTOR(p.LocalNormalAt(Math::Point(-5, 0, 150)), 0, 1, 0);
  EXPECT_TS(this->Ts(p, this->MakeRay(0, 10, 0, 0, 0, 1), true));
  EXPECT_TS(this->Ts(p, this->MakeRay(0, 0, 0, 0, 0, 1), true));
  EXPECT_TS(this->Ts(p, this->MakeRay(0, 1, 0, 0, -1, 0), true), 1);
  EXPECT_TS(this->Ts(p, this->MakeRay(0, -1, 0, 0, 1, 0), true), 1);
}

// 43
TYPED_TEST(GeometryTest, Cube) {
  using Math = typename TypeParam::Math;
  Cube<TypeParam> c;
  EXPECT_TS(this->Ts(c, this->MakeRay(5, 0.5, 0, -1, 0, 0), true), 4, 6);
  EXPECT_TS(this->Ts(c, this->MakeRay(-5, 0.5, 0, 1, 0, 0), true), 4, 6);
  EXPECT_TS(this->Ts(c, this->MakeRay(0.5, 5, 0, 0, -1, 0), true), 4, 6);
  EXPECT_TS(this->Ts(c, this->MakeRay(0.5, -5, 0, 0, 1, 0), true), 4, 6);
  EXPECT_TS(this->Ts(c, this->MakeRay(0.5, 0, 5, 0, 0, -1), true), 4, 6);
  EXPECT_TS(this->Ts(c, this->MakeRay(0.5, 0, -5, 0, 0, 1), true), 4, 6);
  EXPECT_TS(this->Ts(c, this->MakeRay(0, 0.5, 0, 0, 0, 1), true), -1, 1);
  EXPECT_TS(this->Ts(c, this->MakeRay(-2, 0, 0, 0.2673, 0.5345, 0.8018), true));
  EXPECT_TS(this->Ts(c, this->MakeRay(2, 0, 2, 0, 0, -1), true));
  EXPECT_VECTOR(c.LocalNormalAt(Math::Point(1, 0.5, -0.8)), 1, 0, 0);
  EXPECT_VECTOR(c.LocalNormalAt(Math::Point(-0.4, 0.3, -1)), 0, 0, -1);
  EXPECT_VECTOR(c.LocalNormalAt(Math::Point(1, 1, 1)), 1, 0, 0);
  EXPECT_VECTOR(c.LocalNormalAt(Math::Point(-1, -1, -1)), -1, 0, 0);
}

// 44
TYPED_TEST(GeometryTest, Cylinder) {
  using Math = typename TypeParam::Math;
  Cylinder<TypeParam> c;
  EXPECT_TS(this->Ts(c, this->MakeRay(1, 0, -5, 0, 0, 1), true), 5, 5);
  EXPECT_TS(this->Ts(c, this->MakeRay(0, 0, -5, 0, 0, 1), true), 4, 6);
  {
    const auto d = Normalize(Math::Vector(0.1, 1, 1));
    EXPECT_TS(this->Ts(c, {Math::Point(0.5, 0, -5), d}, true), 6.80798, 7.08872);
  }
  EXPECT_TS(this->Ts(c, this->MakeRay(1, 0, 0, 0, 1, 0), true));
  EXPECT_TS(this->Ts(c, this->MakeRay(0, 0, -5, 1, 1, 1), true));

  Cylinder<TypeParam> truncated(1, 2, false);
  auto count = [&](const Cylinder<TypeParam>& cyl, double ox, double oy, double oz, double dx,
                   double dy, double dz) {
    return this->Ts(cyl, {Math::Point(ox, oy, oz), Normalize(Math::Vector(dx, dy, dz))}, true)
        .size();
  };
  EXPECT_EQ(count(truncated, 0, 1.5, 0, 0.1, 1, 0), 0u);
  EXPECT_EQ(count(truncated, 0, 3, -5, 0, 0, 1), 0u);
  EXPECT_EQ(count(truncated, 0, 0, -5, 0, 0, 1), 0u);
  EXPECT_EQ(count(truncated, 0, 2, -5, 0, 0, 1), 0u);
  EXPECT_EQ(count(truncated, 0, 1, -5, 0, 0, 1), 0u);
  EXPECT_EQ(count(truncated, 0, 1.5, -2, 0, 0, 1), 2u);

  Cylinder<TypeParam> closed(1, 2, true);
  EXPECT_EQ(count(closed, 0, 3, 0, 0, -1, 0), 2u);
  EXPECT_EQ(count(closed, 0, 3, -2, 0, -1, 2), 2u);
  EXPECT_EQ(count(closed, 0, 4, -2, 0, -1, 1), 2u);
  EXPECT_EQ(count(closed, 0, 0, -2, 0, 1, 2), 2u);
  EXPECT_EQ(count(closed, 0, -1, -2, 0, 1, 1), 2u);

  EXPECT_VECTOR(c.LocalNormalAt(Math::Point(1, 0, 0)), 1, 0, 0);
  EXPECT_VECTOR(c.LocalNormalAt(Math::Point(0, 5, -1)), 0, 0, -1);
  EXPECT_VECTOR(closed.LocalNormalAt(Math::Point(0, 1, 0)), 0, -1, 0);
  EXPECT_VECTOR(closed.LocalNormalAt(Math::Point(0.5, 1, 0)), 0, -1, 0);
  EXPECT_VECTOR(closed.LocalNormalAt(Math::Point(0, 2, 0)), 0, 1, 0);
  EXPECT_VECTOR(closed.LocalNormalAt(Math::Point(0, 2, 0.5)), 0, 1, 0);
}

// 45
TYPED_TEST(GeometryTest, Checkers) {
  using Math = typename TypeParam::Math;
  const Pattern<TypeParam> p(PatternSpec::Checkers(kWhite, kBlack));
  EXPECT_EQ(p.ColorAt(Math::Point(0, 0, 0)), kWhite);
  EXPECT_EQ(p.ColorAt(Math::Point(0.99, 0, 0)), kWhite);
  EXPECT_EQ(p.ColorAt(Math::Point(1.01, 0, 0)), kBlack);
  EXPECT_EQ(p.ColorAt(Math::Point(0, 0.99, 0)), kWhite);
  EXPECT_EQ(p.ColorAt(Math::Point(0, 1.01, 0)), kBlack);
  EXPECT_EQ(p.ColorAt(Math::Point(0, 0, 0.99)), kWhite);
  EXPECT_EQ(p.ColorAt(Math::Point(0, 0, 1.01)), kBlack);
  EXPECT_EQ(p.ColorAt(Math::Point(-0.5, 0, 0)), kBlack);
  const Pattern<TypeParam> scaled(PatternSpec::Checkers(kWhite, kBlack, Scaling(2, 2, 2)));
  EXPECT_EQ(scaled.ColorAt(Math::Point(1.5, 0, 0)), kWhite);
  const Pattern<TypeParam> test(PatternSpec::Test(Translation(0.5, 1, 1.5)));
  EXPECT_COLOR(test.ColorAt(Math::Point(2.5, 3, 3.5)), 2, 2, 2);
}

}  // namespace
}  // namespace benchprof::raytracer
