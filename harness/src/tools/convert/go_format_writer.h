// Writes Google Benchmark results as Go benchmark text, the format of
// `go test -bench` output that benchstat and other Go tools read
// (`benchprof convert --to=go`).
//
// Each raw repetition becomes one line, its fields separated by tabs and
// padded as `go test` pads them:
//
//   BenchmarkBM_Foo/8-2  123456  863.6 ns/op  812.0 cpu-ns/op  37 B/op  2 allocs/op
//
// Names: "Benchmark" + the run name with Google Benchmark's parts mapped to
// benchfmt's: "threads:N" becomes the trailing "-N" (omitted for 1, as Go
// omits GOMAXPROCS=1), "key:value" parts (named arguments, "iterations:N",
// "repeats:N", "min_time:T") become "key=value", "real_time" and
// "manual_time" become "time=real" and "time=manual", "process_time" becomes
// "cpu=process", other parts stay positional, and spaces and control
// characters become '_'. A name that would end in "-<digits>" without a
// thread count (a negative argument) gets "-1" so readers do not take the
// digits for GOMAXPROCS.
//
// Values: ns/op is real_time per iteration in ns; cpu_time is the extra unit
// "cpu-ns/op"; each user counter is `<value> <name>` with spaces in the
// name made '_', sorted by name; B/op and allocs/op come last, as in Go.
// Configuration lines come from the JSON context: "pkg:" (the executable's
// base name), "benchprof-host:", "benchprof-num-cpus:",
// "benchprof-library-build-type:", and each custom context entry
// (--benchmark_context=key=value) as "key:" made lower case. Values that
// change from run to run (date, load_avg, mhz_per_cpu) or between the two
// sides of an upgrade (library_version, and the google_benchmark_version
// that benchprof's bench adds) would split benchstat's tables, so they go
// into a '#' comment line instead.
//
//   StatusOr<GbenchResults> r = ParseGbenchJson(text);
//   GoTextWriter writer(GoFormatOptions{});
//   writer.Add("results.json", *r);
//   std::string text = writer.Finish();   // writer.warnings() for skipped rows
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_CONVERT_GO_FORMAT_WRITER_H_
#define BENCHPROF_TOOLS_CONVERT_GO_FORMAT_WRITER_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/results/gbench_json.h"

namespace benchprof::convert {

struct GoFormatOptions {
  // Also write `Unit U assume=exact` for each exact unit the results hold
  // (allocs/op, B/op, instructions/op), so benchstat compares them as
  // exact values.
  bool assume_exact = false;
};

// The Go benchmark name for a Google Benchmark run name, with the
// "Benchmark" prefix; `threads` is the row's thread count.
std::string GoBenchmarkName(std::string_view run_name, int64_t threads);

// A Go unit for a counter name: spaces and control characters become '_'.
std::string GoUnit(std::string_view counter);

// Go's testing.prettyPrint of a value (without the unit): a width and
// precision that depend on the magnitude, e.g. "      1145" or "    863.6".
std::string GoPrettyNumber(double value);

// Accumulates converted files and produces the text.
class GoTextWriter {
 public:
  explicit GoTextWriter(GoFormatOptions options) : options_(options) {}

  // Converts one file's rows. Failed repetitions, repetitions the benchmark
  // skipped (State::SkipWithMessage) and aggregates are left out (a
  // benchmark that has only aggregates contributes its median, with a
  // warning), as are non-finite counter values.
  void Add(const std::string& path, const results::GbenchResults& results);

  // The Go text of everything added, configuration lines first.
  std::string Finish() const;

  // What was left out, one line each ("results.json: BM_Err: 2 of 2
  // repetitions failed (boom); they are ignored", "results.json: BM_Gpu:
  // skipped (no GPU)").
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  // One result line before alignment: the name, and what follows it.
  struct ResultLine {
    std::string name;
    std::string rest;
  };

  // The line for `row` of file `path`. Warns (once per run name and
  // counter, as recorded in `warned`) about counters left out.
  ResultLine FormatRow(const std::string& path, const results::GbenchRow& row,
                       std::set<std::string>& warned);

  GoFormatOptions options_;
  std::string body_;
  std::vector<std::pair<std::string, std::string>> config_;  // in force
  // Which of the exact units (allocs/op, B/op, instructions/op) appear.
  bool has_allocs_ = false, has_bytes_ = false, has_instructions_ = false;
  std::vector<std::string> warnings_;
};

}  // namespace benchprof::convert

#endif  // BENCHPROF_TOOLS_CONVERT_GO_FORMAT_WRITER_H_
