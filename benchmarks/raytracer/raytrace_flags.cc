#include "raytracer/raytrace_flags.h"

#include <string_view>

#include "raytracer/image_writer.h"
#include "raytracer/scenes.h"

namespace benchprof::raytracer {
namespace {

constexpr char kIntro[] =
    "Usage: raytrace [flags]\n"
    "\n"
    "Renders a scene of \"The Ray Tracer Challenge\" with one of three implementations\n"
    "and prints the elapsed time and the allocations made while rendering.\n"
    "\n";

// A flag whose value is one of `names` ("a, b, c"), stored by `parse`.
template <typename Value, typename Parse>
void DeclareNamed(FlagSet& flags, std::string_view name, std::string_view names, Parse parse,
                  Value* target, std::string_view help) {
  flags.Custom(
      name, "NAME",
      [=](std::string_view value) {
        const std::optional<Value> parsed = parse(value);
        if (!parsed) return "expected one of " + std::string(names);
        *target = *parsed;
        return std::string();
      },
      help);
}

// Declares raytrace's flags in `flags`, bound to `*settings`; the help lines
// are those docs/workloads.md documents.
void DeclareFlags(FlagSet& flags, RaytraceFlags* settings) {
  const std::string scene_help = std::string(kSceneNames) + " (default reference)";
  DeclareNamed(
      flags, "scene", kSceneNames,
      [](std::string_view value) -> std::optional<std::string> {
        if (!SceneByName(value, false)) return std::nullopt;
        return std::string(value);
      },
      &settings->scene, scene_help);
  const std::string impl_help = std::string(kImplementationNames) + " (default optimized)";
  DeclareNamed(flags, "impl", kImplementationNames, ParseImplementation, &settings->implementation,
               impl_help);
  const std::string schedule_help =
      std::string(kScheduleNames) +
      " (default line): one thread, or a worker pool fed one job per pixel or per line";
  DeclareNamed(flags, "schedule", kScheduleNames, ParseSchedule, &settings->schedule,
               schedule_help);
  flags.Int("threads", "N", 1, kMaxThreads, &settings->threads,
            "workers of the pixel and line schedules (default: the hardware's thread count)");
  flags.Int("width", "N", 1, kMaxImageSide, &settings->width, "image width (default: the scene's)");
  flags.Int("height", "N", 1, kMaxImageSide, &settings->height,
            "image height (default: the scene's)");
  flags.Bool("faithful", &settings->faithful,
             "reproduce the Go original's quirks (epsilon 0.001, unit ceiling checkers, swapped "
             "refraction budgets, shadow flags on top-level objects only)");
  flags.Custom(
      "out", "FILE",
      [settings](std::string_view value) {
        if (!FormatForPath(value))
          return std::string("expected a file name ending in .png or .ppm");
        settings->out = value;
        return std::string();
      },
      "write the image to FILE (.png or .ppm)");
}

}  // namespace

std::optional<RaytraceFlags> ParseRaytraceFlags(std::span<const char* const> args,
                                                std::string* error) {
  RaytraceFlags settings;
  FlagSet flags("raytrace");
  DeclareFlags(flags, &settings);
  if (!flags.ParseFlagsOnly(args, &settings.help, error)) return std::nullopt;
  if (settings.help) return settings;
  // --threads is 0 unless given.
  if (settings.threads != 0 && settings.schedule == Schedule::kSingle && settings.threads != 1) {
    *error = "--threads=" + std::to_string(settings.threads) +
             ": needs --schedule=pixel or --schedule=line";
    return std::nullopt;
  }
  return settings;
}

std::string RaytraceUsage() {
  RaytraceFlags unused;
  FlagSet flags("raytrace");
  DeclareFlags(flags, &unused);
  return std::string(kIntro) + "Flags:\n" + flags.Usage() + "\n" +
         FormatExitCodes(kRaytraceExitCodes);
}

}  // namespace benchprof::raytracer
