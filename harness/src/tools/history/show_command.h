// `benchprof history show`: the runs of the matching series as a table, one
// row per run in ancestry order, with each run's change from the one before.
//
//   std::string out, err;
//   RunShowCommand({"BM_AlgorithmOne", "--metric=allocs/op"}, out, err);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_HISTORY_SHOW_COMMAND_H_
#define BENCHPROF_TOOLS_HISTORY_SHOW_COMMAND_H_

#include <string>
#include <vector>

#include "tools/history/history_store.h"

namespace benchprof::history {

// The text of `benchprof history show --help`.
std::string ShowHelp();

// Runs `benchprof history show` with `args` (after "show"); returns 0, 3 or 4.
int RunShowCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The table of `series`, with `commits` giving dates and subjects (a
// commit absent there shows none). Deterministic.
std::string RenderSeriesTable(const std::vector<Series>& series,
                              const std::map<std::string, CommitInfo>& commits);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_SHOW_COMMAND_H_
