// What one region of a program costs — wall time, the CPU time of the
// process, and the heap allocations any thread made while it ran — measured
// with the rule `bench --benchmem` applies to a timed loop, for work that is
// not a Google Benchmark benchmark (a command's main computation, say).
//
//   benchprof::RegionCost cost = benchprof::MeasureRegion([&] { Render(scene, canvas); });
//   std::printf("%.3f s, cpu %.3f s\n", cost.wall_seconds, cost.cpu_seconds);
//   if (cost.allocations_counted) std::printf("%llu allocations\n", ...cost.allocations);
//
// Allocations are counted by benchprof's allocator hooks: link
// `benchprof::measure` (or `benchprof::main`). Builds without the hooks
// (sanitizer builds) measure the times and report allocations_counted =
// false, never zeros that look like a result.
//
// While a region is measured, the calling thread counts its allocations and
// every other thread counts all of its own (a worker pool the region feeds),
// as in a benchmark's timed loop. So measure one region at a time in a
// process, not inside a benchmark's timed loop, and expect a background
// thread that allocates meanwhile to be counted too.
//
// Thread-safety: thread-compatible. A RegionMeasurement is started and
// stopped on one thread; at most one is running in a process at a time.
#ifndef BENCHPROF_MEASURE_H_
#define BENCHPROF_MEASURE_H_

#include <cstdint>
#include <utility>

namespace benchprof {

// The cost of one measured region.
struct RegionCost {
  double wall_seconds = 0;  // steady clock
  double cpu_seconds = 0;   // CPU time of every thread of the process
  // False when this build does not count allocations; the two counts are
  // then 0 and mean nothing.
  bool allocations_counted = false;
  uint64_t allocations = 0;      // heap allocations, any thread
  uint64_t allocated_bytes = 0;  // the sizes requested, not what the allocator rounded to
};

class RegionMeasurement {
 public:
  // Starts measuring now, on the calling thread.
  static RegionMeasurement Start();

  // Stops measuring and returns the cost since Start(). Call once, on the
  // thread that called Start().
  RegionCost Stop();

 private:
  RegionMeasurement() = default;

  int64_t wall_start_ns_ = 0;
  int64_t cpu_start_ns_ = 0;
  uint64_t allocations_at_start_ = 0;
  uint64_t bytes_at_start_ = 0;
};

// Runs `region()` and returns what it cost.
template <typename Region>
RegionCost MeasureRegion(Region&& region) {
  RegionMeasurement measurement = RegionMeasurement::Start();
  std::forward<Region>(region)();
  return measurement.Stop();
}

}  // namespace benchprof

#endif  // BENCHPROF_MEASURE_H_
