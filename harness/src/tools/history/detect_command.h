// `benchprof history detect`: the change points of every stored series
// (or those a pattern and the filter flags select), along git ancestry, as
// text, Markdown or JSON; exit code 1 when the newest run of a series is a
// regression.
//
//   std::string out, err;
//   int code = RunDetectCommand({"--branch=main"}, out, err);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_HISTORY_DETECT_COMMAND_H_
#define BENCHPROF_TOOLS_HISTORY_DETECT_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::history {

// The text of `benchprof history detect --help`.
std::string DetectHelp();

// Runs `benchprof history detect` with `args` (after "detect"); appends
// the report (or help) to `out`, warnings and errors to `err`; returns the
// exit code.
int RunDetectCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_DETECT_COMMAND_H_
