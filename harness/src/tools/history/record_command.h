// `benchprof history record`: stores a run's result files in the history
// with its commit, branch and testbed (history_store.h).
//
//   std::string out, err;
//   int code = RunRecordCommand({"--branch=main", "r.json"}, out, err);
//   // out: "recorded run 7: 12 benchmarks, 5 metrics, commit 1a2b3c4d5e6f on main,
//   //       testbed 8c-xeon-e5-2690-v4-1a2b3c4d\n"
//
// Thread-safety: thread-compatible (runs git, reads the environment).
#ifndef BENCHPROF_TOOLS_HISTORY_RECORD_COMMAND_H_
#define BENCHPROF_TOOLS_HISTORY_RECORD_COMMAND_H_

#include <string>
#include <string_view>
#include <vector>

namespace benchprof::history {

// The text of `benchprof history record --help`.
std::string RecordHelp();

// Runs `benchprof history record` with `args` (after "record"); appends its
// report to `out` and warnings and errors to `err`; returns 0, 3 (bad
// input) or 4 (database unavailable).
int RunRecordCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The identity of a run's result files: a 128-bit FNV-1a of each file's
// bytes, those sorted (the files' order does not matter) and hashed again,
// as 32 hexadecimal digits.
std::string ContentHash(const std::vector<std::string>& file_contents);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_RECORD_COMMAND_H_
