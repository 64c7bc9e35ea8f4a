#include "profiles/heap_profile.h"

#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aggregate/heap_profile_builder.h"
#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"
#include "collect/heap_sampler.h"
#include "profiles/profile_output.h"
#include "profiles/profile_window.h"

namespace benchprof::profiles {
namespace {

constexpr ProfileTraits kTraits{
    .name = "heap profile",
    .output_flag = "memprofile",
    .needs_timed_loops = true,
    .needs_allocation_hooks = true,
    .stage = StartStage::kSampler,
    .thread_listener = nullptr,
    // As Go's testing package warns: each profiler's work shows in the other.
    .disturbs = "cpuprofile",
    .disturbance = "heap sampling shows in the CPU profile and slows the benchmarks",
};

class HeapProfile final : public Profile {
 public:
  const ProfileTraits& traits() const override { return kTraits; }

  void DeclareFlags(FlagSet& flags) override {
    flags.File("memprofile", &path_,
               "write a heap profile of the allocations made in timed loops to FILE (pprof "
               "format, Go's allocs profile: alloc_space by default, inuse_* at the end)");
    // Any non-negative rate is accepted; a very large one means "practically
    // never" (Go's sampler caps the mean at 0x7000000 bytes; ours caps each
    // gap at 2^62 bytes).
    flags.Int("memprofilerate", "BYTES", int64_t{0}, std::numeric_limits<int64_t>::max(), &rate_,
              "mean bytes between heap profile samples (default 524288, as Go; 1 records "
              "every allocation; 0 records none)",
              "expected bytes between samples: 0 (off), 1 (every allocation) or more");
  }

  const std::string& output_path() const override { return path_; }

  Status Start(AtomicFile output, const SessionInfo&) override {
    file_.emplace(std::move(output));
    window_ = ProfileWindow::OpenNow();
    if (rate_ == 0) return Status();  // Go's MemProfileRate 0: record nothing
    return collect::StartHeapSampler(rate_).WithContext("--memprofile");
  }

  StatusOr<WrittenFile> Finish(const aggregate::RunLabels& labels, const RunEnding& ending,
                               aggregate::Symbolizer& symbolizer) override {
    collect::StopHeapSampler();
    const int64_t duration = window_.ElapsedNanos();

    aggregate::HeapProfileBuilder builder(rate_, symbolizer);
    uint64_t sampled = 0;
    collect::ForEachHeapBucket([&](const collect::HeapBucket& bucket) {
      sampled += bucket.allocs;
      builder.AddBucket(bucket.stack, bucket.size, bucket.allocs, bucket.frees,
                        labels.LabelOf(bucket.segment));
    });
    const collect::HeapSamplerStats stats = collect::GetHeapSamplerStats();
    std::vector<std::string> comments = {
        "benchprof: only allocations made in benchmarks' timed loops are sampled (setup, "
        "teardown and time between PauseTiming and ResumeTiming are excluded)",
        "benchprof: sizes are the sizes requested; inuse_* is what was still allocated after "
        "the last benchmark",
        RateComment()};
    for (std::string& comment : InterruptionComments(ending)) comments.push_back(comment);
    const encode::ProfileData profile =
        builder.Build(window_.start_unix_nanos, duration,
                      {stats.dropped_table_full, stats.dropped_bytes}, std::move(comments));
    return WriteProfile(profile, *file_, kTraits.output_flag, "heap profile", sampled,
                        stats.dropped_table_full);
  }

 private:
  std::string RateComment() const {
    if (rate_ == 0) return "benchprof: --memprofilerate=0: no allocation was sampled";
    if (rate_ == 1) {
      return "benchprof: every allocation was recorded (--memprofilerate=1): values are exact";
    }
    return "benchprof: one sample per " + std::to_string(rate_) +
           " allocated bytes on average; values are estimates, scaled as Go scales them";
  }

  std::string path_;
  int64_t rate_ = 512 * 1024;
  std::optional<AtomicFile> file_;
  ProfileWindow window_;
};

}  // namespace

std::unique_ptr<Profile> MakeHeapProfile() { return std::make_unique<HeapProfile>(); }

}  // namespace benchprof::profiles
