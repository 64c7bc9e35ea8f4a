// Reads the JSON that Google Benchmark 1.7.1 through 1.9.x writes
// (--benchmark_out=F --benchmark_out_format=json, or --benchmark_format=json)
// into plain rows, validating what the compare and convert commands rely on.
//
// The versions differ in two ways that matter here. 1.8 added
// State::SkipWithMessage: such a row says "skipped": true and "skip_message",
// and is neither a failure nor a measurement, while State::SkipWithError
// still writes "error_occurred": true and "error_message". 1.9 added
// "library_version" ("v1.9.1") and "json_schema_version" (1) to the context;
// a schema version this reader does not know is refused.
//
// The file is untrusted input: any text yields either the rows or one line
// naming the problem ("benchmarks[3] (BM_Foo): \"real_time\" is a string,
// expected a number"); the caller prefixes the file name. Bare NaN and
// Infinity, which 1.7.1 writes for e.g. the "_cv" aggregate of an all-zero
// counter, are accepted.
//
//   StatusOr<GbenchResults> results = ParseGbenchJson(text);
//   if (!results.ok()) return results.status().WithContext(path);
//   for (const GbenchRow& row : results->rows) {
//     if (row.measured() && !row.aggregate) ... row.run_name, row.cpu_ns ...
//   }
//
// Thread-safety: thread-safe (a pure function).
#ifndef BENCHPROF_TOOLS_RESULTS_GBENCH_JSON_H_
#define BENCHPROF_TOOLS_RESULTS_GBENCH_JSON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/json_tokenizer.h"
#include "common/json_value.h"
#include "common/status.h"

namespace benchprof::results {

// One element of the "benchmarks" array.
struct GbenchRow {
  size_t index = 0;            // position in "benchmarks", for messages
  std::string name;            // "name" (aggregates end in "_mean" etc.)
  std::string run_name;        // "run_name", or "name" when absent
  bool aggregate = false;      // "run_type": "aggregate"
  std::string aggregate_name;  // "mean", "median", "stddev", "cv", "BigO", "RMS", custom
  bool error = false;          // "error_occurred": true (State::SkipWithError)
  std::string error_message;
  // "skipped": true (State::SkipWithMessage, 1.8+). A row that says both
  // "error_occurred" and "skipped" counts as failed.
  bool skipped = false;
  std::string skip_message;
  double iterations = 0;
  int64_t threads = 1;
  // Times per iteration in nanoseconds, converted from "time_unit". Absent
  // (has_times false) on Big-O and RMS rows, which carry coefficients.
  bool has_times = false;
  double real_ns = 0;
  double cpu_ns = 0;
  // Every other numeric member: user counters (allocs/op, B/op,
  // bytes_per_second, ...) and MemoryManager fields, in file order. Values
  // may be NaN or infinite.
  std::vector<std::pair<std::string, double>> counters;
  std::string label;

  // False for failed and skipped rows, whose times mean nothing.
  bool measured() const { return !error && !skipped; }
};

// The highest "json_schema_version" this reader knows.
inline constexpr int64_t kGbenchJsonSchemaVersion = 1;

// A whole result file.
struct GbenchResults {
  // The "context" object's members in file order (empty if absent).
  json::Value::Members context;
  // Context "library_version" as written ("v1.9.1"); "" if absent (1.7.1).
  std::string library_version;
  // Context "google_benchmark_version", which benchprof's binaries write on
  // every version ("1.7.1"); "" if absent.
  std::string google_benchmark_version;
  // Context "json_schema_version"; 0 if absent (1.7.1).
  int64_t json_schema_version = 0;
  std::vector<GbenchRow> rows;
};

// A benchmark that skipped itself (State::SkipWithMessage) in some or all
// of its raw repetitions.
struct SkippedBenchmark {
  std::string run_name;
  std::string message;  // the first skipped repetition's "skip_message"
  int skipped = 0;      // repetitions skipped
  int repetitions = 0;  // raw repetitions in the file, skipped or not
};

// Parses Google Benchmark JSON. Fails on invalid JSON ("line L, column C:
// ..."), on a document without a "benchmarks" array, on a context whose
// "library_version" is not a string or whose "json_schema_version" is not
// an integer from 1 to kGbenchJsonSchemaVersion ("unsupported
// json_schema_version 2 (this benchprof reads 1)") or whose
// "google_benchmark_version" is not a string, and on rows whose fields
// have the wrong type or impossible values (unknown "time_unit", negative or
// non-finite time, missing "name", "skipped" not true or false). Rows that
// report an error or a skip are kept with error or skipped set and their
// times unchecked. Other context members, of any kind, are kept as they are.
StatusOr<GbenchResults> ParseGbenchJson(std::string_view text);

// As ParseGbenchJson, from `tokens` (a fresh tokenizer, e.g. over a file):
// the rows are read one at a time, so memory is the rows kept, never the
// whole document or its text.
StatusOr<GbenchResults> ReadGbenchJson(json::Tokenizer& tokens);

// The rows that are samples of a benchmark's time and counters: every
// measured raw repetition, and for a benchmark with no raw repetition at
// all (a file written with --benchmark_report_aggregates_only) its median
// aggregate, or its mean if it has no median. Skipped rows are not samples
// and not failures (see SkippedBenchmarks). Appends to `notes` one line per
// benchmark that fell back to an aggregate or had failed repetitions
// ("BM_Err: 2 of 2 repetitions failed (boom); they are ignored").
std::vector<const GbenchRow*> SampleRows(const GbenchResults& results,
                                         std::vector<std::string>& notes);

// The benchmarks with skipped raw repetitions, in file order.
std::vector<SkippedBenchmark> SkippedBenchmarks(const GbenchResults& results);

// One line on a skipped benchmark: "BM_Gpu: skipped (no GPU)", or
// "BM_Gpu: 2 of 5 repetitions skipped (no GPU)" when some repetitions ran.
// The parenthesis is left out when the message is empty.
std::string DescribeSkip(const SkippedBenchmark& skip);

// The Google Benchmark version that wrote the file, for display: the
// context's "library_version" without its leading "v" ("1.9.1"), else the
// "google_benchmark_version" that benchprof's own binaries add ("1.7.1"),
// else "" (unknown).
std::string GbenchVersion(const GbenchResults& results);

// Nanoseconds per `unit` ("ns", "us", "ms", "s"), or 0 if unknown.
double NanosecondsPerUnit(std::string_view unit);

// True if the run name says the benchmark's time is wall-clock or manual
// (a "/real_time" or "/manual_time" part, e.g. "BM_Foo/8/real_time/threads:2"),
// so its real_time, not cpu_time, is what the benchmark means by "time".
bool UsesRealTime(std::string_view run_name);

}  // namespace benchprof::results

#endif  // BENCHPROF_TOOLS_RESULTS_GBENCH_JSON_H_
