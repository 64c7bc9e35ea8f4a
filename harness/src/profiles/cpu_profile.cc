#include "profiles/cpu_profile.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aggregate/cpu_profile_builder.h"
#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"
#include "collect/cpu_sampler.h"
#include "profiles/profile_output.h"
#include "profiles/profile_window.h"

namespace benchprof::profiles {
namespace {

constexpr ProfileTraits kTraits{
    .name = "CPU profile",
    .output_flag = "cpuprofile",
    .needs_timed_loops = true,
    .needs_allocation_hooks = false,
    .stage = StartStage::kSampler,
    // Threads started while sampling arm their own timer.
    .thread_listener = &collect::kCpuSamplerThreadListener,
    .disturbs = "",
    .disturbance = "",
};

class CpuProfile final : public Profile {
 public:
  const ProfileTraits& traits() const override { return kTraits; }

  void DeclareFlags(FlagSet& flags) override {
    flags.File("cpuprofile", &path_,
               "write a CPU profile of the benchmarks' timed loops to FILE (pprof format)");
    flags.Int("cpuprofilerate", "HZ", 1, 10000, &hz_,
              "CPU profile samples per CPU-second of each thread (default 100; the kernel "
              "delivers at most 250, the rest is weighted in)",
              "expected samples per second from 1 to 10000");
  }

  const std::string& output_path() const override { return path_; }

  Status Start(AtomicFile output, const SessionInfo&) override {
    file_.emplace(std::move(output));
    window_ = ProfileWindow::OpenNow();
    return collect::StartCpuSampler(hz_).WithContext("--cpuprofile");
  }

  StatusOr<WrittenFile> Finish(const aggregate::RunLabels& labels, const RunEnding& ending,
                               aggregate::Symbolizer& symbolizer) override {
    collect::StopCpuSampler();
    const int64_t duration = window_.ElapsedNanos();

    aggregate::CpuProfileBuilder builder(hz_, symbolizer);
    collect::ForEachCpuSample([&](const collect::CpuSample& sample) {
      const bool truncated = sample.stack.size() == 1;
      builder.AddSample(sample.stack, sample.weight, labels.LabelOf(sample.segment), truncated);
    });
    const collect::CpuSamplerStats stats = collect::GetCpuSamplerStats();
    const aggregate::LostSamples lost{stats.dropped_buffer_full, stats.dropped_reentrant};
    std::vector<std::string> comments = {
        "benchprof: only benchmarks' timed loops are sampled (setup, teardown and time between "
        "PauseTiming and ResumeTiming are excluded)",
        "benchprof: " + std::to_string(hz_) + " Hz per thread on its own CPU clock"};
    for (std::string& comment : InterruptionComments(ending)) comments.push_back(comment);
    const encode::ProfileData profile =
        builder.Build(window_.start_unix_nanos, duration, lost, std::move(comments));
    return WriteProfile(profile, *file_, kTraits.output_flag, "cpu profile", stats.recorded,
                        lost.buffer_full + lost.reentrant);
  }

 private:
  std::string path_;
  int hz_ = 100;
  std::optional<AtomicFile> file_;
  ProfileWindow window_;
};

}  // namespace

std::unique_ptr<Profile> MakeCpuProfile() { return std::make_unique<CpuProfile>(); }

}  // namespace benchprof::profiles
