// A user's benchmark, unaware of benchprof: one 24-byte allocation per
// iteration.
#include <benchmark/benchmark.h>

static void BM_UserAllocates(benchmark::State& state) {
  for (auto _ : state) {
    char* p = new char[24];
    benchmark::DoNotOptimize(p);
    delete[] p;
  }
}
BENCHMARK(BM_UserAllocates);
