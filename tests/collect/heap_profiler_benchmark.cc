// What the heap profiler costs on an allocation-heavy loop: malloc/free and
// new/delete pairs of 16 to 256 bytes, with allocation counting alone
// (sampler off), at Go's default rate (one sample per 512 KiB) and at rate 1
// (every allocation with its stack), in one binary and one run. The targets:
// the default rate at most 3% slower than counting alone; rate 1 at most
// 150 ns more per pair. `deep` runs the same loop 32 frames further down, to
// show how the cost per sample grows with the stack.
//
//   build/release/tests/collect/heap_profiler_benchmark --benchmark_repetitions=10
//       --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "collect/heap_sampler.h"

namespace {

constexpr std::array<size_t, 5> kSizes = {16, 32, 64, 128, 256};

// 0: sampler off; otherwise the rate.
int64_t RateOf(const benchmark::State& state) { return state.range(0); }

[[gnu::noinline]] void MallocFreePairs(benchmark::State& state) {
  size_t next = 0;
  for (auto _ : state) {
    void* p = malloc(kSizes[next]);
    benchmark::DoNotOptimize(p);
    free(p);
    next = next + 1 == kSizes.size() ? 0 : next + 1;
  }
}

[[gnu::noinline]] void NewDeletePairs(benchmark::State& state) {
  size_t next = 0;
  for (auto _ : state) {
    char* p = new char[kSizes[next]];
    benchmark::DoNotOptimize(p);
    delete[] p;
    next = next + 1 == kSizes.size() ? 0 : next + 1;
  }
}

[[gnu::noinline]] void Deeper(benchmark::State& state, int frames) {
  if (frames == 0) return MallocFreePairs(state);
  Deeper(state, frames - 1);
  benchmark::DoNotOptimize(frames);  // not a tail call: every frame stays
}

template <void (*kLoop)(benchmark::State&)>
void RunWithSampler(benchmark::State& state) {
  if (RateOf(state) > 0 && !benchprof::collect::StartHeapSampler(RateOf(state)).ok()) {
    state.SkipWithError("cannot start the heap sampler (no allocator hooks in this build)");
    return;
  }
  kLoop(state);
  benchprof::collect::StopHeapSampler();
}

void DeepLoop(benchmark::State& state) { Deeper(state, 32); }

void ArgsForRates(benchmark::internal::Benchmark* b) {
  b->ArgName("rate")->Arg(0)->Arg(512 * 1024)->Arg(1);
}

BENCHMARK(RunWithSampler<MallocFreePairs>)->Name("BM_MallocFree")->Apply(ArgsForRates);
BENCHMARK(RunWithSampler<NewDeletePairs>)->Name("BM_NewDelete")->Apply(ArgsForRates);
BENCHMARK(RunWithSampler<DeepLoop>)->Name("BM_MallocFreeDeep")->Apply(ArgsForRates);

}  // namespace
