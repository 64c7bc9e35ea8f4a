// `benchprof report`: one self-contained HTML page for a run (run_report.h)
// from its Google Benchmark JSON and, optionally, its CPU and heap profiles
// and its trace.
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_TOOLS_REPORT_REPORT_COMMAND_H_
#define BENCHPROF_TOOLS_REPORT_REPORT_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::report {

// Runs `benchprof report` with `args` (after the command name); the exit
// codes are those of ReportHelp().
int RunReportCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The text of `benchprof report --help`.
std::string ReportHelp();

}  // namespace benchprof::report

#endif  // BENCHPROF_TOOLS_REPORT_REPORT_COMMAND_H_
