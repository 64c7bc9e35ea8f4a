// The raytrace CLI's command line: flags, defaults, validation, help and
// exit codes, in the convention of every benchprof program
// (<benchprof/flags.h>).
//
//   raytrace --scene=reference --impl=optimized --schedule=line --threads=2
//            --width=640 --height=480 --faithful --out=image.png
//
// Every flag takes `--name=value`, `--name value` or Go's single dash. A bad
// command line gets one line naming the argument and the problem.
//
// Example:
//   std::string error;
//   std::optional<RaytraceFlags> flags = ParseRaytraceFlags(args, &error);
//   if (!flags) { std::cerr << "raytrace: " << error << "\n"; return kExitUsage; }
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_RAYTRACE_FLAGS_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_RAYTRACE_FLAGS_H_

#include <optional>
#include <span>
#include <string>

#include "benchprof/flags.h"
#include "raytracer/renderer.h"
#include "raytracer/scheduler.h"

namespace benchprof::raytracer {

struct RaytraceFlags {
  std::string scene = "reference";
  Implementation implementation = Implementation::kOptimized;
  Schedule schedule = Schedule::kLine;
  int threads = 0;  // 0: DefaultThreadCount() for the pool schedules
  int width = 0;    // 0: the scene's
  int height = 0;   // 0: the scene's
  bool faithful = false;
  std::string out;  // empty: no image is written
  bool help = false;
};

// The largest accepted --width, --height and --threads.
inline constexpr int kMaxImageSide = 16384;
inline constexpr int kMaxThreads = 1024;

// The exit codes, as --help lists them.
inline constexpr int kExitWriteFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr ExitCodeInfo kRaytraceExitCodes[] = {
    {0, "success"},
    {kExitWriteFailed, "the image could not be written"},
    {kExitUsage, "bad command line"},
};

// Parses the arguments after the program name. On a bad command line returns
// nothing and sets `*error` to one line (no program name, no newline).
std::optional<RaytraceFlags> ParseRaytraceFlags(std::span<const char* const> args,
                                                std::string* error);

// The --help text.
std::string RaytraceUsage();

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_RAYTRACE_FLAGS_H_
