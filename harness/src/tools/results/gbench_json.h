// Reads the JSON that Google Benchmark 1.7.1 writes (--benchmark_out=F
// --benchmark_out_format=json, or --benchmark_format=json) into plain rows,
// validating what the compare and convert commands rely on.
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
//     if (!row.aggregate && !row.error) ... row.run_name, row.cpu_ns ...
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
  bool error = false;          // "error_occurred": true
  std::string error_message;
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
};

// A whole result file.
struct GbenchResults {
  // The "context" object's members in file order (empty if absent).
  json::Value::Members context;
  std::vector<GbenchRow> rows;
};

// Parses Google Benchmark JSON. Fails on invalid JSON ("line L, column C:
// ..."), on a document without a "benchmarks" array, and on rows whose
// fields have the wrong type or impossible values (unknown "time_unit",
// negative or non-finite time, missing "name"). Rows that report an error
// are kept with error set and their times unchecked.
StatusOr<GbenchResults> ParseGbenchJson(std::string_view text);

// ParseGbenchJson's checks on a document already parsed (a file streamed
// into its document with json::ReadDocument, so its text is never held).
StatusOr<GbenchResults> GbenchResultsFromDocument(const json::Value& doc);

// The rows that are samples of a benchmark's time and counters: every
// successful raw repetition, and for a benchmark with no raw repetition at
// all (a file written with --benchmark_report_aggregates_only) its median
// aggregate, or its mean if it has no median. Appends to `notes` one line
// per benchmark that fell back to an aggregate or had failed repetitions
// ("BM_Err: 2 of 2 repetitions failed (boom); they are ignored").
std::vector<const GbenchRow*> SampleRows(const GbenchResults& results,
                                         std::vector<std::string>& notes);

// Nanoseconds per `unit` ("ns", "us", "ms", "s"), or 0 if unknown.
double NanosecondsPerUnit(std::string_view unit);

// True if the run name says the benchmark's time is wall-clock or manual
// (a "/real_time" or "/manual_time" part, e.g. "BM_Foo/8/real_time/threads:2"),
// so its real_time, not cpu_time, is what the benchmark means by "time".
bool UsesRealTime(std::string_view run_name);

}  // namespace benchprof::results

#endif  // BENCHPROF_TOOLS_RESULTS_GBENCH_JSON_H_
