#include "aggregate/contention_profile_builder.h"

#include <cmath>
#include <utility>

namespace benchprof::aggregate {

using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileSample;

namespace {

constexpr char kLostTableFull[] = "[benchprof] lost contention events: table full";
constexpr char kUnattributed[] =
    "[benchprof] lost contention events: waits on a lock whose waiter slot another lock held";

}  // namespace

void ContentionProfileBuilder::AddEvent(std::span<const uintptr_t> stack, const std::string& wait,
                                        double contentions, int64_t delay_ns,
                                        const RunLabel& label) {
  Totals& totals = totals_by_key_[{stacks_.Locations(stack, /*leaf_is_pc=*/false), wait, label}];
  totals.contentions += contentions;
  totals.delay_ns += delay_ns;
}

ProfileData ContentionProfileBuilder::Build(int64_t start_unix_nanos, int64_t duration_nanos,
                                            const LostContentions& lost,
                                            std::vector<std::string> comments) {
  ProfileData profile;
  profile.sample_types = {{"contentions", "count"}, {"delay", "nanoseconds"}};
  profile.period_type = {"contentions", "count"};
  profile.period = 1;
  profile.time_nanos = start_unix_nanos;
  profile.duration_nanos = duration_nanos;
  profile.comments = std::move(comments);

  for (const auto& [key, totals] : totals_by_key_) {
    const auto& [locations, wait, label] = key;
    ProfileSample sample;
    sample.location_indexes = locations;
    sample.values = {std::llround(totals.contentions), totals.delay_ns};
    sample.labels.push_back(ProfileLabel{"wait", wait, 0, ""});
    AppendRunLabels(label, sample.labels);
    profile.samples.push_back(std::move(sample));
  }
  // Their delay is unknown; they show as events.
  for (const auto& [count, name] :
       {std::pair{lost.table_full, kLostTableFull}, std::pair{lost.unattributed, kUnattributed}}) {
    if (count == 0) continue;
    profile.samples.push_back(
        ProfileSample{{stacks_.PseudoLocation(name)}, {static_cast<int64_t>(count), 0}, {}});
  }
  stacks_.MoveInto(profile);
  return profile;
}

}  // namespace benchprof::aggregate
