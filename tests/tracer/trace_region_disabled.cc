// The region benchmark compiled with BENCHPROF_TRACE_DISABLED (see
// trace_region_benchmark.cc): what is left of an annotation compiled out.
#include <benchmark/benchmark.h>

#include "benchprof/trace.h"

#ifndef BENCHPROF_TRACE_DISABLED
#error "this file must be compiled with BENCHPROF_TRACE_DISABLED"
#endif

namespace {

void BM_Region_CompiledOut(benchmark::State& state) {
  for (auto _ : state) {
    benchprof::Region region = benchprof::StartRegion("Work");
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Region_CompiledOut);

// The loop alone, for reference.
void BM_EmptyLoop(benchmark::State& state) {
  for (auto _ : state) benchmark::ClobberMemory();
}
BENCHMARK(BM_EmptyLoop);

}  // namespace
