// PNG writer: a canvas as an 8-bit RGB PNG, encoded with libpng.
//
// Example:
//   std::string error;
//   if (!WritePng(canvas, file, &error)) Fail(error);
//
// Thread-safety: thread-safe (libpng state is per call).
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_PNG_WRITER_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_PNG_WRITER_H_

#include <cstdio>
#include <string>

#include "raytracer/canvas.h"

namespace benchprof::raytracer {

// Writes `canvas` (ToByte() of each channel) to `out`. On failure returns
// false and sets `*error` to libpng's message; `out` then holds a partial
// image.
bool WritePng(const Canvas& canvas, std::FILE* out, std::string* error);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_PNG_WRITER_H_
