// The `benchprof` tool: subcommands that work on results and profiles after
// benchmarks ran. It links no collector (DESIGN.md: the compare tool knows
// nothing of collectors).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchprof/files.h"
#include "benchprof/flags.h"
#include "common/temporary_files.h"
#include "tools/compare/compare_command.h"
#include "tools/convert/convert_command.h"
#include "tools/flamegraph/flamegraph_command.h"
#include "tools/gate/gate_command.h"
#include "tools/history/history_command.h"
#include "tools/merge/merge_command.h"
#include "tools/report/report_command.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"
#include "tools/trace_summary/trace_summary_command.h"

namespace {

using benchprof::ExitCodeInfo;
using benchprof::tools::kExitBadInput;
using benchprof::tools::kExitOk;
using benchprof::tools::ToolCommand;

// Every subcommand, in the order `benchprof --help` lists them.
constexpr ToolCommand kCommands[] = {
    {"compare",
     "compare base and head benchmark results: table, verdict, exit code\n"
     "(0 no regression, 1 regression, 2 inconclusive, 3 bad input)",
     benchprof::compare::RunCompareCommand, benchprof::compare::CompareHelp},
    {"convert", "convert Google Benchmark JSON to Go benchmark text (for benchstat)",
     benchprof::convert::RunConvertCommand, benchprof::convert::ConvertHelp},
    {"gate",
     "run two benchmark binaries, judge them as compare does and explain\n"
     "each regression from heap, CPU and callgrind profiles",
     benchprof::gate::RunGateCommand, benchprof::gate::GateHelp},
    {"history",
     "remember runs in a database (SQLite, or PostgreSQL when shared),\n"
     "find change points along git ancestry, gate a run against its\n"
     "branch's history, draw trend pages",
     benchprof::history::RunHistoryCommand, benchprof::history::HistoryHelp},
    {"merge",
     "join the result files or the profiles of one run's shards\n"
     "(bench --shard=I/N) into one",
     benchprof::merge::RunMergeCommand, benchprof::merge::MergeHelp},
    {"flamegraph",
     "draw a pprof profile as an interactive HTML flame graph (or the\n"
     "change from a base profile)",
     benchprof::flamegraph::RunFlamegraphCommand, benchprof::flamegraph::FlamegraphHelp},
    {"report",
     "one self-contained HTML page for a run: results, flame graphs\n"
     "per benchmark, trace summary",
     benchprof::report::RunReportCommand, benchprof::report::ReportHelp},
    {"trace-summary",
     "summarize a `bench --trace` file: per-thread busy/idle share,\n"
     "task and region durations (count, min, p50, p90, p99, max)",
     benchprof::trace_summary::RunTraceSummaryCommand, benchprof::trace_summary::TraceSummaryHelp},
};

// benchprof's own exit codes, when no command runs; a command exits with
// those of its --help.
constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "--help, --version"},
    {kExitBadInput, "no command, or an unknown one"},
};

// Where a command's summary starts in the command list.
constexpr size_t kSummaryColumn = 12;

const ToolCommand* FindCommand(std::string_view name) {
  for (const ToolCommand& command : kCommands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

// "compare, convert, trace-summary".
std::string CommandNames() {
  std::string names;
  for (const ToolCommand& command : kCommands) {
    if (!names.empty()) names += ", ";
    names += command.name;
  }
  return names;
}

// `benchprof --help`: the commands from kCommands, each summary line at
// kSummaryColumn (below the name when the name is longer).
std::string Usage() {
  std::string text = "Usage: benchprof <command> [arguments]\n\nCommands:\n";
  for (const ToolCommand& command : kCommands) {
    std::string line = "  " + std::string(command.name);
    if (line.size() + 1 > kSummaryColumn) {
      text += line + "\n";
      line.clear();
    }
    std::string_view summary = command.summary;
    while (!summary.empty()) {
      const size_t end = summary.find('\n');
      line.resize(kSummaryColumn, ' ');
      text += line + std::string(summary.substr(0, end)) + "\n";
      line.clear();
      summary = end == std::string_view::npos ? std::string_view() : summary.substr(end + 1);
    }
  }
  text +=
      "\nRun \"benchprof <command> --help\" for a command's flags and the exit codes it\n"
      "returns. SIGINT, SIGTERM or SIGHUP stop any command with 130, 143 or 129, the\n"
      "file being written removed (and a gate's running benchmark stopped); SIGQUIT\n"
      "likewise, the tool then dying of SIGQUIT. A command that runs out of memory says so in one\n"
      "line and exits with 3, the file being written removed. Without a command:\n\n" +
      benchprof::FormatExitCodes(kExitCodes);
  return text;
}

void Write(std::FILE* stream, const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stream);
}

// The command running, for OnTerminate's line.
const char* g_command = "benchprof";

// Where an exception nothing catches ends: one thrown where none may pass
// (a destructor, a noexcept function), so the stack was not unwound and no
// AtomicFile removed its temporary. Removes them all, says so in one line,
// and ends as the exception's kind asks: out of memory is exit 3, as when
// RunCommand catches it; anything else is a bug, and aborts as before.
[[noreturn]] void OnTerminate() {
  benchprof::RemoveAllTemporaries();
  bool out_of_memory = false;
  const char* what = "unknown";
  if (const std::exception_ptr thrown = std::current_exception()) {
    try {
      std::rethrow_exception(thrown);
    } catch (const std::bad_alloc&) {
      out_of_memory = true;
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
  }
  // No allocation: memory may be what ran out.
  std::fputs(g_command, stderr);
  if (out_of_memory) {
    std::fputs(": out of memory while running; temporary files removed\n", stderr);
    std::_Exit(kExitBadInput);
  }
  std::fputs(": internal error: uncaught exception (", stderr);
  std::fputs(what, stderr);
  std::fputs("); temporary files removed\n", stderr);
  std::abort();
}

// Runs `command` on `args`. An allocation that fails anywhere in it
// (std::bad_alloc: an input that needs more memory than the process may
// have) unwinds to here, which frees what the command held and removes the
// temporary of the output it was writing, and ends it with one line and
// exit code 3, its partial output dropped.
int RunCommand(const ToolCommand& command, const std::vector<std::string>& args, std::string& out,
               std::string& err) {
  try {
    return command.run(args, out, err);
  } catch (const std::bad_alloc&) {
    out.clear();
    out.shrink_to_fit();
    err += "benchprof " + std::string(command.name) +
           ": out of memory while running; temporary files removed\n";
    return kExitBadInput;
  }
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
  // Ctrl-C removes the temporary of the output being written; past
  // `ulimit -f` a write fails and is reported instead of killing the tool
  // mid-write.
  benchprof::HandleInterruptions("benchprof");
  std::set_terminate(OnTerminate);
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    Write(stderr, Usage());
    return kExitBadInput;
  }
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (const ToolCommand* found = FindCommand(command)) {
    static std::string command_name = "benchprof " + std::string(found->name);
    g_command = command_name.c_str();
    std::string out, err;
    const int code = RunCommand(*found, rest, out, err);
    return Finish(code, out, err);
  }
  if (command == "--help" || command == "-help" || command == "-h" || command == "help") {
    // `benchprof help compare` is `benchprof compare --help`.
    if (const ToolCommand* found =
            command == "help" && rest.size() == 1 ? FindCommand(rest[0]) : nullptr) {
      return Finish(kExitOk, found->help(), "");
    }
    return Finish(kExitOk, Usage(), "");
  }
  if (command == "--version" || command == "-version") {
    return Finish(kExitOk, std::string("benchprof ") + BENCHPROF_VERSION + "\n", "");
  }
  return Finish(kExitBadInput, "",
                "benchprof: unknown command \"" + benchprof::tools::OneLine(command) +
                    "\" (commands: " + CommandNames() + "; see benchprof --help)\n");
}
