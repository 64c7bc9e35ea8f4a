#include "raytracer/image_writer.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "raytracer/png_writer.h"
#include "raytracer/ppm_writer.h"

namespace benchprof::raytracer {

std::optional<ImageFormat> FormatForPath(std::string_view path) {
  if (path.ends_with(".png")) return ImageFormat::kPng;
  if (path.ends_with(".ppm")) return ImageFormat::kPpm;
  return std::nullopt;
}

bool WriteImageFile(const Canvas& canvas, const std::string& path, std::string* error) {
  const std::optional<ImageFormat> format = FormatForPath(path);
  if (!format) {
    *error = path + ": unknown image format (use .png or .ppm)";
    return false;
  }
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  std::FILE* out = std::fopen(temporary.c_str(), "wb");
  if (out == nullptr) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  bool ok = true;
  if (*format == ImageFormat::kPng) {
    std::string png_error;
    ok = WritePng(canvas, out, &png_error);
    if (!ok) *error = path + ": " + png_error;
  } else {
    const std::string ppm = EncodePpm(canvas);
    ok = std::fwrite(ppm.data(), 1, ppm.size(), out) == ppm.size();
    if (!ok) *error = path + ": " + std::strerror(errno);
  }
  if (std::fclose(out) != 0 && ok) {
    ok = false;
    *error = path + ": " + std::strerror(errno);
  }
  if (ok && std::rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    *error = path + ": " + std::strerror(errno);
  }
  if (!ok) std::remove(temporary.c_str());
  return ok;
}

}  // namespace benchprof::raytracer
