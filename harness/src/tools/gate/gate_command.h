// `benchprof gate`: the CI gate as one program. Runs two built benchmark
// binaries (any binary linked with benchprof::main) in interleaved rounds,
// or once each under --instructions, judges them with the compare engine,
// and explains each regression by the metric that regressed.
//
//   benchprof gate --base=old/bench --head=new/bench -- --benchmark_filter=Alg --benchmem
//   benchprof gate --instructions --base=old/bench --head=new/bench -- --benchmark_filter=Alg
//
// Exit codes: those of `benchprof compare` (0 no regression, 1 regression,
// 2 inconclusive, 3 bad input, or a side that failed, crashed or hung),
// and 128 + N when interrupted by signal N (the children stopped, every
// temporary removed).
//
// Thread-safety: run from the main thread (it starts child processes that
// must die with it: common/child_process.h).
#ifndef BENCHPROF_TOOLS_GATE_GATE_COMMAND_H_
#define BENCHPROF_TOOLS_GATE_GATE_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::gate {

// Runs the command with `args` (after "gate"). Appends the report (or help)
// to `out` and errors to `err`; progress goes to the error stream as the
// runs happen. Returns the exit code.
int RunGateCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The text of `benchprof gate --help`.
std::string GateHelp();

}  // namespace benchprof::gate

#endif  // BENCHPROF_TOOLS_GATE_GATE_COMMAND_H_
