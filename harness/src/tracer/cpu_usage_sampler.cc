#include "tracer/cpu_usage_sampler.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "common/process_threads.h"
#include "tracer/thread_table.h"

namespace benchprof::tracer {
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
    : clock_(clock), period_(period), counters_(std::move(counters)), tracks_(kMaxThreads) {
  TrackThreadsRunningNow();
  process_.process = true;
  process_.active = true;
  process_.interval_ticks = process_.last_ticks = ReadTicks();
}

void CpuUsageSampler::TrackThreadsRunningNow() {
  const pid_t self = gettid();
  const uint64_t now = ReadTicks();
  for (const pid_t tid : ListProcessThreads()) {  // ascending, as RunningAtStart needs
    if (tid == self) continue;
    Track track;
    track.tid = tid;
    track.cpu_clock = CpuClockOfThread(tid);
    if (!ReadCpuClock(track.cpu_clock, &track.interval_cpu)) continue;  // it has just ended
    track.active = true;
    track.interval_ticks = track.last_ticks = now;
    track.last_cpu = track.interval_cpu;
    running_at_start_.push_back(std::move(track));
  }
}

// The track of the thread that had `tid` when the sampler was made, unless
// that thread has ended and the tid has been given to another.
CpuUsageSampler::Track* CpuUsageSampler::RunningAtStart(pid_t tid) {
  const auto found =
      std::lower_bound(running_at_start_.begin(), running_at_start_.end(), tid,
                       [](const Track& track, pid_t wanted) { return track.tid < wanted; });
  return found != running_at_start_.end() && found->tid == tid && !found->superseded ? &*found
                                                                                     : nullptr;
}

bool CpuUsageSampler::BornDuringThisTrace(const ThreadSlot& slot) const {
  return slot.started_while_tracing && slot.start_ticks >= clock_.start_ticks();
}

// The slot of the thread that had `tid` at the start, if it has one (it
// has recorded an event): its name, and its exit data when it ends.
ThreadSlot* CpuUsageSampler::OwnSlotOf(pid_t tid) const {
  const uint32_t used = g_thread_slots_used.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < used; ++i) {
    ThreadSlot& slot = g_thread_slots[i];
    const SlotState state = slot.state.load(std::memory_order_acquire);
    if ((state == SlotState::kLive || state == SlotState::kExited) && slot.tid == tid &&
        !BornDuringThisTrace(slot)) {
      return &slot;
    }
  }
  return nullptr;
}

// "CPU <name> [<tid>]", under the best name known now: the harness's (from
// `slot`, if there is one), the one the thread gave itself, else
// "thread <tid>". Names the thread in the trace with it, so that it has a
// track even if it records nothing.
std::string CpuUsageSampler::CounterName(pid_t tid, ThreadSlot* slot) {
  char name[kMaxThreadNameBytes];
  size_t length = 0;
  NameRank rank = NameRank::kDefault;
  if (slot != nullptr) length = CopySlotName(*slot, name, &rank);
  if (rank == NameRank::kDefault) {
    if (const size_t system_length = ReadSystemThreadName(tid, name); system_length > 0) {
      length = system_length;
      rank = NameRank::kSystem;
    } else if (slot == nullptr) {
      std::memcpy(name, "thread ", 7);
      length = static_cast<size_t>(std::to_chars(name + 7, name + sizeof name, tid).ptr - name);
    }
  }
  const std::string_view text(name, length);
  RecordThreadNameOf(tid, text, rank);
  return "CPU " + std::string(text) + " [" + std::to_string(tid) + "]";
}

// Gives each thread running at the start a track in the trace and its
// counter's name.
void CpuUsageSampler::NameThreadsRunningAtStart() {
  for (Track& track : running_at_start_) {
    track.counter_name = CounterName(track.tid, OwnSlotOf(track.tid));
  }
}

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

double CpuUsageSampler::Share(const Track& track, int64_t cpu_nanos, uint64_t from,
                              uint64_t to) const {
  const int64_t wall = clock_.NanosSinceStart(to) - clock_.NanosSinceStart(from);
  if (wall <= 0) return 0;
  const double share = std::max(0.0, static_cast<double>(cpu_nanos) / static_cast<double>(wall));
  // The process's share is a sum of exact readings: no cap, which would
  // lose time if the count of usable CPUs were off (a cgroup quota, say).
  return track.process ? share : std::min(share, 1.0);
}

void CpuUsageSampler::Emit(Track& track, uint64_t start_ticks, double busy) {
  if (track.process) {
    RecordProcessCpu(start_ticks, busy);
    return;
  }
  if (track.counter_name.empty()) track.counter_name = CounterName(track.tid, track.slot);
  RecordCpuUsage(start_ticks, track.tid, busy, track.counter_name);
}

void CpuUsageSampler::Advance(Track& track, uint64_t now, int64_t cpu) {
  if (now <= track.last_ticks) return;
  if (!track.process && cpu > track.last_cpu) threads_cpu_ += cpu - track.last_cpu;
  const double period_share = Share(track, cpu - track.last_cpu, track.last_ticks, now);
  if (track.last_ticks > track.interval_ticks) {
    const double interval_share =
        Share(track, track.last_cpu - track.interval_cpu, track.interval_ticks, track.last_ticks);
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
         Share(track, track.last_cpu - track.interval_cpu, track.interval_ticks, track.last_ticks));
  }
  Emit(track, track.last_ticks, 0);
  track.active = false;
}

// Each CPU reading is paired with the time taken right after it (ReadTicks()
// below), not the pass's `now`: a sampler delayed in the middle of a pass (a
// loaded machine) would otherwise see shares over 1, to be cut. The final
// pass ends every counter at the end of the trace, `now`.
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
    Track* by_tid = RunningAtStart(slot.tid);
    if (by_tid != nullptr && BornDuringThisTrace(slot)) {
      // A thread born during this trace with the tid of one running at its
      // start: that one has ended. Close it where it was last seen.
      if (by_tid->active) Close(*by_tid, by_tid->last_ticks, by_tid->last_cpu);
      by_tid->superseded = true;
      by_tid = nullptr;
    }
    if (by_tid != nullptr) {
      // Sampled by tid since the start; the slot only says when it ended.
      if (state == SlotState::kExited) {
        if (by_tid->active) {
          Close(*by_tid, std::max(slot.exit_ticks, by_tid->last_ticks), slot.exit_cpu_nanos);
        }
        slot.state.store(SlotState::kFree, std::memory_order_release);
      }
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
        track.interval_ticks = track.last_ticks = final ? now : ReadTicks();
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
      Advance(track, ReadTicks(), cpu);
    }
  }
  SampleThreadsRunningAtStart(now, final);
  if (final) {
    Close(process_, now, threads_cpu_);
  } else {
    Advance(process_, ReadTicks(), threads_cpu_);
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

void CpuUsageSampler::SampleThreadsRunningAtStart(uint64_t now, bool final) {
  for (Track& track : running_at_start_) {
    if (!track.active) continue;
    int64_t cpu = 0;
    if (!ReadCpuClock(track.cpu_clock, &cpu)) {
      // Ended. With a slot, its exit data closes the track next time;
      // without, the last reading does.
      if (final || OwnSlotOf(track.tid) == nullptr) Close(track, track.last_ticks, track.last_cpu);
    } else if (final) {
      Close(track, now, cpu);
      // A name it gave itself after the start (the counter keeps the first).
      char name[16];
      if (const size_t length = ReadSystemThreadName(track.tid, name); length > 0) {
        RecordThreadNameOf(track.tid, std::string_view(name, length));
      }
    } else {
      Advance(track, ReadTicks(), cpu);
    }
  }
}

void CpuUsageSampler::Run(std::function<void()> on_thread_start) {
  if (on_thread_start) on_thread_start();
  BeginInternalThread("benchprof trace sampler", /*records=*/true);
  NameThreadsRunningAtStart();
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

}  // namespace benchprof::tracer
