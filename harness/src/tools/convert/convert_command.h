// `benchprof convert --to=go`: Google Benchmark JSON in, Go benchmark text
// out, for benchstat and other Go tools (the mapping is in
// go_format_writer.h).
//
//   benchprof convert --to=go results.json > results.txt
//   benchprof convert --to=go --out=old.txt run1.json run2.json
//
// Exit codes: 0 converted, 3 bad input (unreadable or malformed file, bad
// flags, unwritable --out), with one line on the error stream.
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_CONVERT_CONVERT_COMMAND_H_
#define BENCHPROF_TOOLS_CONVERT_CONVERT_COMMAND_H_

#include <string>
#include <vector>

namespace benchprof::convert {

// Runs the command with `args` (after "convert"). Appends the converted text
// (unless --out is given) or help to `out`, warnings and errors to `err`;
// returns the exit code.
int RunConvertCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The text of `benchprof convert --help`.
std::string ConvertHelp();

}  // namespace benchprof::convert

#endif  // BENCHPROF_TOOLS_CONVERT_CONVERT_COMMAND_H_
