#include "session/shard_run.h"

#include <benchmark/benchmark.h>

#include <regex>
#include <sstream>
#include <string_view>

// Defined by the library (benchmark.cc); not in its public header.
namespace benchmark {
extern std::string FLAGS_benchmark_out;
extern bool FLAGS_benchmark_list_tests;
}  // namespace benchmark

namespace benchprof::session {
namespace {

// Every instance the current filter selects, one name per line as the
// library lists them; fails if a name spans lines.
StatusOr<std::vector<std::string>> ListSelected() {
  std::ostringstream listed;
  std::ostringstream errors;  // "Failed to match any benchmarks": the real run says it
  benchmark::ConsoleReporter reporter(benchmark::ConsoleReporter::OO_None);
  reporter.SetOutputStream(&listed);
  reporter.SetErrorStream(&errors);
  // Listing writes no file: --benchmark_out would be opened (and emptied).
  const std::string out = benchmark::FLAGS_benchmark_out;
  const bool list_tests = benchmark::FLAGS_benchmark_list_tests;
  benchmark::FLAGS_benchmark_out.clear();
  benchmark::FLAGS_benchmark_list_tests = true;
  const size_t count = benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::FLAGS_benchmark_out = out;
  benchmark::FLAGS_benchmark_list_tests = list_tests;

  std::vector<std::string> names;
  const std::string text = listed.str();
  std::string_view rest = text;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    names.emplace_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  if (names.size() != count) {
    return Status::Error(
        "--shard: a benchmark's name holds a line break, so no filter can "
        "select it");
  }
  return names;
}

}  // namespace

StatusOr<ShardPlan> PlanShard(const cli::Shard& shard) {
  StatusOr<std::vector<std::string>> listed = ListSelected();
  if (!listed.ok()) return listed.status();
  ShardPlan plan;
  plan.names = cli::NamesInShard(*listed, shard);
  plan.selected = cli::NamesInShard(*listed, cli::Shard{0, 1}).size();
  if (plan.names.empty()) return plan;
  plan.filter = cli::ExactNamesFilter(plan.names);
  // As the library compiles it; the one limit is the number of states
  // (libstdc++'s _GLIBCXX_REGEX_STATE_LIMIT), about one per byte.
  try {
    std::regex compiled(plan.filter, std::regex::extended);
  } catch (const std::regex_error& e) {
    return Status::Error("--shard=" + shard.Name() + ": the filter for its " +
                         std::to_string(plan.names.size()) +
                         " benchmarks is more than a regular expression can hold (" + e.what() +
                         "); use more shards");
  }
  return plan;
}

}  // namespace benchprof::session
