// `benchprof history gate`: judges a run's result files against the
// baseline its base branch's history gives (history_gate.h), with the
// compare engine's rules, thresholds, outputs and exit codes.
//
//   std::string out, err;
//   int code = RunHistoryGateCommand({"--base-branch=main", "r.json"}, out, err);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_HISTORY_HISTORY_GATE_COMMAND_H_
#define BENCHPROF_TOOLS_HISTORY_HISTORY_GATE_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::history {

// The text of `benchprof history gate --help`.
std::string HistoryGateHelp();

// Runs `benchprof history gate` with `args` (after "gate"); appends the
// report (or help) to `out`, warnings and errors to `err`; returns the
// exit code (0 no regression, 1 regression, 2 inconclusive, 3 bad input, 4
// database unavailable).
int RunHistoryGateCommand(const std::vector<std::string>& args, std::string& out,
                          std::string& err);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_HISTORY_GATE_COMMAND_H_
