#include "profiles/contention_profiles.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aggregate/contention_profile_builder.h"
#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"
#include "collect/contention_sampler.h"
#include "profiles/profile_output.h"
#include "profiles/profile_window.h"

namespace benchprof::profiles {
namespace {

using collect::ContentionProfile;

// What tells one contention profile from the other.
struct ContentionKind {
  ProfileTraits traits;
  ContentionProfile profile;
  std::string_view rate_flag;
  std::string_view rate_value_name;
  std::string_view file_help;
  std::string_view rate_help;
  std::string_view rate_expected;
  std::string_view what;  // for the stderr line: "block profile"
  std::string_view scope_comment;
};

constexpr ContentionKind kBlock{
    .traits = {.name = "block profile",
               .output_flag = "blockprofile",
               .needs_timed_loops = true,
               .needs_allocation_hooks = false,
               .stage = StartStage::kSampler,
               .thread_listener = nullptr,
               .disturbs = "",
               .disturbance = ""},
    .profile = ContentionProfile::kBlock,
    .rate_flag = "blockprofilerate",
    .rate_value_name = "NS",
    .file_help =
        "write a block profile to FILE (pprof format, Go's): where threads waited "
        "in timed loops (contended locks, condition variables, semaphores, joins, "
        "atomic waits) and for how long",
    .rate_help =
        "record waits of NS nanoseconds or more, and shorter ones with probability "
        "duration/NS, scaled (default 1: every wait, as go test)",
    .rate_expected = "expected nanoseconds: 1 (every wait) or more, 0 for none",
    .what = "block profile",
    .scope_comment =
        "benchprof: waits that ended in benchmarks' timed loops (a contended mutex or rwlock, a "
        "condition variable, a semaphore, a thread join, a futex), with the waiting thread's "
        "stack",
};

constexpr ContentionKind kMutex{
    .traits = {.name = "mutex profile",
               .output_flag = "mutexprofile",
               .needs_timed_loops = true,
               .needs_allocation_hooks = false,
               .stage = StartStage::kSampler,
               .thread_listener = nullptr,
               .disturbs = "",
               .disturbance = ""},
    .profile = ContentionProfile::kMutex,
    .rate_flag = "mutexprofilefraction",
    .rate_value_name = "N",
    .file_help =
        "write a mutex profile to FILE (pprof format, Go's): the critical sections "
        "whose unlock others waited for in timed loops, charged their waiting time",
    .rate_help =
        "record 1 in N contended unlocks, scaled by N (default 1: every one, as go "
        "test)",
    .rate_expected = "expected a fraction: 1 (every event) or more, 0 for none",
    .what = "mutex profile",
    .scope_comment =
        "benchprof: unlocks made in benchmarks' timed loops of a mutex or rwlock that others "
        "waited for, with the unlocking thread's stack, charged the time they waited since "
        "the previous such unlock",
};

class ContentionProfileKind final : public Profile {
 public:
  explicit ContentionProfileKind(const ContentionKind& kind) : kind_(kind) {}

  const ProfileTraits& traits() const override { return kind_.traits; }

  void DeclareFlags(FlagSet& flags) override {
    flags.File(kind_.traits.output_flag, &path_, kind_.file_help);
    flags.Int(kind_.rate_flag, kind_.rate_value_name, int64_t{0}, int64_t{1} << 62, &rate_,
              kind_.rate_help, kind_.rate_expected);
  }

  const std::string& output_path() const override { return path_; }

  Status Start(AtomicFile output, const SessionInfo&) override {
    file_.emplace(std::move(output));
    window_ = ProfileWindow::OpenNow();
    return collect::StartContentionProfile(kind_.profile, rate_)
        .WithContext("--" + std::string(kind_.traits.output_flag));
  }

  StatusOr<WrittenFile> Finish(const aggregate::RunLabels& labels, const RunEnding& ending,
                               aggregate::Symbolizer& symbolizer) override {
    collect::StopContentionProfile(kind_.profile);
    const int64_t duration = window_.ElapsedNanos();
    aggregate::ContentionProfileBuilder builder(symbolizer);
    collect::ForEachContentionEvent(kind_.profile, [&](const collect::ContentionEvent& event) {
      builder.AddEvent(event.stack, collect::WaitKindName(event.kind), event.contentions,
                       event.delay_ns, labels.LabelOf(event.segment));
    });
    const collect::ContentionStats stats = collect::GetContentionStats(kind_.profile);
    std::vector<std::string> comments = {std::string(kind_.scope_comment), RateComment()};
    for (std::string& comment : InterruptionComments(ending)) comments.push_back(comment);
    const encode::ProfileData profile =
        builder.Build(window_.start_unix_nanos, duration,
                      {stats.dropped_table_full, stats.unattributed_waits}, std::move(comments));
    return WriteProfile(profile, *file_, kind_.traits.output_flag, kind_.what, stats.recorded,
                        stats.dropped_table_full + stats.unattributed_waits);
  }

 private:
  std::string RateComment() const {
    const std::string flag = "--" + std::string(kind_.rate_flag) + "=" + std::to_string(rate_);
    if (rate_ == 0) return "benchprof: " + flag + ": nothing was recorded";
    if (rate_ == 1) return "benchprof: every event was recorded (" + flag + "): values are exact";
    return "benchprof: " + flag + ": values are estimates, scaled as Go scales them";
  }

  const ContentionKind& kind_;
  std::string path_;
  int64_t rate_ = 1;
  std::optional<AtomicFile> file_;
  ProfileWindow window_;
};

}  // namespace

std::unique_ptr<Profile> MakeBlockProfile() {
  return std::make_unique<ContentionProfileKind>(kBlock);
}

std::unique_ptr<Profile> MakeMutexProfile() {
  return std::make_unique<ContentionProfileKind>(kMutex);
}

}  // namespace benchprof::profiles
