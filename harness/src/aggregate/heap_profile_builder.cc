#include "aggregate/heap_profile_builder.h"

#include <cmath>
#include <utility>

namespace benchprof::aggregate {

using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileSample;

namespace {

constexpr char kLostTableFull[] = "[benchprof] lost samples: heap sample table full";

}  // namespace

HeapEstimate UnsampleHeap(uint64_t objects, uint64_t bytes, int64_t rate) {
  if (objects == 0 || bytes == 0) return {};
  if (rate <= 1) return {static_cast<int64_t>(objects), static_cast<int64_t>(bytes)};
  const double average_size = static_cast<double>(bytes) / static_cast<double>(objects);
  const double scale = 1 / (1 - std::exp(-average_size / static_cast<double>(rate)));
  return {static_cast<int64_t>(static_cast<double>(objects) * scale),
          static_cast<int64_t>(static_cast<double>(bytes) * scale)};
}

HeapProfileBuilder::HeapProfileBuilder(int64_t rate, Symbolizer& symbolizer)
    : rate_(rate), stacks_(symbolizer) {}

void HeapProfileBuilder::AddBucket(std::span<const uintptr_t> stack, uint64_t size, uint64_t allocs,
                                   uint64_t frees, const RunLabel& label) {
  Counts& counts = counts_by_key_[{stacks_.Locations(stack, /*leaf_is_pc=*/false), size, label}];
  counts.allocs += allocs;
  counts.frees += frees;
}

ProfileData HeapProfileBuilder::Build(int64_t start_unix_nanos, int64_t duration_nanos,
                                      const LostHeapSamples& lost,
                                      std::vector<std::string> comments) {
  ProfileData profile;
  profile.sample_types = {{"alloc_objects", "count"},
                          {"alloc_space", "bytes"},
                          {"inuse_objects", "count"},
                          {"inuse_space", "bytes"}};
  profile.period_type = {"space", "bytes"};
  profile.period = rate_;
  profile.default_sample_type = "alloc_space";
  profile.time_nanos = start_unix_nanos;
  profile.duration_nanos = duration_nanos;
  profile.comments = std::move(comments);

  for (const auto& [key, counts] : counts_by_key_) {
    const auto& [locations, size, label] = key;
    // A free can only be counted for an allocation that was.
    const uint64_t in_use = counts.frees < counts.allocs ? counts.allocs - counts.frees : 0;
    const HeapEstimate allocated = UnsampleHeap(counts.allocs, counts.allocs * size, rate_);
    const HeapEstimate live = UnsampleHeap(in_use, in_use * size, rate_);
    ProfileSample sample;
    sample.location_indexes = locations;
    sample.values = {allocated.objects, allocated.bytes, live.objects, live.bytes};
    sample.labels.push_back(ProfileLabel{"bytes", "", static_cast<int64_t>(size), "bytes"});
    AppendRunLabels(label, sample.labels);
    profile.samples.push_back(std::move(sample));
  }
  if (lost.objects > 0) {
    const HeapEstimate allocated = UnsampleHeap(lost.objects, lost.bytes, rate_);
    profile.samples.push_back(ProfileSample{
        {stacks_.PseudoLocation(kLostTableFull)}, {allocated.objects, allocated.bytes, 0, 0}, {}});
  }
  stacks_.MoveInto(profile);
  return profile;
}

}  // namespace benchprof::aggregate
