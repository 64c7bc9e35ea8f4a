// Benchmarks for the Elvis stream workload (Go's BenchmarkAlgorithmOne/Two).
// Both run on the 119-byte table stream with a reserved output string, so the
// only allocations inside the timed loop are AlgOne's own.

#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

#include "stream/stream.h"

namespace benchprof::stream {
namespace {

using Algorithm = void (*)(std::string_view data, std::string_view find, std::string_view repl,
                           std::string& output);

// Go's benchmark loop: reset the output buffer, replace, repeat. A template
// argument, so the call is as direct as in Go.
template <Algorithm kAlgorithm>
void RunOnTableStream(benchmark::State& state) {
  const std::string input = AssembleInputStream();
  std::string out;
  out.reserve(input.size() * 2);
  for (auto _ : state) {
    out.clear();
    kAlgorithm(input, "elvis", "Elvis", out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(input.size()));
}

// The naive version: two heap allocations and a virtual call per byte each call.
void BM_AlgorithmOne(benchmark::State& state) { RunOnTableStream<&AlgOne>(state); }
BENCHMARK(BM_AlgorithmOne);

// The fast version: a stack reader and a matched-prefix index; never allocates.
void BM_AlgorithmTwo(benchmark::State& state) { RunOnTableStream<&AlgTwo>(state); }
BENCHMARK(BM_AlgorithmTwo);

}  // namespace
}  // namespace benchprof::stream
