// World builder: turns a SceneDescription into one renderer's World and
// Camera, in that renderer's math types.
//
// Example:
//   World<CachedPolicy> world = BuildWorld<CachedPolicy>(DefaultWorldScene(false));
//   Camera<CachedPolicy> camera = BuildCamera<CachedPolicy>(scene.camera, 11, 11);
//
// Thread-safety: thread-safe (builds new objects from its arguments).
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_WORLD_BUILDER_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_WORLD_BUILDER_H_

#include <memory>

#include "raytracer/camera.h"
#include "raytracer/cube.h"
#include "raytracer/cylinder.h"
#include "raytracer/group.h"
#include "raytracer/plane.h"
#include "raytracer/scene.h"
#include "raytracer/sphere.h"
#include "raytracer/world.h"

namespace benchprof::raytracer {

// One shape (with its children, for a group) from its description.
template <class P>
std::unique_ptr<Shape<P>> BuildShape(const ShapeSpec& spec) {
  std::unique_ptr<Shape<P>> shape;
  switch (spec.kind) {
    case ShapeSpec::Kind::kSphere:
      shape = std::make_unique<Sphere<P>>();
      break;
    case ShapeSpec::Kind::kPlane:
      shape = std::make_unique<Plane<P>>();
      break;
    case ShapeSpec::Kind::kCube:
      shape = std::make_unique<Cube<P>>();
      break;
    case ShapeSpec::Kind::kCylinder:
      shape = std::make_unique<Cylinder<P>>(spec.minimum, spec.maximum, spec.closed);
      break;
    case ShapeSpec::Kind::kGroup: {
      auto group = std::make_unique<Group<P>>();
      for (const ShapeSpec& child : spec.children) group->AddChild(BuildShape<P>(child));
      shape = std::move(group);
      break;
    }
  }
  shape->SetTransform(spec.transform);
  shape->SetMaterial(spec.material);
  shape->set_casts_shadow(spec.casts_shadow);
  return shape;
}

template <class P>
World<P> BuildWorld(const SceneDescription& scene) {
  World<P> world;
  world.set_options(scene.options);
  for (const LightSpec& light : scene.lights) {
    const Tuple& p = light.position;
    world.AddLight({P::Math::Point(p.x(), p.y(), p.z()), light.intensity});
  }
  for (const ShapeSpec& spec : scene.shapes) world.AddObject(BuildShape<P>(spec));
  return world;
}

// The scene's camera drawing a width x height canvas.
template <class P>
Camera<P> BuildCamera(const CameraSpec& spec, int width, int height) {
  Camera<P> camera(width, height, spec.field_of_view);
  camera.SetTransform(spec.transform);
  return camera;
}

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_WORLD_BUILDER_H_
