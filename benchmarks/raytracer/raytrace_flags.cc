#include "raytracer/raytrace_flags.h"

#include <charconv>
#include <string_view>

#include "raytracer/image_writer.h"
#include "raytracer/scenes.h"

namespace benchprof::raytracer {
namespace {

// A whole decimal integer in [min, max].
std::optional<int> ParseInt(std::string_view text, int min, int max) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<RaytraceFlags> ParseRaytraceFlags(std::span<const char* const> args,
                                                std::string* error) {
  RaytraceFlags flags;
  bool threads_given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (!arg.starts_with("-") || arg == "-" || arg == "--") {
      *error = "unexpected argument '" + std::string(arg) + "' (flags start with --)";
      return std::nullopt;
    }
    arg.remove_prefix(arg.starts_with("--") ? 2 : 1);
    std::string_view name = arg;
    std::optional<std::string_view> value;
    if (const size_t eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    const std::string flag = "--" + std::string(name);

    if (name == "help" || name == "h") {
      flags.help = true;
      continue;
    }
    if (name == "faithful") {
      if (value && *value != "true" && *value != "false") {
        *error = flag + ": want true or false, got '" + std::string(*value) + "'";
        return std::nullopt;
      }
      flags.faithful = !value || *value == "true";
      continue;
    }
    const bool known = name == "scene" || name == "impl" || name == "schedule" ||
                       name == "threads" || name == "width" || name == "height" || name == "out";
    if (!known) {
      *error = "unknown flag " + flag + " (see --help)";
      return std::nullopt;
    }
    if (!value) {
      if (i + 1 >= args.size()) {
        *error = flag + " needs a value";
        return std::nullopt;
      }
      value = args[++i];
    }

    if (name == "scene") {
      if (!SceneByName(*value, false)) {
        *error = flag + ": unknown scene '" + std::string(*value) + "' (one of " +
                 std::string(kSceneNames) + ")";
        return std::nullopt;
      }
      flags.scene = *value;
    } else if (name == "impl") {
      const std::optional<Implementation> impl = ParseImplementation(*value);
      if (!impl) {
        *error = flag + ": unknown implementation '" + std::string(*value) + "' (one of " +
                 std::string(kImplementationNames) + ")";
        return std::nullopt;
      }
      flags.implementation = *impl;
    } else if (name == "schedule") {
      const std::optional<Schedule> schedule = ParseSchedule(*value);
      if (!schedule) {
        *error = flag + ": unknown schedule '" + std::string(*value) + "' (one of " +
                 std::string(kScheduleNames) + ")";
        return std::nullopt;
      }
      flags.schedule = *schedule;
    } else if (name == "threads") {
      const std::optional<int> n = ParseInt(*value, 1, kMaxThreads);
      if (!n) {
        *error = flag + ": want an integer from 1 to " + std::to_string(kMaxThreads) + ", got '" +
                 std::string(*value) + "'";
        return std::nullopt;
      }
      flags.threads = *n;
      threads_given = true;
    } else if (name == "width" || name == "height") {
      const std::optional<int> n = ParseInt(*value, 1, kMaxImageSide);
      if (!n) {
        *error = flag + ": want an integer from 1 to " + std::to_string(kMaxImageSide) + ", got '" +
                 std::string(*value) + "'";
        return std::nullopt;
      }
      (name == "width" ? flags.width : flags.height) = *n;
    } else if (name == "out") {
      if (value->empty() || !FormatForPath(*value)) {
        *error = flag + ": '" + std::string(*value) + "' must end in .png or .ppm";
        return std::nullopt;
      }
      flags.out = *value;
    }
  }
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
