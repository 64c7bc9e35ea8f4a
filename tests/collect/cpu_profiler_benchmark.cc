// What the CPU profiler costs, measured in one run:
//   BM_SampledSpin/hz:N   a CPU-bound loop whose leaf runs 32 frames deep,
//                         with the sampler off (hz:0) or at N Hz; the time
//                         ratio to hz:0 is the overhead, and
//                         (time - time at hz:0) / samples the cost per sample.
//   BM_BuildProfile10kStacks   stop-time work for 10,000 distinct stacks:
//                         symbolize, build the profile, gzip and write it.
//
//   build/release/tests/collect/cpu_profiler_benchmark --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aggregate/cpu_profile_builder.h"
#include "collect/cpu_sampler.h"
#include "encode/pprof_writer.h"

namespace {

[[gnu::noinline]] uint64_t Leaf(uint64_t x) {
  for (int i = 0; i < 200'000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

// 30 frames of recursion plus the benchmark's own: the leaf is ~32 deep.
[[gnu::noinline]] uint64_t Deep(int depth, uint64_t x) {
  uint64_t r = depth == 0 ? Leaf(x) : Deep(depth - 1, x + 1);
  benchmark::DoNotOptimize(r);
  return r + 1;
}

void BM_SampledSpin(benchmark::State& state) {
  const int hz = static_cast<int>(state.range(0));
  if (hz > 0 && !benchprof::collect::StartCpuSampler(hz).ok()) {
    state.SkipWithError("cannot start the sampler");
    return;
  }
  uint64_t x = 1;
  for (auto _ : state) x = Deep(30, x);
  benchmark::DoNotOptimize(x);
  if (hz > 0) {
    benchprof::collect::StopCpuSampler();
    const auto stats = benchprof::collect::GetCpuSamplerStats();
    state.counters["samples"] = static_cast<double>(stats.recorded);
    state.counters["ns/sample"] =
        static_cast<double>(stats.handler_nanos) / static_cast<double>(stats.signals_handled);
  }
}
BENCHMARK(BM_SampledSpin)->ArgName("hz")->Arg(0)->Arg(100)->Arg(1000);

void BM_BuildProfile10kStacks(benchmark::State& state) {
  const std::vector<benchprof::aggregate::LoadedModule> modules =
      benchprof::aggregate::LoadedModules();
  const benchprof::aggregate::LoadedModule& executable = modules.front();
  // Distinct leaves spread over the executable's code, each under the same
  // real 3-frame tail.
  std::vector<std::vector<uintptr_t>> stacks;
  const uint64_t span = executable.limit - executable.start;
  for (uint64_t i = 0; i < 10'000; ++i) {
    stacks.push_back({executable.start + span * i / 10'000, reinterpret_cast<uintptr_t>(&Deep) + 20,
                      reinterpret_cast<uintptr_t>(&Deep) + 20,
                      reinterpret_cast<uintptr_t>(&BM_SampledSpin) + 10});
  }
  const std::string path = "/tmp/benchprof-build-profile-" + std::to_string(getpid()) + ".pprof";
  for (auto _ : state) {
    benchprof::aggregate::Symbolizer symbolizer(benchprof::aggregate::LoadedModules());
    benchprof::aggregate::CpuProfileBuilder builder(100, symbolizer);
    for (const auto& stack : stacks) builder.AddSample(stack, 1, {"BM_X", 1});
    const benchprof::encode::ProfileData profile = builder.Build(0, 0, {});
    if (!benchprof::encode::WriteProfileFile(profile, path).ok())
      state.SkipWithError("write failed");
  }
  unlink(path.c_str());
}
BENCHMARK(BM_BuildProfile10kStacks)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
