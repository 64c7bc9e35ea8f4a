// `benchprof flamegraph`: a pprof profile as a self-contained, interactive
// HTML flame graph (see flame_html.h), optionally focused on a label or
// diffed against a base profile.
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_TOOLS_FLAMEGRAPH_FLAMEGRAPH_COMMAND_H_
#define BENCHPROF_TOOLS_FLAMEGRAPH_FLAMEGRAPH_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::flamegraph {

// Runs `benchprof flamegraph` with `args` (after the command name); the
// exit codes are those of FlamegraphHelp().
int RunFlamegraphCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The text of `benchprof flamegraph --help`.
std::string FlamegraphHelp();

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_FLAMEGRAPH_COMMAND_H_
