// Camera: maps pixels of an hsize x vsize canvas to rays, the book's way: a
// canvas one unit in front of the eye, `field_of_view` across its longer
// side, and a view transform that places the eye in the world.
//
// Example:
//   Camera<OptimizedPolicy> camera(201, 101, kPi / 2);
//   auto ray = camera.RayForPixel(100, 50);  // origin (0,0,0), direction (0,0,-1)
//
// Thread-safety: thread-compatible; RayForPixel may run concurrently.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_CAMERA_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_CAMERA_H_

#include <cmath>
#include <utility>

#include "raytracer/matrix.h"
#include "raytracer/ray.h"
#include "raytracer/transform_cache.h"

namespace benchprof::raytracer {

template <class P>
class Camera {
 public:
  using Math = typename P::Math;
  using Tuple = typename Math::Tuple;

  Camera(int hsize, int vsize, double field_of_view)
      : hsize_(hsize), vsize_(vsize), field_of_view_(field_of_view) {
    const double half_view = std::tan(field_of_view / 2);
    const double aspect = static_cast<double>(hsize) / vsize;
    if (aspect >= 1) {
      half_width_ = half_view;
      half_height_ = half_view / aspect;
    } else {
      half_width_ = half_view * aspect;
      half_height_ = half_view;
    }
    pixel_size_ = half_width_ * 2 / hsize;
  }

  int hsize() const { return hsize_; }
  int vsize() const { return vsize_; }
  double field_of_view() const { return field_of_view_; }
  double pixel_size() const { return pixel_size_; }

  // The world-to-camera transform (a ViewTransform); the identity by default.
  void SetTransform(const Matrix& transform) { transform_.Set(transform); }

  // The ray from the eye through the centre of pixel (px, py).
  Ray<Tuple> RayForPixel(int px, int py) const {
    const double x_offset = (px + 0.5) * pixel_size_;
    const double y_offset = (py + 0.5) * pixel_size_;
    const double world_x = half_width_ - x_offset;
    const double world_y = half_height_ - y_offset;
    decltype(auto) inverse = transform_.InverseMatrix();
    const Tuple pixel = inverse * Math::Point(world_x, world_y, -1);
    Tuple origin = inverse * Math::Point(0, 0, 0);
    Tuple direction = Normalize(pixel - origin);
    return {std::move(origin), std::move(direction)};
  }

 private:
  int hsize_;
  int vsize_;
  double field_of_view_;
  double half_width_ = 0;
  double half_height_ = 0;
  double pixel_size_ = 0;
  TransformCache<P> transform_;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_CAMERA_H_
