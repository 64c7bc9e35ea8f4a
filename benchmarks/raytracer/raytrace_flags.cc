#include "raytracer/raytrace_flags.h"

#include <string_view>

#include "cli/workload_flags.h"
#include "raytracer/image_writer.h"
#include "raytracer/scenes.h"

namespace benchprof::raytracer {

std::optional<RaytraceFlags> ParseRaytraceFlags(std::span<const char* const> args,
                                                std::string* error) {
  RaytraceFlags flags;
  bool threads_given = false;
  workload::WorkloadFlagReader reader(
      args, {"help", "h", "faithful"},
      {"scene", "impl", "schedule", "threads", "width", "height", "out"});
  workload::WorkloadFlag flag;
  error->clear();
  while (reader.Next(&flag, error)) {
    const std::string_view name = flag.name;
    const std::string_view value = flag.value;
    if (name == "help" || name == "h") {
      flags.help = value == "true";
    } else if (name == "faithful") {
      flags.faithful = value == "true";
    } else if (name == "scene") {
      if (!SceneByName(value, false)) {
        *error = workload::UnknownChoice(flag, "scene", kSceneNames);
        return std::nullopt;
      }
      flags.scene = value;
    } else if (name == "impl") {
      const std::optional<Implementation> impl = ParseImplementation(value);
      if (!impl) {
        *error = workload::UnknownChoice(flag, "implementation", kImplementationNames);
        return std::nullopt;
      }
      flags.implementation = *impl;
    } else if (name == "schedule") {
      const std::optional<Schedule> schedule = ParseSchedule(value);
      if (!schedule) {
        *error = workload::UnknownChoice(flag, "schedule", kScheduleNames);
        return std::nullopt;
      }
      flags.schedule = *schedule;
    } else if (name == "threads") {
      const std::optional<int64_t> n = workload::ParseWholeNumber(flag, 1, kMaxThreads, error);
      if (!n) return std::nullopt;
      flags.threads = static_cast<int>(*n);
      threads_given = true;
    } else if (name == "width" || name == "height") {
      const std::optional<int64_t> n = workload::ParseWholeNumber(flag, 1, kMaxImageSide, error);
      if (!n) return std::nullopt;
      (name == "width" ? flags.width : flags.height) = static_cast<int>(*n);
    } else if (name == "out") {
      if (value.empty() || !FormatForPath(value)) {
        *error = flag.display + ": '" + std::string(value) + "' must end in .png or .ppm";
        return std::nullopt;
      }
      flags.out = value;
    }
  }
  if (!error->empty()) return std::nullopt;
  if (threads_given && flags.schedule == Schedule::kSingle && flags.threads != 1) {
    *error =
        "--threads=" + std::to_string(flags.threads) + " needs --schedule=pixel or --schedule=line";
    return std::nullopt;
  }
  return flags;
}

std::string RaytraceUsage() {
  return "Usage: raytrace [flags]\n"
         "\n"
         "Renders a scene of \"The Ray Tracer Challenge\" with one of three implementations\n"
         "and prints the elapsed time and the allocations made while rendering.\n"
         "\n"
         "  --scene=NAME      " +
         std::string(kSceneNames) + " (default reference)\n" + "  --impl=NAME       " +
         std::string(kImplementationNames) + " (default optimized)\n" + "  --schedule=NAME   " +
         std::string(kScheduleNames) +
         " (default line): one thread, or a worker\n"
         "                    pool fed one job per pixel or per line\n"
         "  --threads=N       workers of the pixel and line schedules (default: the\n"
         "                    hardware's thread count)\n"
         "  --width=N         image width (default: the scene's)\n"
         "  --height=N        image height (default: the scene's)\n"
         "  --faithful        reproduce the Go original's quirks (epsilon 0.001, unit\n"
         "                    ceiling checkers, swapped refraction budgets, shadow flags\n"
         "                    on top-level objects only)\n"
         "  --out=FILE        write the image to FILE (.png or .ppm)\n"
         "  --help            print this help\n"
         "\n"
         "Exit codes: 0 success, 1 the image could not be written, 2 bad command line.\n";
}

}  // namespace benchprof::raytracer
