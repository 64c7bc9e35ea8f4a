// Benchmarks for the Elvis stream workload (Go's BenchmarkAlgorithmOne/Two).
// Both run on the 119-byte table stream with a reserved output string, so the
// only allocations inside the timed loop are algOne's own.

#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

#include "stream/stream.h"

namespace benchprof::stream {
namespace {

// Go's benchmark loop: reset the output buffer, replace, repeat. `replace`
// is a lambda calling the algorithm, so the call is as direct as in Go and
// this template's name does not contain the algorithm's: `-list algOne`
// lists algOne alone.
template <typename Replace>
void RunOnTableStream(benchmark::State& state, Replace replace) {
  const std::string input = AssembleInputStream();
  std::string out;
  out.reserve(input.size() * 2);
  for (auto _ : state) {
    out.clear();
    replace(input, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(input.size()));
}

// The naive version: two heap allocations and a virtual call per byte each call.
void BM_AlgorithmOne(benchmark::State& state) {
  RunOnTableStream(state, [](std::string_view input, std::string& out) {
    algOne(input, "elvis", "Elvis", out);
  });
}
BENCHMARK(BM_AlgorithmOne);

// The fast version: a stack reader and a matched-prefix index; never allocates.
void BM_AlgorithmTwo(benchmark::State& state) {
  RunOnTableStream(state, [](std::string_view input, std::string& out) {
    algTwo(input, "elvis", "Elvis", out);
  });
}
BENCHMARK(BM_AlgorithmTwo);

}  // namespace
}  // namespace benchprof::stream
