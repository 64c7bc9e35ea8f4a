#include "trace/cpu_usage_sampler.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "trace/thread_table.h"

namespace benchprof::trace {
namespace {

bool ReadCpuClock(clockid_t clock, int64_t* nanos) {
  timespec now;
  if (clock_gettime(clock, &now) != 0) return false;  // the thread has ended
  *nanos = int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
  return true;
}

}  // namespace

CpuUsageSampler::CpuUsageSampler(const TraceClock& clock, std::chrono::microseconds period,
                                 std::function<ProcessCounters()> counters)
    : clock_(clock), period_(period), counters_(std::move(counters)), tracks_(kMaxThreads) {}

CpuUsageSampler::~CpuUsageSampler() {
  if (thread_.joinable()) Stop(ReadTicks());
}

void CpuUsageSampler::Start(std::function<void()> on_thread_start) {
  InternalThreadCreation internal;
  thread_ = std::thread(&CpuUsageSampler::Run, this, std::move(on_thread_start));
}

void CpuUsageSampler::Stop(uint64_t end_ticks) {
  end_ticks_.store(end_ticks, std::memory_order_relaxed);
  stopping_.store(true, std::memory_order_release);
  thread_.join();
}

double CpuUsageSampler::Share(int64_t cpu_nanos, uint64_t from, uint64_t to) const {
  const int64_t wall = clock_.NanosSinceStart(to) - clock_.NanosSinceStart(from);
  if (wall <= 0) return 0;
  return std::clamp(static_cast<double>(cpu_nanos) / static_cast<double>(wall), 0.0, 1.0);
}

void CpuUsageSampler::Emit(Track& track, uint64_t start_ticks, double busy) {
  if (track.counter_name.empty()) {
    char name[kMaxThreadNameBytes];
    NameRank rank;
    size_t length = CopySlotName(*track.slot, name, &rank);
    if (rank == NameRank::kDefault) {
      char system_name[16];
      if (const size_t system_length = ReadSystemThreadName(track.tid, system_name);
          system_length > 0) {
        RecordThreadNameOf(track.tid, std::string_view(system_name, system_length));
        std::memcpy(name, system_name, system_length);
        length = system_length;
      }
    }
    track.counter_name =
        "CPU " + std::string(name, length) + " [" + std::to_string(track.tid) + "]";
  }
  RecordCpuUsage(start_ticks, track.tid, busy, track.counter_name);
}

void CpuUsageSampler::Advance(Track& track, uint64_t now, int64_t cpu) {
  if (now <= track.last_ticks) return;
  const double period_share = Share(cpu - track.last_cpu, track.last_ticks, now);
  if (track.last_ticks > track.interval_ticks) {
    const double interval_share =
        Share(track.last_cpu - track.interval_cpu, track.interval_ticks, track.last_ticks);
    if (std::fabs(period_share - interval_share) >= kMergeTolerance) {
      Emit(track, track.interval_ticks, interval_share);
      track.interval_ticks = track.last_ticks;
      track.interval_cpu = track.last_cpu;
    }
  }
  track.last_ticks = now;
  track.last_cpu = cpu;
}

void CpuUsageSampler::Close(Track& track, uint64_t end, int64_t cpu) {
  Advance(track, end, cpu);
  if (track.last_ticks > track.interval_ticks) {
    Emit(track, track.interval_ticks,
         Share(track.last_cpu - track.interval_cpu, track.interval_ticks, track.last_ticks));
  }
  Emit(track, track.last_ticks, 0);
  track.active = false;
}

void CpuUsageSampler::Sample(uint64_t now, bool final) {
  const uint32_t used = g_thread_slots_used.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < used; ++i) {
    ThreadSlot& slot = g_thread_slots[i];
    Track& track = tracks_[i];
    const SlotState state = slot.state.load(std::memory_order_acquire);
    if (state != SlotState::kLive && state != SlotState::kExited) continue;
    if (slot.internal || !slot.has_cpu_clock) {
      if (state == SlotState::kExited)
        slot.state.store(SlotState::kFree, std::memory_order_release);
      continue;
    }
    const uint32_t serial = slot.serial.load(std::memory_order_relaxed);
    if (!track.active || track.serial != serial) {
      track = Track();
      track.active = true;
      track.serial = serial;
      track.tid = slot.tid;
      track.slot = &slot;
      if (slot.start_ticks >= clock_.start_ticks()) {
        // Started during this trace: count from its first instant.
        track.interval_ticks = track.last_ticks = slot.start_ticks;
        track.interval_cpu = track.last_cpu = slot.start_cpu_nanos;
      } else if (state == SlotState::kLive && ReadCpuClock(slot.cpu_clock, &track.interval_cpu)) {
        track.interval_ticks = track.last_ticks = now;
        track.last_cpu = track.interval_cpu;
      } else {
        track.active = false;
      }
    }
    if (state == SlotState::kExited) {
      if (track.active)
        Close(track, std::max(slot.exit_ticks, track.last_ticks), slot.exit_cpu_nanos);
      slot.state.store(SlotState::kFree, std::memory_order_release);
      continue;
    }
    if (!track.active) continue;
    int64_t cpu = 0;
    // A failed read: the thread is ending; its exit data comes next time.
    if (!ReadCpuClock(slot.cpu_clock, &cpu)) continue;
    if (final) {
      Close(track, now, cpu);
    } else {
      Advance(track, now, cpu);
    }
  }
  if (counters_) {
    const ProcessCounters counters = counters_();
    if (!counters_recorded_ || !(counters == last_counters_) || final) {
      RecordAllocations(now, counters);
      counters_recorded_ = true;
      last_counters_ = counters;
    }
  }
}

void CpuUsageSampler::Run(std::function<void()> on_thread_start) {
  if (on_thread_start) on_thread_start();
  BeginInternalThread("benchprof trace sampler", /*records=*/true);
  const int64_t period_ns = std::chrono::nanoseconds(period_).count();
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  while (!stopping_.load(std::memory_order_acquire)) {
    next.tv_nsec += period_ns;
    while (next.tv_nsec >= 1'000'000'000) {
      next.tv_nsec -= 1'000'000'000;
      ++next.tv_sec;
    }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
    if (stopping_.load(std::memory_order_acquire)) break;
    Sample(ReadTicks(), /*final=*/false);
    // Fell behind (the machine is loaded): skip periods rather than catch up.
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > next.tv_sec || (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec)) {
      next = now;
    }
  }
  Sample(end_ticks_.load(std::memory_order_relaxed), /*final=*/true);
}

}  // namespace benchprof::trace
