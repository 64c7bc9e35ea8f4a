#include "raytracer/ppm_writer.h"

namespace benchprof::raytracer {

std::string EncodePpm(const Canvas& canvas) {
  std::string out =
      "P6\n" + std::to_string(canvas.width()) + " " + std::to_string(canvas.height()) + "\n255\n";
  out.reserve(out.size() + static_cast<size_t>(canvas.width()) * canvas.height() * 3);
  for (int y = 0; y < canvas.height(); ++y) {
    for (int x = 0; x < canvas.width(); ++x) {
      const Color& c = canvas.At(x, y);
      out.push_back(static_cast<char>(ToByte(c.r)));
      out.push_back(static_cast<char>(ToByte(c.g)));
      out.push_back(static_cast<char>(ToByte(c.b)));
    }
  }
  return out;
}

}  // namespace benchprof::raytracer
