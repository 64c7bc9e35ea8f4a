// The per-thread CPU-utilization counters (and the process's allocation
// totals) of a trace: a sampler thread reads every traced thread's CPU clock
// (about 0.4 us per read) once per period (10 ms by default,
// RecorderOptions), and records counter events on its own track.
//
// And one counter for the whole process: the CPUs its traced threads use,
// the sum of the thread readings. (Not the
// process's CPU clock: the kernel updates it for threads running on other
// CPUs only at their ticks, so over a short period it can say 3 CPUs of 2.)
// Where a thread counter shows an idle thread, this one shows idle cores.
//
// Which threads: those running when the sampler is made (listed from
// /proc/self/task, read by tid from then on, named in the trace even if they
// never record an event: an idle pool made before the benchmarks must show as
// idle), and those that claim a slot in the thread table later (started
// while tracing, or first recording an event).
//
// Each counter event says which share of the interval from its timestamp to
// the next event of the same counter the thread spent on a CPU (0..1). To
// keep the trace small, consecutive periods whose shares differ by less than
// kMergeTolerance are merged into one interval, whose share is then exact
// over the merged interval: a thread busy (or idle) for a second costs one
// event, not a thousand. A thread's last event, at its exit or at the end
// of tracing, has share 0.
//
//   CpuUsageSampler sampler(clock, std::chrono::microseconds(1000), counters);
//   sampler.Start(on_thread_start);
//   ...
//   sampler.Stop(end_ticks);   // final events at end_ticks, thread joined
//
// Thread-safety: Start and Stop from one thread.
#ifndef BENCHPROF_TRACER_CPU_USAGE_SAMPLER_H_
#define BENCHPROF_TRACER_CPU_USAGE_SAMPLER_H_

#include <sys/types.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "tracer/thread_table.h"
#include "tracer/trace_clock.h"
#include "tracer/trace_recorder.h"

namespace benchprof::tracer {

// Periods whose busy shares differ from their interval's by less than this
// are merged into it.
inline constexpr double kMergeTolerance = 0.05;

class CpuUsageSampler {
 public:
  // `clock` must outlive the sampler. `counters` may be empty. Lists the
  // process's threads but the calling one (which the session traces through
  // its slot): make it before starting any of the recorder's own threads.
  CpuUsageSampler(const TraceClock& clock, std::chrono::microseconds period,
                  std::function<ProcessCounters()> counters);
  ~CpuUsageSampler();
  CpuUsageSampler(const CpuUsageSampler&) = delete;
  CpuUsageSampler& operator=(const CpuUsageSampler&) = delete;

  // Starts the sampler thread; `on_thread_start` runs on it first.
  void Start(std::function<void()> on_thread_start);

  // Records the final counters at `end_ticks` and joins the thread.
  void Stop(uint64_t end_ticks);

 private:
  // What the sampler knows of one slot's current thread, or of a thread
  // that was running at the start.
  struct Track {
    bool active = false;
    uint32_t serial = 0;
    pid_t tid = 0;
    clockid_t cpu_clock = 0;
    bool process = false;         // the process counter: shares from 0 up
    bool superseded = false;      // running at the start, ended; its tid is another thread's now
    uint64_t interval_ticks = 0;  // start of the open interval
    int64_t interval_cpu = 0;
    uint64_t last_ticks = 0;  // last reading
    int64_t last_cpu = 0;
    ThreadSlot* slot = nullptr;  // null for threads running at the start
    // "CPU <name> [<tid>]", fixed at the first event: a thread usually names
    // itself (pthread_setname_np) just after it starts, after it registered.
    std::string counter_name;
  };

  void Run(std::function<void()> on_thread_start);
  void TrackThreadsRunningNow();
  void NameThreadsRunningAtStart();
  Track* RunningAtStart(pid_t tid);
  ThreadSlot* OwnSlotOf(pid_t tid) const;
  static std::string CounterName(pid_t tid, ThreadSlot* slot);
  bool BornDuringThisTrace(const ThreadSlot& slot) const;
  void Sample(uint64_t now, bool final);
  void SampleThreadsRunningAtStart(uint64_t now, bool final);
  void Advance(Track& track, uint64_t now, int64_t cpu);
  void Emit(Track& track, uint64_t start_ticks, double busy);
  void Close(Track& track, uint64_t end, int64_t cpu);
  double Share(const Track& track, int64_t cpu_nanos, uint64_t from, uint64_t to) const;

  const TraceClock& clock_;
  const std::chrono::microseconds period_;
  const std::function<ProcessCounters()> counters_;
  std::vector<Track> tracks_;            // by slot index
  std::vector<Track> running_at_start_;  // by tid
  int64_t threads_cpu_ = 0;              // CPU time read from all threads so far
  Track process_;                        // fed threads_cpu_
  bool counters_recorded_ = false;
  ProcessCounters last_counters_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> end_ticks_{0};
  std::thread thread_;
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_CPU_USAGE_SAMPLER_H_
