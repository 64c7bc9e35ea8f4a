// Image writer: saves a canvas to a file whose extension picks the format
// (.png through libpng, .ppm as binary PPM), atomically: the image goes to a
// temporary file beside the destination, which is renamed over it only once
// complete, so a failed write never leaves a half-written image.
//
// Example:
//   std::string error;
//   if (!WriteImageFile(canvas, "out.png", &error)) std::cerr << error << "\n";
//
// Thread-safety: thread-safe for distinct paths.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_IMAGE_WRITER_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_IMAGE_WRITER_H_

#include <optional>
#include <string>
#include <string_view>

#include "raytracer/canvas.h"

namespace benchprof::raytracer {

enum class ImageFormat { kPng, kPpm };

// The format for `path`'s extension (case-sensitive ".png" or ".ppm").
std::optional<ImageFormat> FormatForPath(std::string_view path);

// Writes `canvas` to `path`. On failure returns false and sets `*error` to
// one line naming the path and the problem.
bool WriteImageFile(const Canvas& canvas, const std::string& path, std::string* error);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_IMAGE_WRITER_H_
