// Canvas: a width x height grid of unclamped colours, what a render writes.
// Image writers (png_writer.h, ppm_writer.h) clamp and quantise it.
//
// Example:
//   Canvas canvas(10, 20);
//   canvas.Set(2, 3, Color{1, 0, 0});
//   uint8_t red = ToByte(canvas.At(2, 3).r);  // 255
//
// Thread-safety: thread-compatible; different pixels may be written
// concurrently.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_CANVAS_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_CANVAS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "raytracer/color.h"

namespace benchprof::raytracer {

class Canvas {
 public:
  // A black canvas; both sizes must be positive.
  Canvas(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }

  const Color& At(int x, int y) const { return pixels_[Index(x, y)]; }
  void Set(int x, int y, const Color& color) { pixels_[Index(x, y)] = color; }

  friend bool operator==(const Canvas&, const Canvas&) = default;

 private:
  size_t Index(int x, int y) const {
    return static_cast<size_t>(y) * static_cast<size_t>(width_) + static_cast<size_t>(x);
  }

  int width_;
  int height_;
  std::vector<Color> pixels_;
};

// A colour channel as an 8-bit value: clamped to [0, 1], times 255, rounded.
uint8_t ToByte(double channel);

// The largest difference of any channel of any pixel between two canvases of
// the same size, in 8-bit steps after ToByte().
int MaxByteDifference(const Canvas& a, const Canvas& b);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_CANVAS_H_
