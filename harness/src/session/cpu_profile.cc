#include "session/cpu_profile.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"
#include "collect/cpu_sampler.h"
#include "encode/pprof_writer.h"

namespace benchprof::session {
namespace {

int64_t NanosSinceEpoch(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

int64_t MonotonicNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Status CpuProfile::Start() {
  start_unix_nanos_ = NanosSinceEpoch(std::chrono::system_clock::now());
  start_monotonic_nanos_ = MonotonicNanos();
  return collect::StartCpuSampler(hz_).WithContext("--cpuprofile");
}

void CpuProfile::NoteReportedRun(uint32_t segment, RunLabel label) {
  label_by_final_segment_.emplace(segment, std::move(label));
}

Status CpuProfile::Finish() {
  collect::StopCpuSampler();
  const int64_t duration = MonotonicNanos() - start_monotonic_nanos_;

  Symbolizer symbolizer(LoadedModules());
  CpuProfileBuilder builder(hz_, symbolizer);
  const RunLabel unreported{"(run not reported)", 1};
  collect::ForEachCpuSample([&](const collect::CpuSample& sample) {
    auto label = label_by_final_segment_.lower_bound(sample.segment);
    const bool truncated = sample.stack.size() == 1;
    builder.AddSample(sample.stack, sample.weight,
                      label == label_by_final_segment_.end() ? unreported : label->second,
                      truncated);
  });
  const collect::CpuSamplerStats stats = collect::GetCpuSamplerStats();
  const LostSamples lost{stats.dropped_buffer_full, stats.dropped_reentrant};
  ProfileData profile = builder.Build(
      start_unix_nanos_, duration, lost,
      {"benchprof: only benchmarks' timed loops are sampled (setup, teardown and time between "
       "PauseTiming and ResumeTiming are excluded)",
       "benchprof: " + std::to_string(hz_) + " Hz per thread on its own CPU clock"});

  if (Status written = WriteProfileFile(profile, file_.temp_path()); !written.ok()) {
    return written.WithContext("--cpuprofile=" + file_.path());
  }
  if (Status committed = file_.Commit(); !committed.ok()) {
    return committed.WithContext("--cpuprofile");
  }
  std::fprintf(stderr, "cpu profile: %s (%llu samples, %llu lost)\n", file_.path().c_str(),
               static_cast<unsigned long long>(stats.recorded),
               static_cast<unsigned long long>(lost.buffer_full + lost.reentrant));
  return Status();
}

}  // namespace benchprof::session
