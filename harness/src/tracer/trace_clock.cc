#include "tracer/trace_clock.h"

#include <cpuid.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace benchprof::tracer {
namespace internal {
std::atomic<bool> g_ticks_are_tsc{false};
}  // namespace internal

namespace {

// 64x64-bit products of tick counts and scale need 128 bits.
__extension__ typedef unsigned __int128 Uint128;

struct ClockPair {
  uint64_t ticks;
  uint64_t nanos;
};

// The TSC reading closest to a CLOCK_MONOTONIC reading: the narrowest of a
// few TSC brackets around it (a preemption inside one widens it).
ClockPair ReadPair() {
  ClockPair best{0, 0};
  uint64_t best_width = UINT64_MAX;
  for (int i = 0; i < 9; ++i) {
    const uint64_t before = __rdtsc();
    const uint64_t nanos = MonotonicNanos();
    const uint64_t after = __rdtsc();
    if (after - before < best_width) {
      best_width = after - before;
      best = {before + (after - before) / 2, nanos};
    }
  }
  return best;
}

bool CpuinfoHasFlags() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    bool constant = false, nonstop = false;
    for (std::string word; words >> word;) {
      constant |= word == "constant_tsc";
      nonstop |= word == "nonstop_tsc";
    }
    return constant && nonstop;
  }
  return false;
}

}  // namespace

std::string_view ClockSourceName(ClockSource source) {
  return source == ClockSource::kMonotonic ? "monotonic" : "tsc";
}

bool TscIsInvariant() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  // The cast: clang declares __get_cpuid_max as returning int, GCC unsigned.
  if (static_cast<unsigned>(__get_cpuid_max(0x80000000u, nullptr)) >= 0x80000007u &&
      __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) && (edx & (1u << 8)) != 0) {
    return true;
  }
  // Hypervisors may hide the CPUID bit while the kernel knows better.
  return CpuinfoHasFlags();
}

void SetTickSource(ClockSource resolved) {
  internal::g_ticks_are_tsc.store(resolved == ClockSource::kTsc, std::memory_order_relaxed);
}

TraceClock TraceClock::Calibrate(ClockSource requested) {
  const bool tsc =
      requested == ClockSource::kTsc || (requested == ClockSource::kAuto && TscIsInvariant());
  if (!tsc) return Monotonic(MonotonicNanos());
  // 10 ms with pair errors of tens of ns: a rate within a few parts per
  // million, i.e. microseconds over a minute-long trace.
  const ClockPair first = ReadPair();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const ClockPair second = ReadPair();
  const uint64_t ticks = second.ticks - first.ticks;
  const uint64_t nanos = second.nanos - first.nanos;
  if (ticks == 0 || nanos == 0) return Monotonic(MonotonicNanos());
  const auto scale = static_cast<uint64_t>((static_cast<Uint128>(nanos) << 32) / ticks);
  return TraceClock(ClockSource::kTsc, second.ticks, second.nanos, scale);
}

TraceClock TraceClock::Monotonic(uint64_t start_ticks) {
  return TraceClock(ClockSource::kMonotonic, start_ticks, start_ticks, uint64_t{1} << 32);
}

int64_t TraceClock::NanosSinceStart(uint64_t ticks) const {
  if (ticks >= start_ticks_) {
    return static_cast<int64_t>((static_cast<Uint128>(ticks - start_ticks_) * scale_) >> 32);
  }
  return -static_cast<int64_t>((static_cast<Uint128>(start_ticks_ - ticks) * scale_) >> 32);
}

int64_t TraceClock::MeasureDrift() const {
  if (source_ != ClockSource::kTsc) return 0;
  const ClockPair now = ReadPair();
  const int64_t predicted = NanosSinceStart(now.ticks);
  const int64_t actual = static_cast<int64_t>(now.nanos - start_nanos_);
  return predicted - actual;
}

}  // namespace benchprof::tracer
