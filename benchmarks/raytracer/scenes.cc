#include "raytracer/scenes.h"

#include <utility>

#include "raytracer/transform.h"

namespace benchprof::raytracer {
namespace {

using Kind = ShapeSpec::Kind;

ShapeSpec MakeShape(Kind kind, std::string name, const Matrix& transform,
                    const Material& material) {
  ShapeSpec shape;
  shape.kind = kind;
  shape.name = std::move(name);
  shape.transform = transform;
  shape.material = material;
  return shape;
}

// rt's material constructor order: (color, ambient, diffuse, specular,
// shininess, reflective); the rest keep the book's defaults.
Material MakeMaterial(const Color& color, double ambient, double diffuse, double specular,
                      double shininess, double reflective = 0) {
  Material m;
  m.color = color;
  m.ambient = ambient;
  m.diffuse = diffuse;
  m.specular = specular;
  m.shininess = shininess;
  m.reflective = reflective;
  return m;
}

Matrix Uniform(double s) { return Scaling(s, s, s); }

RenderOptions OptionsFor(bool faithful) { return faithful ? FaithfulOptions() : RenderOptions{}; }

}  // namespace

SceneDescription ReferenceScene(bool faithful) {
  SceneDescription scene;
  scene.name = "reference";
  scene.options = OptionsFor(faithful);
  scene.camera = {640, 480, kPi / 3,
                  ViewTransform(Point(-2, 2.0, -4), Point(0, 0.5, 0), Vector(0, 1, 0))};
  scene.lights.push_back({Point(-5, 2.5, -3), kWhite});

  Material floor = MakeMaterial({1, 0.5, 0.5}, 0.1, 0.9, 0.7, 240, 0.2);
  floor.pattern = PatternSpec::Checkers(kWhite, kBlack, Uniform(2));
  scene.shapes.push_back(MakeShape(Kind::kPlane, "floor", Translation(0, 0.01, 0), floor));

  // Shared by the ceiling and the wall. rt never refreshed the inverse after
  // setting scale(0.2), so faithful renders use unit checkers.
  const PatternSpec ceiling_checkers = PatternSpec::Checkers(
      {0.85, 0.85, 0.85}, kWhite, faithful ? Matrix::Identity() : Uniform(0.2));
  Material ceiling;
  ceiling.ambient = 0.5;
  ceiling.specular = 0;
  ceiling.pattern = ceiling_checkers;
  scene.shapes.push_back(MakeShape(Kind::kPlane, "ceiling", Translation(0, 5, 0), ceiling));

  Material wall = MakeMaterial({0.9, 0.9, 0.9}, 0.1, 0.9, 0.7, 200);
  wall.pattern = ceiling_checkers;
  scene.shapes.push_back(
      MakeShape(Kind::kPlane, "wall", Translation(0, 0, 8) * RotationX(kPi / 2), wall));

  Material glass = MakeMaterial({0.8, 0.8, 0.9}, 0, 0.2, 0.9, 300, 0.3);
  glass.transparency = 1.0;
  glass.refractive_index = 1.57;
  scene.shapes.push_back(MakeShape(Kind::kSphere, "glass sphere",
                                   Translation(-0.5, 0.75, 0.5) * Uniform(0.75), glass));

  scene.shapes.push_back(MakeShape(Kind::kSphere, "red sphere",
                                   Translation(-0.75, 0.5, 2) * Uniform(0.5),
                                   MakeMaterial({1, 0, 0}, 0.1, 0.7, 0.9, 200, 0)));

  ShapeSpec cylinder =
      MakeShape(Kind::kCylinder, "cylinder", Translation(1, 0, -1) * Scaling(0.2, 0.4, 0.2),
                MakeMaterial({1, 0.88, 0.63}, 0.1, 0.3, 0.9, 300, 0.3));
  cylinder.minimum = 0;
  cylinder.maximum = 3;
  cylinder.closed = true;
  scene.shapes.push_back(std::move(cylinder));

  ShapeSpec group = MakeShape(Kind::kGroup, "small spheres", RotationY(0.67), Material{});
  const Color colors[3] = {{1, 0.1, 0.1}, {0.1, 1, 0.1}, {0.1, 0.1, 1}};
  for (int i = 0; i < 3; ++i) {
    ShapeSpec sphere =
        MakeShape(Kind::kSphere, "small sphere", Translation(-2.0 + i, 0.25, -1) * Uniform(0.25),
                  MakeMaterial(colors[i], 0.1, 0.5, 0.8, 220, 0.4));
    sphere.casts_shadow = i != 1;  // the green one
    group.children.push_back(std::move(sphere));
  }
  scene.shapes.push_back(std::move(group));
  return scene;
}

// Fields the research notes do not give keep the book's defaults.
SceneDescription December2019Scene(bool faithful) {
  SceneDescription scene;
  scene.name = "dec2019";
  scene.options = OptionsFor(faithful);
  scene.camera = {640, 480, kPi / 3,
                  ViewTransform(Point(-2, 1.0, -4), Point(0, 0.5, 0), Vector(0, 1, 0))};
  scene.lights.push_back({Point(-3, 2.5, -3), kWhite});

  Material floor;
  floor.shininess = 240;
  floor.reflective = 0.1;
  floor.pattern = PatternSpec::Checkers(kWhite, kBlack, Uniform(0.5));
  scene.shapes.push_back(MakeShape(Kind::kPlane, "floor", Matrix::Identity(), floor));

  scene.shapes.push_back(
      MakeShape(Kind::kPlane, "wall", Translation(0, 0, 8) * RotationX(kPi / 2), Material{}));

  Material glass;
  glass.color = {0.1, 0.1, 0.1};
  glass.diffuse = 0.7;
  glass.specular = 0.6;
  glass.transparency = 0.95;
  glass.refractive_index = 1.5;
  glass.reflective = 0.3;
  scene.shapes.push_back(
      MakeShape(Kind::kSphere, "glass sphere", Translation(-0.5, 1, 0.5), glass));

  Material red;
  red.color = {1, 0, 0};
  red.diffuse = 0.7;
  red.specular = 0.3;
  red.reflective = 0.3;
  scene.shapes.push_back(
      MakeShape(Kind::kSphere, "red sphere", Translation(-0.75, 0.5, 2.5) * Uniform(0.5), red));

  Material cube;
  cube.color = {1, 0.6, 0.2};
  scene.shapes.push_back(
      MakeShape(Kind::kCube, "cube", Translation(-1.6, 0.25, 1.5) * Uniform(0.25), cube));

  Material purple;
  purple.color = {0.7, 0.5, 1};
  purple.reflective = 0.6;
  ShapeSpec cylinder =
      MakeShape(Kind::kCylinder, "cylinder", Translation(-1.6, 0.5, 1.5) * Uniform(0.2), purple);
  cylinder.minimum = 0;
  cylinder.maximum = 3;
  cylinder.closed = true;
  scene.shapes.push_back(std::move(cylinder));

  ShapeSpec group = MakeShape(Kind::kGroup, "small spheres", Matrix::Identity(), Material{});
  const Color colors[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.6, 0.6, 0.6}};
  for (int i = 0; i < 4; ++i) {
    group.children.push_back(MakeShape(Kind::kSphere, "small sphere",
                                       Translation(-2.0 + i, 0.25, -1) * Uniform(0.25),
                                       MakeMaterial(colors[i], 0.1, 0.5, 0.8, 220, 0.4)));
  }
  scene.shapes.push_back(std::move(group));
  return scene;
}

SceneDescription DefaultWorldScene(bool faithful) {
  SceneDescription scene;
  scene.name = "default-world";
  scene.options = OptionsFor(faithful);
  scene.camera = {11, 11, kPi / 2, ViewTransform(Point(0, 0, -5), Point(0, 0, 0), Vector(0, 1, 0))};
  scene.lights.push_back({Point(-10, 10, -10), kWhite});
  Material outer;
  outer.color = {0.8, 1.0, 0.6};
  outer.diffuse = 0.7;
  outer.specular = 0.2;
  scene.shapes.push_back(MakeShape(Kind::kSphere, "outer", Matrix::Identity(), outer));
  scene.shapes.push_back(MakeShape(Kind::kSphere, "inner", Uniform(0.5), Material{}));
  return scene;
}

std::optional<SceneDescription> SceneByName(std::string_view name, bool faithful) {
  if (name == "reference") return ReferenceScene(faithful);
  if (name == "dec2019") return December2019Scene(faithful);
  if (name == "default-world") return DefaultWorldScene(faithful);
  return std::nullopt;
}

}  // namespace benchprof::raytracer
