// BM_Leaky: a request handler that looks up each request's session in a
// cache; every request brings a new session id. With the unbounded cache
// the sessions pile up (`--memprofile`, then `go tool pprof
// -sample_index=inuse_space` shows them held by LoadSession), with the LRU
// cache the same work keeps a constant 1024 sessions, freed at the end of
// each run. A fixed number of iterations bounds what the leak holds (about
// 17 MB).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "leak/session_cache.h"

namespace benchprof::leak {
namespace {

constexpr int kIterations = 50'000;
constexpr size_t kLruCapacity = 1024;

// Serves one request: the session's roles, as a handler would check them.
size_t HandleRequest(SessionCache& cache, unsigned long request) {
  char id[32];
  std::snprintf(id, sizeof id, "session-%010lu", request);
  return cache.Get(id).roles.size();
}

void BM_Leaky(benchmark::State& state) {
  // The unbounded cache lives as long as the process, like a server's.
  static SessionCache* const forever = new SessionCache(0);
  static unsigned long next_request = 0;
  SessionCache lru(kLruCapacity);
  SessionCache& cache = state.range(0) == 0 ? *forever : lru;
  for (auto _ : state) benchmark::DoNotOptimize(HandleRequest(cache, next_request++));
  state.counters["cached"] = static_cast<double>(cache.size());
}
BENCHMARK(BM_Leaky)->ArgName("lru")->Arg(0)->Arg(kLruCapacity)->Iterations(kIterations);

}  // namespace
}  // namespace benchprof::leak
