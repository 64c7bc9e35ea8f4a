#include "raytracer/image_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "benchprof/files.h"
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
  // A temporary file beside `path`, removed on failure and on SIGINT.
  return WriteFileAtomically(
      path,
      [&](std::FILE* out, std::string* why) {
        if (*format == ImageFormat::kPng) return WritePng(canvas, out, why);
        const std::string ppm = EncodePpm(canvas);
        if (std::fwrite(ppm.data(), 1, ppm.size(), out) == ppm.size()) return true;
        *why = std::strerror(errno);
        return false;
      },
      error);
}

}  // namespace benchprof::raytracer
