// `benchprof history report`: the trend page (trend_page.h) of the stored
// series a pattern and the filter flags select, with their change points,
// and for a change point whose two runs have profiles attached, the
// differential flame graph of the benchmark between them.
//
//   std::string out, err;
//   int code = RunReportCommand({"-o", "trend.html"}, out, err);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_HISTORY_REPORT_COMMAND_H_
#define BENCHPROF_TOOLS_HISTORY_REPORT_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::history {

// The text of `benchprof history report --help`.
std::string ReportHelp();

// Runs `benchprof history report` with `args` (after "report"); appends
// what it did (or help) to `out`, warnings and errors to `err`; returns
// the exit code.
int RunReportCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_REPORT_COMMAND_H_
