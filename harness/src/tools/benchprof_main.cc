// The `benchprof` tool: subcommands that work on results and profiles after
// benchmarks ran. It links no collector (DESIGN.md: the compare tool knows
// nothing of collectors).
#include <cstdio>
#include <string>
#include <vector>

#include "tools/command_line.h"
#include "tools/compare/compare_command.h"
#include "tools/convert/convert_command.h"
#include "tools/trace_summary/trace_summary_command.h"

namespace {

using benchprof::tools::kExitBadInput;
using benchprof::tools::kExitOk;

const char kUsage[] = R"(Usage: benchprof <command> [arguments]

Commands:
  compare   compare base and head benchmark results: table, verdict, exit code
            (0 no regression, 1 regression, 2 inconclusive, 3 bad input)
  convert   convert Google Benchmark JSON to Go benchmark text (for benchstat)
  trace-summary
            summarize a `bench --trace` file: per-thread busy/idle share,
            task and region durations (count, min, p50, p90, p99, max)

Run "benchprof <command> --help" for a command's flags.
)";

void Write(std::FILE* stream, const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stream);
}

int Finish(int code, const std::string& out, const std::string& err) {
  Write(stdout, out);
  if (std::fflush(stdout) != 0) {
    std::fputs("benchprof: cannot write to standard output\n", stderr);
    return kExitBadInput;
  }
  Write(stderr, err);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    Write(stderr, kUsage);
    return kExitBadInput;
  }
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  std::string out, err;
  if (command == "compare") {
    const int code = benchprof::compare::RunCompareCommand(rest, out, err);
    return Finish(code, out, err);
  }
  if (command == "convert") {
    const int code = benchprof::convert::RunConvertCommand(rest, out, err);
    return Finish(code, out, err);
  }
  if (command == "trace-summary") {
    const int code = benchprof::trace_summary::RunTraceSummaryCommand(rest, out, err);
    return Finish(code, out, err);
  }
  if (command == "--help" || command == "-help" || command == "-h" || command == "help") {
    if (command == "help" && rest.size() == 1 && rest[0] == "compare") {
      return Finish(kExitOk, benchprof::compare::CompareHelp(), "");
    }
    if (command == "help" && rest.size() == 1 && rest[0] == "convert") {
      return Finish(kExitOk, benchprof::convert::ConvertHelp(), "");
    }
    if (command == "help" && rest.size() == 1 && rest[0] == "trace-summary") {
      return Finish(kExitOk, benchprof::trace_summary::TraceSummaryHelp(), "");
    }
    return Finish(kExitOk, kUsage, "");
  }
  if (command == "--version" || command == "-version") {
    return Finish(kExitOk, std::string("benchprof ") + BENCHPROF_VERSION + "\n", "");
  }
  return Finish(kExitBadInput, "",
                "benchprof: unknown command \"" + benchprof::tools::OneLine(command) +
                    "\" (commands: compare, convert, trace-summary; see benchprof --help)\n");
}
