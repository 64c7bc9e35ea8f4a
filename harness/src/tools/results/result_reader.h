// Turns result files — Google Benchmark JSON or Go benchmark text — into one
// model for comparison: for each benchmark, for each metric, the values of
// its raw repetitions.
//
// Google Benchmark JSON (1.7.1 to 1.9.x): every measured "iteration" row is
// one sample; real_time and cpu_time become metrics "real_time" and
// "cpu_time" in ns/op, every user counter (allocs/op, B/op, ...) a metric of
// its own name. Aggregate rows (_mean, _median, ...) are ignored, except
// that a benchmark with no raw repetition in a file (written with
// --benchmark_report_aggregates_only) contributes its median as one sample,
// with a warning. Failed rows (SkipWithError) are left out with a warning;
// skipped rows (SkipWithMessage) are left out and listed in `skipped`, as
// they are neither failures nor measurements. Go text: every result line is
// one sample; each unit ("ns/op", "B/op", "allocs/op", custom units) is a
// metric.
//
// Several files for one side (e.g. one per round of an interleaved run) are
// merged: samples of the same benchmark and metric are pooled.
//
//   StatusOr<ResultSet> base = ReadResultFiles({"base.json"});
//   if (!base.ok()) { Fail(base.status().message()); }  // "base.json: line 3, ..."
//   for (const BenchmarkSamples& b : base->benchmarks) ... b.metrics ...
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_TOOLS_RESULTS_RESULT_READER_H_
#define BENCHPROF_TOOLS_RESULTS_RESULT_READER_H_

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/status.h"
#include "tools/results/gbench_json.h"

namespace benchprof::results {

// The counter bench --instructions writes, and the context key that marks
// its runs' times as not comparable (measured under Valgrind): such a file's
// cpu_time and real_time are left out, with a warning.
inline constexpr char kInstructionsMetric[] = "instructions/op";
inline constexpr char kTimingsContextKey[] = "benchprof_timings";

// How a metric's values behave, which decides how it is compared.
enum class MetricKind {
  kTime,     // noisy time per operation: compared statistically
  kExact,    // deterministic counts (allocs/op, B/op): compared exactly when constant
  kCounter,  // other user counters: compared statistically, informational by default
};

struct MetricInfo {
  std::string unit;  // what one value is in, e.g. "ns/op", "allocs/op"
  MetricKind kind = MetricKind::kCounter;
  bool higher_is_better = false;  // e.g. bytes_per_second, MB/s
  // An exact metric whose repetitions may differ by a per-run constant
  // spread over the iterations (instructions/op): the exact rule compares
  // its medians even when the values are not constant.
  bool exact_medians = false;
};

// The samples of one benchmark.
struct BenchmarkSamples {
  std::string name;  // Google Benchmark run name, or the Go name without "Benchmark"
  // The metric the benchmark's "time" means: "cpu_time", or "real_time" when
  // the benchmark uses real or manual time; "ns/op" in Go text; "" if none.
  std::string time_metric;
  // Metric name -> values, in the order metrics were first seen.
  std::vector<std::pair<std::string, std::vector<double>>> metrics;

  // The values of `metric`, or nullptr.
  const std::vector<double>* Find(std::string_view metric) const;
};

enum class InputFormat { kUnknown, kGoogleBenchmarkJson, kGoText };

// The name of a format for messages: "Google Benchmark JSON", "Go benchmark text".
std::string_view FormatName(InputFormat format);

// A benchmark that skipped itself in one file.
struct SkipInFile {
  std::string file;
  SkippedBenchmark skip;
};

// All samples of one side of a comparison.
struct ResultSet {
  InputFormat format = InputFormat::kUnknown;
  std::vector<std::string> files;
  // The Google Benchmark version that wrote each file (GbenchVersion), in
  // the order of `files`; "" where unknown, always for Go text.
  std::vector<std::string> gbench_versions;
  std::vector<BenchmarkSamples> benchmarks;                 // in first-seen order
  std::map<std::string, MetricInfo> metrics;                // every metric seen
  std::vector<std::pair<std::string, std::string>> config;  // e.g. host_name, num_cpus
  // Every member of the Google Benchmark files' "context" (strings as they
  // are, other values as JSON), the first file's value of each key, in
  // first-seen order; `benchprof history` reads the commit, branch, compiler
  // and library version from it. Empty for Go text (see `config`).
  std::vector<std::pair<std::string, std::string>> context;
  std::vector<std::string> warnings;                        // "base.json: BM_Foo: ..."
  std::vector<SkipInFile> skipped;                          // in file order

  // The benchmark named `name`, or nullptr.
  const BenchmarkSamples* Find(std::string_view name) const;

  // Internal: index of benchmarks by name.
  std::unordered_map<std::string, size_t> index;
};

// Detects the format of `contents` (JSON if the first non-space byte is '{')
// and adds its samples to `set`. `path` names the file in messages. Fails on
// an empty file, a binary file, a parse error, a file with no benchmark
// results (a JSON file whose rows all failed; one whose benchmarks all
// skipped themselves is read, with no samples), and a file whose format
// differs from the files already in `set`.
Status AddResultText(const std::string& path, std::string_view contents, ResultSet& set);

// Reads and merges the files. Fails on the first unreadable or bad file; the
// message starts with its path. A regular file is read whatever its size;
// a pipe, a FIFO or a device is read up to 64 MiB, as it might never end.
StatusOr<ResultSet> ReadResultFiles(const std::vector<std::string>& paths);

// Reads the Google Benchmark JSON file at `path` as it streams in (memory:
// the rows, not the text). Fails, naming the file, on an unreadable, empty
// or binary file, on one that is not JSON ("not Google Benchmark JSON
// (<if_not_json>)"), and as ParseGbenchJson does.
StatusOr<GbenchResults> ReadGbenchFile(const std::string& path, std::string_view if_not_json);

}  // namespace benchprof::results

#endif  // BENCHPROF_TOOLS_RESULTS_RESULT_READER_H_
