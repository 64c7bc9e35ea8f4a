#include "tools/gate/explaining_runs.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "tools/flamegraph/profile_input.h"
#include "tools/results/result_reader.h"
#include "tools/text_format.h"

namespace benchprof::gate {
namespace {

// CPU profiles are taken at the kernel's tick: a faster rate adds weight
// (the timer's overrun), not information, and the noise test counts
// samples.
constexpr int kCpuProfileHz = 250;
constexpr double kFirstProfileSeconds = 1.0;

// The iterations of the reported run named `benchmark` in a result file.
StatusOr<uint64_t> IterationsOf(const std::string& results, const std::string& benchmark) {
  StatusOr<results::GbenchResults> read = results::ReadGbenchFile(results, "written by the gate");
  if (!read.ok()) return read.status();
  for (const results::GbenchRow& row : read->rows) {
    if (!row.aggregate && row.measured() && row.run_name == benchmark && row.iterations > 0) {
      return static_cast<uint64_t>(row.iterations);
    }
  }
  return Status::Error(results + ": no run of " + benchmark);
}

std::string Seconds(double seconds) { return tools::StringPrintf("%.3f", seconds); }

Explanation Unexplained(const std::string& benchmark, const std::string& metric,
                        const std::string& why) {
  Explanation e;
  e.benchmark = benchmark;
  e.metric = metric;
  e.unexplained = why;
  return e;
}

}  // namespace

std::string CallgrindFileOf(const std::string& dir, const std::string& benchmark) {
  std::string name = benchmark;
  std::replace(name.begin(), name.end(), '/', '.');
  return dir + "/callgrind.out." + name;
}

ExplainingRuns::ExplainingRuns(const SideRunner& runner, Side base, Side head,
                               int64_t max_profile_ns,
                               std::function<void(const std::string&)> progress)
    : runner_(runner),
      base_(std::move(base)),
      head_(std::move(head)),
      max_profile_ns_(max_profile_ns),
      progress_(std::move(progress)) {}

StatusOr<ExplainingRuns::ProfiledPair> ExplainingRuns::ProfileBoth(
    const std::string& benchmark, const std::string& kind, const std::string& profile_flag,
    const std::vector<std::string>& base_flags, const std::vector<std::string>& head_flags) {
  const std::string tag = kind + "-" + std::to_string(++runs_);
  ProfiledPair pair;
  pair.profiles.benchmark = benchmark;
  for (const bool is_head : {false, true}) {
    const Side& side = is_head ? head_ : base_;
    const std::string profile = runner_.PathFor(side, tag, ".pprof");
    std::vector<std::string> flags = {"--benchmark_filter=" + ExactFilter(benchmark),
                                      "--benchmark_repetitions=1",
                                      "--" + profile_flag + "=" + profile};
    const std::vector<std::string>& own = is_head ? head_flags : base_flags;
    flags.insert(flags.end(), own.begin(), own.end());
    progress_("profiling " + tools::OneLine(benchmark) + " (" + kind + "): " + side.name);
    StatusOr<std::string> results = runner_.Run(side, tag, flags);
    if (!results.ok()) return results.status();
    StatusOr<uint64_t> iterations = IterationsOf(*results, benchmark);
    if (!iterations.ok()) return iterations.status();
    StatusOr<encode::ProfileData> read = flamegraph::ReadProfileFile(profile);
    if (!read.ok()) return read.status();
    (is_head ? pair.head_iterations : pair.base_iterations) = *iterations;
    (is_head ? pair.profiles.head_path : pair.profiles.base_path) = profile;
    (is_head ? pair.profiles.head : pair.profiles.base) = std::move(*read);
  }
  return pair;
}

std::vector<Explanation> ExplainingRuns::Allocations(const std::string& benchmark,
                                                     const std::vector<std::string>& metrics) {
  // The fewest iterations the benchmark allows: every allocation is
  // recorded, and one iteration names every site.
  const std::vector<std::string> flags = {"--memprofilerate=1", "--benchmark_min_time=1e-9"};
  StatusOr<ProfiledPair> pair = ProfileBoth(benchmark, "heap", "memprofile", flags, flags);
  std::vector<Explanation> explanations;
  for (const std::string& metric : metrics) {
    if (!pair.ok()) {
      explanations.push_back(
          Unexplained(benchmark, metric, "profiling failed: " + pair.status().message()));
      continue;
    }
    explanations.push_back(ExplainAllocations(
        pair->profiles.base, pair->profiles.head, benchmark, pair->base_iterations,
        pair->head_iterations,
        metric == "B/op" ? AllocationMetric::kBytes : AllocationMetric::kObjects));
  }
  if (pair.ok()) heap_profiles_.push_back(std::move(pair->profiles));
  return explanations;
}

Explanation ExplainingRuns::Time(const std::string& benchmark, double slowdown) {
  const double limit = static_cast<double>(max_profile_ns_) / 1e9;
  double seconds = std::min(kFirstProfileSeconds, limit / std::max(slowdown, 1.0));
  std::optional<ProfiledPair> last;
  Explanation explanation;
  for (;;) {
    const std::vector<std::string> base_flags = {
        "--cpuprofilerate=" + std::to_string(kCpuProfileHz),
        "--benchmark_min_time=" + Seconds(seconds)};
    // The head is slower: it runs longer, so both sides do about the same
    // number of iterations.
    const std::vector<std::string> head_flags = {
        "--cpuprofilerate=" + std::to_string(kCpuProfileHz),
        "--benchmark_min_time=" + Seconds(seconds * std::max(slowdown, 1.0))};
    StatusOr<ProfiledPair> pair =
        ProfileBoth(benchmark, "cpu", "cpuprofile", base_flags, head_flags);
    if (!pair.ok())
      return Unexplained(benchmark, "time", "profiling failed: " + pair.status().message());
    explanation = ExplainTime(pair->profiles.base, pair->profiles.head, benchmark,
                              pair->base_iterations, pair->head_iterations);
    const bool same_work = last && last->base_iterations == pair->base_iterations;
    last = std::move(*pair);
    if (explanation.unexplained.empty() || same_work) break;  // explained, or cannot grow
    const double head_seconds = seconds * std::max(slowdown, 1.0);
    if (head_seconds >= limit * 0.99) break;
    // The change over its noise grows with the square root of the samples:
    // four times as long doubles it.
    seconds = std::min(limit / std::max(slowdown, 1.0), seconds * 4);
  }
  cpu_profiles_.push_back(std::move(last->profiles));
  return explanation;
}

Explanation ExplainingRuns::Instructions(const std::string& benchmark,
                                         const std::string& base_callgrind_dir,
                                         const std::string& head_callgrind_dir) {
  StatusOr<CallgrindProfile> base =
      ReadCallgrindFile(CallgrindFileOf(base_callgrind_dir, benchmark));
  if (!base.ok()) return Unexplained(benchmark, "instructions/op", base.status().message());
  StatusOr<CallgrindProfile> head =
      ReadCallgrindFile(CallgrindFileOf(head_callgrind_dir, benchmark));
  if (!head.ok()) return Unexplained(benchmark, "instructions/op", head.status().message());
  return ExplainInstructions(*base, *head, benchmark);
}

}  // namespace benchprof::gate
