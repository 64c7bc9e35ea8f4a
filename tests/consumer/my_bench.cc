// A user's benchmarks: one unaware of benchprof (one 24-byte allocation per
// iteration), one annotated with the trace API.
#include <benchmark/benchmark.h>
#include <benchprof/trace.h>

static void BM_UserAllocates(benchmark::State& state) {
  for (auto _ : state) {
    char* p = new char[24];
    benchmark::DoNotOptimize(p);
    delete[] p;
  }
}
BENCHMARK(BM_UserAllocates);

static void BM_UserTraced(benchmark::State& state) {
  for (auto _ : state) {
    benchprof::Task task = benchprof::NewTask("user-request");
    benchprof::Region region = benchprof::StartRegion(task, "user-step");
    benchmark::DoNotOptimize(task.id());
  }
}
BENCHMARK(BM_UserTraced)->Iterations(100);
