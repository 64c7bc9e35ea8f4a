#include "tools/history/change_points.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include "tools/history/t_test.h"

namespace benchprof::history {
namespace {

using results::MetricKind;

// As the compare engine decides: an exact metric is compared exactly when
// every run's repetitions agree (or it is one whose medians are exact, as
// instructions/op). A count that varies within runs (allocations of a
// thread pool, say) is statistical: compared exactly, it would change at
// almost every run.
bool IsExact(const Series& series) {
  if (series.info.exact_medians) return true;
  if (series.info.kind != MetricKind::kExact) return false;
  return std::all_of(series.points.begin(), series.points.end(), [](const SeriesPoint& p) {
    return std::adjacent_find(p.values.begin(), p.values.end(), std::not_equal_to<>()) ==
           p.values.end();
  });
}

double MedianOf(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

// The energy statistic of every split of `x` at once. For a split before k,
// with L the sum of |x_i - x_j| over pairs left of it, R over pairs right of
// it and C over pairs across it (each unordered pair once):
//   Q(k) = m n / (m + n) * (2 C / (m n) - 2 L / m^2 - 2 R / n^2).
// L and R grow one element at a time from each end; C is what is left of
// the total, so every Q costs O(1) after O(n^2) distance sums.
class SplitEnergies {
 public:
  explicit SplitEnergies(std::span<const double> x)
      : n_(x.size()), left_(n_ + 1, 0), right_(n_ + 1, 0) {
    // to_earlier[t] = sum over i < t of |x_t - x_i|; to_later the same over i > t.
    std::vector<double> to_earlier(n_, 0), to_later(n_, 0);
    for (size_t t = 0; t < n_; ++t) {
      for (size_t i = 0; i < t; ++i) {
        const double d = std::fabs(x[t] - x[i]);
        to_earlier[t] += d;
        to_later[i] += d;
      }
    }
    for (size_t k = 0; k < n_; ++k) left_[k + 1] = left_[k] + to_earlier[k];
    for (size_t k = n_; k-- > 0;) right_[k] = right_[k + 1] + to_later[k];
    total_ = left_[n_];
  }

  double At(size_t k) const {
    const double m = static_cast<double>(k);
    const double n = static_cast<double>(n_ - k);
    const double across = total_ - left_[k] - right_[k];
    const double divergence =
        2 * across / (m * n) - 2 * left_[k] / (m * m) - 2 * right_[k] / (n * n);
    return m * n / (m + n) * divergence;
  }

 private:
  size_t n_;
  std::vector<double> left_;   // left_[k]: pairs within x[0, k)
  std::vector<double> right_;  // right_[k]: pairs within x[k, n)
  double total_ = 0;
};

TTestResult SidesTest(std::span<const double> before, std::span<const double> after, bool welch,
                      double min_relative_noise) {
  return welch ? WelchTTest(before, after, min_relative_noise)
               : PooledTTest(before, after, min_relative_noise);
}

class StatisticalDetector {
 public:
  StatisticalDetector(std::span<const double> medians, const DetectOptions& options)
      : x_(medians),
        window_(static_cast<size_t>(std::max(options.window, 4))),
        max_p_(options.max_p),
        weak_p_(std::max(options.weak_p, options.max_p)),
        min_segment_(static_cast<size_t>(std::max(options.min_segment, 1))),
        welch_(options.welch),
        min_relative_noise_(options.min_relative_noise) {}

  // The change points' indices and p-values, in index order.
  std::vector<std::pair<size_t, double>> Run() {
    const size_t n = x_.size();
    if (n < 3) return {};
    // Windows half over each other, the last one flush with the end, so
    // that a change anywhere has a quarter window or more on each side in
    // some window (or all the points there are).
    const size_t stride = std::max<size_t>(1, window_ / 2);
    for (size_t start = 0;; start += stride) {
      const size_t end = std::min(n, start + window_);
      Search(start, end);
      if (end == n) break;
      if (start + stride + window_ > n) {
        Search(n - window_, n);
        break;
      }
    }
    std::sort(candidates_.begin(), candidates_.end());
    candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
    return Confirm();
  }

 private:
  // The weak pass over x[lo, hi): the best split, kept and searched around
  // if its sides differ at weak_p.
  void Search(size_t lo, size_t hi) {
    if (hi - lo < 3) return;
    const std::span<const double> segment = x_.subspan(lo, hi - lo);
    const size_t k = BestEnergySplit(segment);
    if (k == 0) return;
    const TTestResult r = SidesTest(segment.first(k), segment.subspan(k), welch_, min_relative_noise_);
    if (!(r.p <= weak_p_)) return;
    candidates_.push_back(lo + k);
    Search(lo, lo + k);
    Search(lo + k, hi);
  }

  // How a candidate fares in the strict pass: its p-value, and whether it
  // stands next to a segment too short to be a level.
  struct Verdict {
    double p = 1;
    bool too_short = false;
  };

  // Candidate i against its neighbours, at most a window a side.
  Verdict Judge(const std::vector<size_t>& kept, size_t i) const {
    const size_t c = kept[i];
    const size_t previous = i == 0 ? 0 : kept[i - 1];
    const size_t next = i + 1 == kept.size() ? x_.size() : kept[i + 1];
    const size_t lo = std::max(previous, c >= window_ ? c - window_ : 0);
    const size_t hi = std::min(next, c + window_);
    const TTestResult r = SidesTest(x_.subspan(lo, c - lo), x_.subspan(c, hi - c), welch_, min_relative_noise_);
    Verdict v;
    // A few runs between two change points are an outlier (a slow runner
    // for a while), not a level; at either end of the series they may be
    // the start of one, and are judged like any other.
    v.too_short =
        (i > 0 && c - previous < min_segment_) || (i + 1 < kept.size() && next - c < min_segment_);
    // The split was chosen as the most divergent of the stretch's hi - lo - 1
    // positions, so its plain p-value flatters it: noise alone makes one of
    // them look significant. Bonferroni's factor pays for the choice.
    v.p = std::isnan(r.p) ? 1 : std::min(1.0, r.p * static_cast<double>(hi - lo - 1));
    return v;
  }

  // The strict pass: drop the least significant candidate while one is above
  // max_p; then, while one stands next to a short segment, the least
  // significant of those (the first in index order on ties). Significance
  // goes first so that of two candidates a run apart (one step seen from two
  // windows) the right one stays.
  std::vector<std::pair<size_t, double>> Confirm() {
    std::vector<size_t> kept = candidates_;
    std::vector<Verdict> verdicts(kept.size());
    for (size_t i = 0; i < kept.size(); ++i) verdicts[i] = Judge(kept, i);
    while (!kept.empty()) {
      // The least significant candidate that `fails`, if any.
      const auto weakest_that = [&](auto fails) {
        std::optional<size_t> weakest;
        for (size_t i = 0; i < kept.size(); ++i) {
          if (fails(verdicts[i]) && (!weakest || verdicts[i].p > verdicts[*weakest].p)) weakest = i;
        }
        return weakest;
      };
      std::optional<size_t> weakest = weakest_that([&](const Verdict& v) { return v.p > max_p_; });
      if (!weakest) weakest = weakest_that([](const Verdict& v) { return v.too_short; });
      if (!weakest) break;
      const size_t w = *weakest;
      kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(w));
      verdicts.erase(verdicts.begin() + static_cast<std::ptrdiff_t>(w));
      // Only the two new neighbours' sides changed.
      if (w > 0) verdicts[w - 1] = Judge(kept, w - 1);
      if (w < kept.size()) verdicts[w] = Judge(kept, w);
    }
    std::vector<std::pair<size_t, double>> out;
    for (size_t i = 0; i < kept.size(); ++i) out.emplace_back(kept[i], verdicts[i].p);
    return out;
  }

  std::span<const double> x_;
  size_t window_;
  double max_p_;
  double weak_p_;
  size_t min_segment_;
  bool welch_;
  double min_relative_noise_;
  std::vector<size_t> candidates_;
};

// The exact rule: every point whose median moved by more than the threshold.
std::vector<size_t> ExactChanges(const Series& series, const DetectOptions& options) {
  const std::optional<compare::Threshold> threshold =
      options.thresholds.Find(series.key.benchmark, series.key.metric, /*is_time_metric=*/false);
  std::vector<size_t> out;
  for (size_t i = 1; i < series.points.size(); ++i) {
    const double before = series.points[i - 1].median;
    const double after = series.points[i].median;
    double allowed = 0;
    if (threshold)
      allowed = threshold->relative ? threshold->value * std::fabs(before) : threshold->value;
    if (std::fabs(after - before) > allowed) out.push_back(i);
  }
  return out;
}

double RelativeChange(double before, double after) {
  if (before == 0) {
    if (after == 0) return 0;
    return after > 0 ? std::numeric_limits<double>::infinity()
                     : -std::numeric_limits<double>::infinity();
  }
  return after / before - 1;
}

}  // namespace

double EnergyStatistic(std::span<const double> x, size_t k) {
  if (k == 0 || k >= x.size()) return 0;
  return SplitEnergies(x).At(k);
}

size_t BestEnergySplit(std::span<const double> x) {
  if (x.size() < 2) return 0;
  const SplitEnergies energies(x);
  size_t best = 1;
  double best_energy = energies.At(1);
  for (size_t k = 2; k < x.size(); ++k) {
    const double e = energies.At(k);
    if (e > best_energy) {
      best = k;
      best_energy = e;
    }
  }
  return best;
}

std::vector<ChangePoint> FindChangePoints(const Series& series, const DetectOptions& options) {
  const std::vector<SeriesPoint>& points = series.points;
  std::vector<double> medians;
  medians.reserve(points.size());
  for (const SeriesPoint& point : points) medians.push_back(point.median);

  std::vector<std::pair<size_t, std::optional<double>>> found;
  const bool exact = IsExact(series);
  if (exact) {
    for (size_t index : ExactChanges(series, options)) found.emplace_back(index, std::nullopt);
  } else {
    for (const auto& [index, p] : StatisticalDetector(medians, options).Run()) {
      found.emplace_back(index, p);
    }
  }

  std::vector<ChangePoint> out;
  out.reserve(found.size());
  for (size_t i = 0; i < found.size(); ++i) {
    const size_t index = found[i].first;
    const size_t previous = i == 0 ? 0 : found[i - 1].first;
    const size_t next = i + 1 == found.size() ? points.size() : found[i + 1].first;
    ChangePoint c;
    c.index = index;
    c.last_good_commit = points[index - 1].commit;
    c.first_bad_commit = points[index].commit;
    const auto at = [&](size_t k) { return medians.begin() + static_cast<std::ptrdiff_t>(k); };
    c.before_median = MedianOf(std::vector<double>(at(previous), at(index)));
    c.after_median = MedianOf(std::vector<double>(at(index), at(next)));
    c.change = RelativeChange(c.before_median, c.after_median);
    c.p = found[i].second;
    c.exact = exact;
    c.regression = series.info.higher_is_better ? c.change < 0 : c.change > 0;
    out.push_back(std::move(c));
  }
  return out;
}

bool NewestIsRegression(const AnalysedSeries& series) {
  const std::vector<ChangePoint>& points = series.change_points;
  if (points.empty()) return false;
  // The last by index, should a caller have reordered them.
  return std::max_element(
             points.begin(), points.end(),
             [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; })
      ->regression;
}

}  // namespace benchprof::history
