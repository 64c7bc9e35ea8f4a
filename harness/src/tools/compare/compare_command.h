// `benchprof compare`: reads base and head results, compares them and
// prints a table and a verdict whose exit code a CI job can act on.
//
//   benchprof compare base.json head.json                  # two files
//   benchprof compare b1.json b2.json -- h1.json h2.json   # rounds per side
//   benchprof compare --format=markdown --threshold='BM_Noisy.*=time:20%' base.txt head.txt
//
// Exit codes: 0 no regression, 1 regression, 2 inconclusive (too few samples
// for a gated metric, or no benchmark in common), 3 bad input (unreadable,
// empty, malformed or mismatched files, bad flags). Bad input is one line on
// the error stream naming the file and the problem.
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_COMPARE_COMPARE_COMMAND_H_
#define BENCHPROF_TOOLS_COMPARE_COMPARE_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::compare {

// Runs the command with `args` (after "compare"). Appends the report (or
// help) to `out` and errors to `err`; returns the exit code.
int RunCompareCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The text of `benchprof compare --help`.
std::string CompareHelp();

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_COMPARE_COMMAND_H_
