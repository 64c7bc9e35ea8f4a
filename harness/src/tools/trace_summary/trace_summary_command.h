// `benchprof trace-summary`: reads a trace written by `bench --trace=FILE`
// and prints per-thread CPU busy/idle shares and, per task type and region
// name, the count and distribution of durations (like `go tool trace`'s
// user-defined tasks and regions pages).
//
//   benchprof trace-summary pool.json
//   benchprof trace-summary --format=json pool.json > summary.json
//
// Exit codes: 0 summarized (warnings — dropped events, a truncated file,
// unmatched begin/end events — on the error stream, one line each), 3 bad
// input (missing, unreadable, empty or malformed file, bad flags) with one
// line on the error stream naming the file and the problem.
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_COMMAND_H_
#define BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::trace_summary {

// Runs the command with `args` (after "trace-summary"). Appends the report
// (or help) to `out`, warnings and errors to `err`; returns the exit code.
int RunTraceSummaryCommand(const std::vector<std::string>& args, std::string& out,
                           std::string& err);

// The text of `benchprof trace-summary --help`.
std::string TraceSummaryHelp();

}  // namespace benchprof::trace_summary

#endif  // BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_SUMMARY_COMMAND_H_
