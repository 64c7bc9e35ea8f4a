// A CPU profile with a chosen number of distinct stacks, for the flame
// graph's cost and scale tests: 2,000 functions with C++-length names, each
// calling 6 others, stacks 8 to 40 frames deep walked from `main`, sample
// counts 1 to 100, labelled with one of `benchmarks` benchmark names.
// Deterministic (its own generator), so sizes are reproducible.
#ifndef BENCHPROF_TESTS_SUPPORT_SYNTHETIC_PROFILE_H_
#define BENCHPROF_TESTS_SUPPORT_SYNTHETIC_PROFILE_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "encode/profile_data.h"

namespace benchprof::testing {

inline encode::ProfileData SyntheticCpuProfile(size_t stacks, int benchmarks = 1) {
  uint64_t state = 0x9e3779b97f4a7c15u;
  const auto next = [&state](uint64_t n) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % n;
  };
  encode::ProfileData p;
  p.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  p.period_type = {"cpu", "nanoseconds"};
  p.period = 10'000'000;
  constexpr size_t kFunctions = 2000;
  for (size_t i = 0; i < kFunctions; ++i) {
    const std::string name = i == 0 ? "main"
                                    : "project::module" + std::to_string(i % 37) +
                                          "::(anonymous namespace)::Function" + std::to_string(i);
    p.functions.push_back({name, "_Z" + std::to_string(i),
                           "/src/project/module" + std::to_string(i % 37) + ".cc",
                           static_cast<int64_t>(10 + i)});
    p.locations.push_back({0x1000 + 16 * i, std::nullopt, {{i, static_cast<int64_t>(12 + i)}}});
  }
  std::set<std::vector<size_t>> seen;
  while (seen.size() < stacks) {
    std::vector<size_t> stack = {0};  // root first
    const size_t depth = 8 + next(33);
    while (stack.size() < depth) {
      stack.push_back(1 + (stack.back() * 7919 + 104729 * (1 + next(6))) % (kFunctions - 1));
    }
    if (!seen.insert(stack).second) continue;
    encode::ProfileSample sample;
    sample.location_indexes.assign(stack.rbegin(), stack.rend());  // leaf first
    const int64_t count = 1 + static_cast<int64_t>(next(100));
    sample.values = {count, count * p.period};
    sample.labels.push_back(
        {"benchmark", "BM_Synthetic/" + std::to_string(seen.size() % benchmarks), 0, ""});
    p.samples.push_back(std::move(sample));
  }
  return p;
}

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_SYNTHETIC_PROFILE_H_
