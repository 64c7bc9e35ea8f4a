// `benchprof history`: the result history's subcommands (record, show,
// export, detect, gate, report), dispatched from one table as the tool
// dispatches its commands.
//
// Thread-safety: thread-compatible (as every subcommand).
#ifndef BENCHPROF_TOOLS_HISTORY_HISTORY_COMMAND_H_
#define BENCHPROF_TOOLS_HISTORY_HISTORY_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::history {

// Runs `benchprof history <subcommand> ...` (`args` after "history").
int RunHistoryCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The text of `benchprof history --help`: the subcommands and what they do.
std::string HistoryHelp();

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_HISTORY_COMMAND_H_
