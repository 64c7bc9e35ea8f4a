// Seeded synthetic series for the change-point tests: normal noise from our
// own Box-Muller over std::mt19937_64 (whose output the standard fixes), so
// the series are the same with every standard library.
//
//   NormalNoise noise(42);
//   Series s = TimeSeries(StepLevels(150, 1000, 75, 1050), 0.01, noise);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TESTS_TOOLS_HISTORY_SYNTHETIC_SERIES_H_
#define BENCHPROF_TESTS_TOOLS_HISTORY_SYNTHETIC_SERIES_H_

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tools/history/series.h"

namespace benchprof::history::testing {

class NormalNoise {
 public:
  explicit NormalNoise(uint64_t seed) : engine_(seed) {}

  // A standard normal deviate.
  double Next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    // Uniform in (0, 1]: 53 random bits, never 0 (log(0) is -inf).
    const double u1 = static_cast<double>((engine_() >> 11) + 1) * 0x1.0p-53;
    const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    const double radius = std::sqrt(-2 * std::log(u1));
    spare_ = radius * std::sin(2 * M_PI * u2);
    has_spare_ = true;
    return radius * std::cos(2 * M_PI * u2);
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0;
  bool has_spare_ = false;
};

// n levels: `before` up to index `step`, `after` from it.
inline std::vector<double> StepLevels(size_t n, double before, size_t step, double after) {
  std::vector<double> levels(n, before);
  for (size_t i = step; i < n; ++i) levels[i] = after;
  return levels;
}

// A series whose point i has median levels[i] * (1 + relative_noise * z),
// commit "c<i>", run id i + 1.
inline Series MakeSeries(const std::vector<double>& levels, double relative_noise,
                         NormalNoise* noise, results::MetricInfo info) {
  Series s;
  s.key =
      SeriesKey{"BM_Synthetic", info.kind == results::MetricKind::kTime ? "cpu_time" : "allocs/op",
                "ci", "main"};
  s.info = info;
  for (size_t i = 0; i < levels.size(); ++i) {
    SeriesPoint p;
    p.run_id = static_cast<int64_t>(i + 1);
    p.commit = "c" + std::to_string(i);
    p.median = levels[i] * (1 + (noise != nullptr ? relative_noise * noise->Next() : 0));
    p.values = {p.median};
    s.points.push_back(std::move(p));
  }
  return s;
}

inline results::MetricInfo TimeInfo() {
  return {"ns/op", results::MetricKind::kTime, false, false};
}
inline results::MetricInfo AllocsInfo() {
  return {"allocs/op", results::MetricKind::kExact, false, false};
}

}  // namespace benchprof::history::testing

#endif  // BENCHPROF_TESTS_TOOLS_HISTORY_SYNTHETIC_SERIES_H_
