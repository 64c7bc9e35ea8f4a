// The HTML report of one run: the results table of a Google Benchmark JSON
// file (time and CPU with their unit, iterations, allocs/op, B/op and the
// other counters, one row per row of the file as Google Benchmark's console
// prints them), then, per benchmark with samples, its CPU and heap flame
// graphs (split by the "benchmark" label bench puts on every sample), then
// the trace summary. One self-contained page (flame_html.h).
//
//   RunReport report;
//   report.results_path = "results.json";
//   report.results = std::move(*parsed);
//   report.cpu = ProfileSource{"cpu.pprof", std::move(*cpu)};
//   std::string html = RenderRunReport(report);
//
// Thread-safety: thread-safe (a pure function).
#ifndef BENCHPROF_TOOLS_REPORT_RUN_REPORT_H_
#define BENCHPROF_TOOLS_REPORT_RUN_REPORT_H_

#include <optional>
#include <string>

#include "encode/profile_data.h"
#include "tools/results/gbench_json.h"
#include "tools/trace_summary/trace_summary.h"

namespace benchprof::report {

// A profile and the file it came from.
struct ProfileSource {
  std::string path;
  encode::ProfileData profile;
};

struct RunReport {
  std::string results_path;
  results::GbenchResults results;
  std::optional<ProfileSource> cpu;   // drawn with its default sample type (cpu)
  std::optional<ProfileSource> heap;  // drawn with its default sample type (alloc_space)
  std::string trace_path;
  std::optional<trace_summary::TraceSummary> trace;
};

// The whole page.
std::string RenderRunReport(const RunReport& report);

}  // namespace benchprof::report

#endif  // BENCHPROF_TOOLS_REPORT_RUN_REPORT_H_
