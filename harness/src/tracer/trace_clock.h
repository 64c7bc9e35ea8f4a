// The trace's timestamps: raw ticks read on the hot path, converted to
// nanoseconds off it.
//
// HOT PATH: ReadTicks() runs for every recorded event. It is one predictable
// branch and either `rdtsc` (about 10 ns here) or a vDSO CLOCK_MONOTONIC read
// (about 21-34 ns). The TSC is used when the CPU says it is invariant
// (constant rate, not stopped in idle states: CPUID 0x80000007 EDX bit 8, or
// the kernel's `constant_tsc` and `nonstop_tsc` flags); it is calibrated
// against CLOCK_MONOTONIC when tracing starts, so every timestamp in a trace
// is on one linear scale. Without an invariant TSC the ticks are
// CLOCK_MONOTONIC nanoseconds.
//
//   TraceClock clock = TraceClock::Calibrate(ClockSource::kAuto);
//   SetTickSource(clock.source());       // before any thread records
//   uint64_t t = ReadTicks();            // hot path
//   int64_t ns = clock.NanosSinceStart(t);
//
// Thread-safety: ReadTicks() is thread-safe; SetTickSource() must not race
// with it (call it before tracing starts). TraceClock is thread-compatible
// (immutable after Calibrate()).
#ifndef BENCHPROF_TRACER_TRACE_CLOCK_H_
#define BENCHPROF_TRACER_TRACE_CLOCK_H_

#include <time.h>
#include <x86intrin.h>

#include <atomic>
#include <cstdint>
#include <string_view>

namespace benchprof::tracer {

enum class ClockSource : uint8_t {
  kAuto,       // the TSC if invariant, else CLOCK_MONOTONIC
  kTsc,        // the TSC, whatever the CPU says (for tests and benchmarks)
  kMonotonic,  // CLOCK_MONOTONIC
};

// The name written into the trace ("tsc" or "monotonic").
std::string_view ClockSourceName(ClockSource source);

// True if this CPU's time-stamp counter runs at a constant rate in every
// power state, so that it can be scaled to wall time.
bool TscIsInvariant();

namespace internal {
// Which clock ReadTicks() reads; only SetTickSource() writes it.
// Atomic: set when tracing starts while threads that exit read it.
extern std::atomic<bool> g_ticks_are_tsc;
}  // namespace internal

// Chooses the clock ReadTicks() reads (kTsc or kMonotonic).
void SetTickSource(ClockSource resolved);

inline uint64_t MonotonicNanos() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(now.tv_nsec);
}

// The current time in ticks of the chosen clock. Hot path.
inline uint64_t ReadTicks() {
  // rdtsc without a fence: an event's position within a few instructions
  // does not matter, and a fence would double the cost.
  return __builtin_expect(internal::g_ticks_are_tsc.load(std::memory_order_relaxed), 1)
             ? __rdtsc()
             : MonotonicNanos();
}

// Converts ticks to nanoseconds since the start of tracing.
class TraceClock {
 public:
  // Picks the source (kAuto resolves to kTsc or kMonotonic) and, for the
  // TSC, measures its rate against CLOCK_MONOTONIC over about 10 ms. The
  // start of tracing is the moment it returns.
  static TraceClock Calibrate(ClockSource requested);

  // A clock whose ticks are CLOCK_MONOTONIC nanoseconds starting at
  // `start_ticks` (for tests).
  static TraceClock Monotonic(uint64_t start_ticks);

  // kTsc or kMonotonic.
  ClockSource source() const { return source_; }

  // The tick value of the start of tracing.
  uint64_t start_ticks() const { return start_ticks_; }

  // Nanoseconds from the start of tracing to `ticks`; negative before it.
  int64_t NanosSinceStart(uint64_t ticks) const;

  // Nanoseconds per tick, as measured (1 for CLOCK_MONOTONIC).
  double nanos_per_tick() const { return static_cast<double>(scale_) / 4294967296.0; }

  // How far the calibrated TSC has drifted from CLOCK_MONOTONIC since the
  // start, in nanoseconds (0 for CLOCK_MONOTONIC). Reported in the trace so
  // a reader can judge the timestamps; reads both clocks.
  int64_t MeasureDrift() const;

 private:
  TraceClock(ClockSource source, uint64_t start_ticks, uint64_t start_nanos, uint64_t scale)
      : source_(source), start_ticks_(start_ticks), start_nanos_(start_nanos), scale_(scale) {}

  ClockSource source_;
  uint64_t start_ticks_;
  uint64_t start_nanos_;  // CLOCK_MONOTONIC at start_ticks_
  uint64_t scale_;        // nanoseconds per tick, times 2^32
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_TRACE_CLOCK_H_
