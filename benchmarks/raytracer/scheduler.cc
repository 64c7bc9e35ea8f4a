#include "raytracer/scheduler.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace benchprof::raytracer {
namespace {

constexpr size_t kQueueCapacity = 4096;

}  // namespace

std::string_view ScheduleName(Schedule schedule) {
  switch (schedule) {
    case Schedule::kSingle:
      return "single";
    case Schedule::kPixel:
      return "pixel";
    case Schedule::kLine:
      return "line";
  }
  return "unknown";
}

std::optional<Schedule> ParseSchedule(std::string_view name) {
  for (Schedule s : {Schedule::kSingle, Schedule::kPixel, Schedule::kLine}) {
    if (name == ScheduleName(s)) return s;
  }
  return std::nullopt;
}

int DefaultThreadCount() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void RunSchedule(Schedule schedule, int threads, int width, int height,
                 const std::function<void(int worker, const PixelSpan& span)>& render) {
  if (schedule == Schedule::kSingle) {
    for (int y = 0; y < height; ++y) render(0, {y, 0, width});
    return;
  }
  threads = std::max(threads, 1);
  // Room for a few lines of pixel jobs, so the producer (this thread) fills
  // it in bursts and mostly sleeps (Go's original used an unbuffered
  // channel; its goroutine hand-offs are far cheaper than thread wake-ups).
  JobQueue queue(kQueueCapacity);
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(threads));
  for (int w = 0; w < threads; ++w) {
    workers.emplace_back([&queue, &render, w] {
      PixelSpan span;
      while (queue.Pop(span)) render(w, span);
    });
  }
  for (int y = 0; y < height; ++y) {
    if (schedule == Schedule::kLine) {
      queue.Push({y, 0, width});
    } else {
      for (int x = 0; x < width; ++x) queue.Push({y, x, x + 1});
    }
  }
  queue.Close();
  for (std::thread& worker : workers) worker.join();
}

}  // namespace benchprof::raytracer
