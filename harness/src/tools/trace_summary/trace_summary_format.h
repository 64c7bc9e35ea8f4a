// Renders a TraceSummary: an aligned text report for people (the default of
// `benchprof trace-summary`) and JSON with stable keys for scripts.
//
// Text:
//
//   trace:        pool.json
//   producer:     benchprof 0.1.0 (clock: tsc)
//   interval:     1.523s (from 0ns to 1.523s)
//   events:       123456 (0 dropped)
//   parallelism:  1.95 threads busy on average
//
//   thread              tid    busy   idle  busy time
//   benchmark worker 1  4012  97.3%   2.7%     1.482s
//   main                4011   1.0%  99.0%    15.23ms
//
//   task type  count   total      min      p50      p90      p99      max
//   document    4000  1.402s  301.2µs  342.0µs  401.9µs  611.0µs  1.203ms
//
//   region     count ...
//
// Durations get a unit per value ("863.6ns", "1.145µs", "12.35ms", "1.523s",
// four significant digits, as in `benchprof compare`); JSON has integer
// nanoseconds. Output depends only on the summary, so it is deterministic.
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_FORMAT_H_
#define BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_FORMAT_H_

#include <optional>
#include <string>
#include <string_view>

#include "tools/trace_summary/trace_summary.h"

namespace benchprof::trace_summary {

enum class TraceSummaryFormat { kText, kJson };

// Parses "text" and "json".
std::optional<TraceSummaryFormat> ParseTraceSummaryFormat(std::string_view name);

// The whole report, ending with a newline.
std::string RenderTraceSummary(const TraceSummary& summary, TraceSummaryFormat format);

}  // namespace benchprof::trace_summary

#endif  // BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_FORMAT_H_
