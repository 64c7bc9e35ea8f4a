// `benchprof merge`: the files of one run's shards (`bench --shard=I/N`)
// into one — Google Benchmark JSON result files into one result file
// (result_merge.h), or pprof profiles of one kind into one profile
// (profile_merge.h). Which of the two is decided by the files' contents.
//
//   benchprof merge r.0.json r.1.json r.2.json r.3.json -o r.json
//   benchprof merge cpu.*.pprof -o cpu.pprof
//
// Exit codes: 0 merged, 3 bad input (an unreadable or malformed file, files
// that are not one run's, a bad flag), with one line on the error stream;
// -o is written atomically, never half.
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_MERGE_MERGE_COMMAND_H_
#define BENCHPROF_TOOLS_MERGE_MERGE_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::merge {

// Runs the command with `args` (after "merge"). Appends the help to `out`
// when asked for it, a summary line and errors to `err`; returns the exit
// code.
int RunMergeCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The text of `benchprof merge --help`.
std::string MergeHelp();

}  // namespace benchprof::merge

#endif  // BENCHPROF_TOOLS_MERGE_MERGE_COMMAND_H_
