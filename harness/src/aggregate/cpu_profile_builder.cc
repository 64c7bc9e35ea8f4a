#include "aggregate/cpu_profile_builder.h"

#include <utility>

namespace benchprof::aggregate {

using encode::ProfileData;
using encode::ProfileSample;

namespace {

constexpr char kTruncatedFrame[] = "[benchprof] truncated stack (unwinding failed)";
constexpr char kLostBufferFull[] = "[benchprof] lost samples: sample buffer full";
constexpr char kLostReentrant[] = "[benchprof] lost samples: signal while unwinding";

}  // namespace

CpuProfileBuilder::CpuProfileBuilder(int hz, Symbolizer& symbolizer)
    : period_(1'000'000'000 / hz), stacks_(symbolizer) {}

void CpuProfileBuilder::AddSample(std::span<const uintptr_t> stack, uint64_t weight,
                                  const RunLabel& label, bool truncated) {
  std::vector<size_t> locations = stacks_.Locations(stack, /*leaf_is_pc=*/true);
  if (truncated) locations.push_back(stacks_.PseudoLocation(kTruncatedFrame));
  weight_by_stack_[{std::move(locations), label}] += weight;
}

ProfileData CpuProfileBuilder::Build(int64_t start_unix_nanos, int64_t duration_nanos,
                                     const LostSamples& lost, std::vector<std::string> comments) {
  const RunLabel no_label;
  if (lost.buffer_full > 0) {
    weight_by_stack_[{{stacks_.PseudoLocation(kLostBufferFull)}, no_label}] += lost.buffer_full;
  }
  if (lost.reentrant > 0) {
    weight_by_stack_[{{stacks_.PseudoLocation(kLostReentrant)}, no_label}] += lost.reentrant;
  }

  ProfileData profile;
  stacks_.MoveInto(profile);
  profile.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  profile.period_type = {"cpu", "nanoseconds"};
  profile.period = period_;
  profile.time_nanos = start_unix_nanos;
  profile.duration_nanos = duration_nanos;
  profile.comments = std::move(comments);

  for (auto& [key, weight] : weight_by_stack_) {
    const auto& [locations, label] = key;
    ProfileSample sample;
    sample.location_indexes = locations;
    sample.values = {static_cast<int64_t>(weight), static_cast<int64_t>(weight) * period_};
    AppendRunLabels(label, sample.labels);
    profile.samples.push_back(std::move(sample));
  }
  return profile;
}

}  // namespace benchprof::aggregate
