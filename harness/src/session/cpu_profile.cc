#include "session/cpu_profile.h"

#include <cstdio>
#include <string>
#include <utility>

#include "aggregate/cpu_profile_builder.h"
#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"
#include "collect/cpu_sampler.h"
#include "encode/pprof_writer.h"

namespace benchprof::session {

using aggregate::CpuProfileBuilder;
using aggregate::LoadedModules;
using aggregate::LostSamples;
using aggregate::Symbolizer;
using encode::ProfileData;
using encode::WriteProfileFile;

Status CpuProfile::Start() {
  window_ = ProfileWindow::OpenNow();
  return collect::StartCpuSampler(hz_).WithContext("--cpuprofile");
}

Status CpuProfile::Finish(const RunLabels& labels) {
  collect::StopCpuSampler();
  const int64_t duration = window_.ElapsedNanos();

  Symbolizer symbolizer(LoadedModules());
  CpuProfileBuilder builder(hz_, symbolizer);
  collect::ForEachCpuSample([&](const collect::CpuSample& sample) {
    const bool truncated = sample.stack.size() == 1;
    builder.AddSample(sample.stack, sample.weight, labels.LabelOf(sample.segment), truncated);
  });
  const collect::CpuSamplerStats stats = collect::GetCpuSamplerStats();
  const LostSamples lost{stats.dropped_buffer_full, stats.dropped_reentrant};
  ProfileData profile = builder.Build(
      window_.start_unix_nanos, duration, lost,
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
