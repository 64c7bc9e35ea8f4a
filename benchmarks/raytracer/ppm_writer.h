// PPM writer: a canvas as a binary PPM (P6) image, 8 bits per channel.
//
// Example:
//   std::string ppm = EncodePpm(canvas);  // "P6\n640 480\n255\n" + pixels
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_PPM_WRITER_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_PPM_WRITER_H_

#include <string>

#include "raytracer/canvas.h"

namespace benchprof::raytracer {

// The header, then rows top to bottom of RGB bytes (ToByte() of each channel).
std::string EncodePpm(const Canvas& canvas);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_PPM_WRITER_H_
