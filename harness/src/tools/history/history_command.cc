#include "tools/history/history_command.h"

#include <span>
#include <string_view>

#include "tools/history/detect_command.h"
#include "tools/history/export_command.h"
#include "tools/history/history_gate_command.h"
#include "tools/history/record_command.h"
#include "tools/history/report_command.h"
#include "tools/history/show_command.h"
#include "tools/tool_command.h"

namespace benchprof::history {
namespace {

using tools::ToolCommand;

// Every subcommand of `benchprof history`, in the order its --help lists them.
constexpr ToolCommand kSubcommands[] = {
    {"record", "store a run's results with its commit, branch and testbed", RunRecordCommand,
     RecordHelp},
    {"show", "the runs of the matching series as a table, in ancestry order", RunShowCommand,
     ShowHelp},
    {"detect", "change points of the stored series along git ancestry; exit 1 when\n"
     "a series' newest run is a regression", RunDetectCommand, DetectHelp},
    {"gate", "judge a run against its base branch's history (exit codes as compare)",
     RunHistoryGateCommand, HistoryGateHelp},
    {"report", "one self-contained HTML page of trend charts, change points marked",
     RunReportCommand, ReportHelp},
    {"export", "every stored value as CSV or JSON, for other tools", RunExportCommand,
     ExportHelp},
};

const ToolCommand* FindSubcommand(std::string_view name) {
  for (const ToolCommand& command : kSubcommands) {
    if (command.run != nullptr && command.name == name) return &command;
  }
  return nullptr;
}

}  // namespace

std::string HistoryHelp() {
  std::string text =
      "Usage: benchprof history <subcommand> [flags] [arguments]\n\n"
      "Remembers every run's raw results in a database (a SQLite file by default,\n"
      "PostgreSQL when shared), finds where each series changed along git\n"
      "ancestry, gates a run against its branch's history and draws the trends.\n\n"
      "Subcommands:\n";
  for (const ToolCommand& command : kSubcommands) {
    if (command.run == nullptr) continue;
    std::string_view summary = command.summary;
    std::string line = "  " + std::string(command.name);
    while (!summary.empty()) {
      const size_t end = summary.find('\n');
      line.resize(12, ' ');
      text += line + std::string(summary.substr(0, end)) + "\n";
      line.clear();
      summary = end == std::string_view::npos ? std::string_view() : summary.substr(end + 1);
    }
  }
  text += "\nRun \"benchprof history <subcommand> --help\" for its flags and exit codes.\n";
  return text;
}

int RunHistoryCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  if (args.empty()) {
    return tools::Fail(err, "benchprof history",
                       "no subcommand (see benchprof history --help)");
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    out += HistoryHelp();
    return tools::kExitOk;
  }
  const ToolCommand* command = FindSubcommand(args[0]);
  if (command == nullptr) {
    return tools::Fail(err, "benchprof history",
                       "unknown subcommand \"" + args[0] + "\" (see benchprof history --help)");
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  return command->run(rest, out, err);
}

}  // namespace benchprof::history
