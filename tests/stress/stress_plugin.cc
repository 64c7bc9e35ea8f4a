// Benchmark code in a shared library that stress_fixture_bench dlopen()s
// and dlclose()s while it is being profiled: its frames must still be
// symbolized in the profiles.
#include <cstdint>
#include <string>
#include <vector>

namespace {

// Kept out of line so that it is a frame of its own in every stack.
[[gnu::noinline]] uint64_t StressPluginMix(uint64_t x) {
  for (int i = 0; i < 2000; ++i) x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

}  // namespace

// Work of about 10 µs: allocations (heap and trace) and CPU (CPU profile).
extern "C" [[gnu::noinline]] uint64_t stress_plugin_work(uint64_t seed) {
  std::vector<std::string> words;
  for (int i = 0; i < 4; ++i) words.push_back(std::string(40, static_cast<char>('a' + i)));
  uint64_t x = StressPluginMix(seed + words.size());
  return x ^ words.back().size();
}
