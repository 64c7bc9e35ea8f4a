#include "session/heap_profile.h"

#include <cstdio>
#include <string>
#include <utility>

#include "aggregate/heap_profile_builder.h"
#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"
#include "collect/heap_sampler.h"
#include "encode/pprof_writer.h"

namespace benchprof::session {

using aggregate::HeapProfileBuilder;
using aggregate::LoadedModules;
using aggregate::Symbolizer;
using encode::ProfileData;
using encode::WriteProfileFile;

Status HeapProfile::Start() {
  window_ = ProfileWindow::OpenNow();
  if (rate_ == 0) return Status();  // Go's MemProfileRate 0: record nothing
  return collect::StartHeapSampler(rate_).WithContext("--memprofile");
}

Status HeapProfile::Finish(const RunLabels& labels) {
  collect::StopHeapSampler();
  const int64_t duration = window_.ElapsedNanos();

  Symbolizer symbolizer(LoadedModules());
  HeapProfileBuilder builder(rate_, symbolizer);
  uint64_t sampled = 0;
  collect::ForEachHeapBucket([&](const collect::HeapBucket& bucket) {
    sampled += bucket.allocs;
    builder.AddBucket(bucket.stack, bucket.size, bucket.allocs, bucket.frees,
                      labels.LabelOf(bucket.segment));
  });
  const collect::HeapSamplerStats stats = collect::GetHeapSamplerStats();
  const std::string rate_comment =
      rate_ == 0 ? "benchprof: --memprofilerate=0: no allocation was sampled"
      : rate_ == 1
          ? "benchprof: every allocation was recorded (--memprofilerate=1): values are exact"
          : "benchprof: one sample per " + std::to_string(rate_) +
                " allocated bytes on average; values are estimates, scaled as Go scales them";
  ProfileData profile = builder.Build(
      window_.start_unix_nanos, duration, {stats.dropped_table_full, stats.dropped_bytes},
      {"benchprof: only allocations made in benchmarks' timed loops are sampled (setup, "
       "teardown and time between PauseTiming and ResumeTiming are excluded)",
       "benchprof: sizes are the sizes requested; inuse_* is what was still allocated after "
       "the last benchmark",
       rate_comment});

  if (Status written = WriteProfileFile(profile, file_.temp_path()); !written.ok()) {
    return written.WithContext("--memprofile=" + file_.path());
  }
  if (Status committed = file_.Commit(); !committed.ok()) {
    return committed.WithContext("--memprofile");
  }
  std::fprintf(stderr, "heap profile: %s (%llu samples, %llu lost)\n", file_.path().c_str(),
               static_cast<unsigned long long>(sampled),
               static_cast<unsigned long long>(stats.dropped_table_full));
  return Status();
}

}  // namespace benchprof::session
