// benchprof::RegionMeasurement (include/benchprof/measure.h): a region of a
// program measured with the timed-scope rule of --benchmem.
#include <time.h>

#include "benchprof/measure.h"
#include "collect/alloc_counter.h"
#include "collect/timed_scope.h"

namespace benchprof {
namespace {

int64_t Nanoseconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

RegionMeasurement RegionMeasurement::Start() {
  // A runner that is not timing: outside regions this thread's allocations
  // do not count, and other threads' count only while it times.
  collect::BecomeRunner();
  RegionMeasurement measurement;
  const collect::AllocTotals totals = collect::TotalAllocations();
  measurement.allocations_at_start_ = totals.allocs;
  measurement.bytes_at_start_ = totals.bytes;
  measurement.wall_start_ns_ = Nanoseconds(CLOCK_MONOTONIC);
  measurement.cpu_start_ns_ = Nanoseconds(CLOCK_PROCESS_CPUTIME_ID);
  collect::EnterTimedRegion();
  return measurement;
}

RegionCost RegionMeasurement::Stop() {
  collect::LeaveTimedRegion();
  RegionCost cost;
  cost.cpu_seconds =
      static_cast<double>(Nanoseconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start_ns_) * 1e-9;
  cost.wall_seconds = static_cast<double>(Nanoseconds(CLOCK_MONOTONIC) - wall_start_ns_) * 1e-9;
  const collect::AllocTotals totals = collect::TotalAllocations();
  cost.allocations_counted = collect::kAllocHooksEnabled;
  if (cost.allocations_counted) {
    cost.allocations = totals.allocs - allocations_at_start_;
    cost.allocated_bytes = totals.bytes - bytes_at_start_;
  }
  return cost;
}

}  // namespace benchprof
