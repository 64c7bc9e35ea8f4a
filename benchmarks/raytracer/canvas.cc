#include "raytracer/canvas.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace benchprof::raytracer {

Canvas::Canvas(int width, int height)
    : width_(width),
      height_(height),
      pixels_(static_cast<size_t>(width) * static_cast<size_t>(height), kBlack) {}

uint8_t ToByte(double channel) {
  // NaN compares false everywhere; it becomes 0 rather than undefined behaviour.
  if (!(channel > 0)) return 0;
  if (channel >= 1) return 255;
  return static_cast<uint8_t>(std::lround(channel * 255));
}

int MaxByteDifference(const Canvas& a, const Canvas& b) {
  int worst = 0;
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) {
      const Color& p = a.At(x, y);
      const Color& q = b.At(x, y);
      worst = std::max({worst, std::abs(ToByte(p.r) - ToByte(q.r)),
                        std::abs(ToByte(p.g) - ToByte(q.g)), std::abs(ToByte(p.b) - ToByte(q.b))});
    }
  }
  return worst;
}

}  // namespace benchprof::raytracer
