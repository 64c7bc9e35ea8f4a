// Scheduler: how a render's pixels are shared out. Single-threaded; or a
// pool of worker threads fed through a JobQueue with one job per pixel (the
// Go original's first threaded renderer) or one job per line (its final
// one).
//
// The calling thread is the producer; workers are numbered 0..threads-1 so
// each can use its own scratch (TraceContext). Every pixel is rendered
// exactly once, and workers write disjoint pixels, so no lock guards the
// canvas (the Go original took a mutex per pixel).
//
// Example:
//   RunSchedule(Schedule::kLine, 2, 640, 480, [&](int worker, const PixelSpan& s) {
//     for (int x = s.x_begin; x < s.x_end; ++x) canvas.Set(x, s.y, Trace(worker, x, s.y));
//   });
//
// Thread-safety: thread-safe; `render` is called concurrently from the workers.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_SCHEDULER_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_SCHEDULER_H_

#include <functional>
#include <optional>
#include <string_view>

#include "raytracer/job_queue.h"

namespace benchprof::raytracer {

enum class Schedule {
  kSingle,  // the calling thread renders row after row
  kPixel,   // a worker pool, one job per pixel
  kLine,    // a worker pool, one job per row
};

// "single", "pixel", "line".
std::string_view ScheduleName(Schedule schedule);
std::optional<Schedule> ParseSchedule(std::string_view name);
inline constexpr std::string_view kScheduleNames = "single, pixel, line";

// The hardware's thread count (at least 1): the default number of workers.
int DefaultThreadCount();

// Calls `render(worker, span)` for spans covering every pixel of a width x
// height image exactly once, and returns when all are done. kSingle calls it
// on this thread with worker 0, whatever `threads` says; the pool schedules
// start `threads` (at least 1) workers.
void RunSchedule(Schedule schedule, int threads, int width, int height,
                 const std::function<void(int worker, const PixelSpan& span)>& render);

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_SCHEDULER_H_
