// raytrace: renders a scene with one implementation and schedule, and prints
// the Go original's end-of-render statistics: elapsed time, allocations,
// allocations per pixel.
//
// The render is measured with <benchprof/measure.h>: its worker threads'
// allocations count too, and scene building and image writing do not.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <span>
#include <string>

#include "benchprof/files.h"
#include "benchprof/measure.h"
#include "raytracer/canvas.h"
#include "raytracer/image_writer.h"
#include "raytracer/raytrace_flags.h"
#include "raytracer/renderer.h"
#include "raytracer/scenes.h"
#include "raytracer/scheduler.h"

namespace benchprof::raytracer {
namespace {

// The output path is checked before the render, which may take minutes.
bool CanWrite(const std::string& path, std::string* error) {
  const std::string probe = path + ".probe";
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (f == nullptr) {
    *error = "--out=" + path + ": cannot write: " + std::strerror(errno);
    return false;
  }
  std::fclose(f);
  std::remove(probe.c_str());
  return true;
}

int Run(std::span<const char* const> args) {
  std::string error;
  const std::optional<RaytraceFlags> flags = ParseRaytraceFlags(args, &error);
  if (!flags) {
    std::cerr << "raytrace: " << error << "\n";
    return kExitUsage;
  }
  if (flags->help) {
    std::cout << RaytraceUsage();
    return 0;
  }
  if (!flags->out.empty() && !CanWrite(flags->out, &error)) {
    std::cerr << "raytrace: " << error << "\n";
    return kExitUsage;
  }

  const SceneDescription scene = *SceneByName(flags->scene, flags->faithful);
  const int width = flags->width > 0 ? flags->width : scene.camera.width;
  const int height = flags->height > 0 ? flags->height : scene.camera.height;
  RenderSettings settings{flags->schedule,
                          flags->threads > 0 ? flags->threads : DefaultThreadCount()};
  if (settings.schedule == Schedule::kSingle) settings.threads = 1;

  std::unique_ptr<Renderer> renderer = MakeRenderer(flags->implementation, scene, width, height);
  Canvas canvas(width, height);
  // Like the Go original's per-worker contexts, made before the clock starts.
  renderer->PrepareWorkers(settings.threads);

  const RegionCost render = MeasureRegion([&] { renderer->Render(settings, canvas); });

  const double pixels = static_cast<double>(width) * height;
  std::printf("scene: %s%s, %dx%d, impl %s, schedule %s, threads %d\n", scene.name.c_str(),
              flags->faithful ? " (faithful)" : "", width, height,
              std::string(ImplementationName(flags->implementation)).c_str(),
              std::string(ScheduleName(settings.schedule)).c_str(), settings.threads);
  // CPU time of all threads: on a shared machine it shows what the render
  // cost when the elapsed time includes waiting for a core.
  std::printf("elapsed: %.3f s (%.1f ns/pixel), cpu %.3f s\n", render.wall_seconds,
              render.wall_seconds * 1e9 / pixels, render.cpu_seconds);
  if (render.allocations_counted) {
    std::printf("allocations: %llu (%.2f per pixel), %llu bytes\n",
                static_cast<unsigned long long>(render.allocations),
                static_cast<double>(render.allocations) / pixels,
                static_cast<unsigned long long>(render.allocated_bytes));
  } else {
    std::printf("allocations: not counted in this build\n");
  }
  std::fflush(stdout);

  if (!flags->out.empty()) {
    if (!WriteImageFile(canvas, flags->out, &error)) {
      std::cerr << "raytrace: " << error << "\n";
      return kExitWriteFailed;
    }
    std::printf("image: %s\n", flags->out.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace benchprof::raytracer

int main(int argc, char** argv) {
  // SIGINT and the like remove a half-written --out before the process ends.
  benchprof::HandleInterruptions("raytrace");
  return benchprof::raytracer::Run(
      std::span<const char* const>(argv + 1, static_cast<size_t>(argc > 0 ? argc - 1 : 0)));
}
