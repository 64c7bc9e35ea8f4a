#include "tools/report/report_command.h"

#include <optional>
#include <utility>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "tools/flamegraph/profile_input.h"
#include "tools/report/run_report.h"
#include "tools/results/result_reader.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"
#include "tools/trace_summary/trace_file_reader.h"

namespace benchprof::report {

using tools::kExitBadInput;
using tools::kExitOk;

namespace {

constexpr std::string_view kProgram = "benchprof report";

constexpr std::string_view kIntro = R"(Usage: benchprof report [flags] RESULTS.json -o FILE

Writes one self-contained HTML page for a benchmark run (it opens in any
browser, offline, prints, and fits a narrow screen):

  - the results table of RESULTS.json (Google Benchmark JSON, as written
    by --benchmark_out=FILE --benchmark_out_format=json): time and CPU per
    iteration with their unit, iterations, allocs/op, B/op and the other
    counters, one row per repetition, plus mean, median and stddev rows;
  - for each benchmark with samples in --cpuprofile or --memprofile, its
    flame graphs (the samples labelled benchmark=NAME, each profile's
    default sample type: cpu, alloc_space), as `benchprof flamegraph` draws
    them; a profile whose samples name no benchmark of the file is drawn
    whole;
  - with --trace, the summary `benchprof trace-summary` prints.

Any input that cannot be read, or an unwritable output: one line on the
error stream, exit code 3, and no file written.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "the report was written"},
    {kExitBadInput,
     "bad input: an unreadable result file, profile, trace or output, or a bad flag"},
};

struct Settings {
  std::string out, cpuprofile, memprofile, trace;
};

void DeclareFlags(FlagSet& flags, Settings* settings) {
  flags.File("o", &settings->out, "write the HTML report to FILE (atomically; required)");
  flags.File("cpuprofile", &settings->cpuprofile, "the run's CPU profile (bench --cpuprofile)");
  flags.File("memprofile", &settings->memprofile, "the run's heap profile (bench --memprofile)");
  flags.File("trace", &settings->trace, "the run's trace (bench --trace)");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

}  // namespace

std::string ReportHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunReportCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  Settings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                              &settings, &cl, out, err)) {
    return *done;
  }
  const StatusOr<std::string> file = tools::OneOperand(cl, "report", "result file");
  if (!file.ok()) return Fail(err, file.status().message());
  const NamedPath inputs[] = {{"input", *file},
                              {"--cpuprofile", settings.cpuprofile},
                              {"--memprofile", settings.memprofile},
                              {"--trace", settings.trace}};
  StatusOr<AtomicFile> output = tools::CreateHtmlOutput(settings.out, inputs);
  if (!output.ok()) return Fail(err, output.status().message());

  RunReport report;
  report.results_path = *file;
  StatusOr<results::GbenchResults> parsed =
      results::ReadGbenchFile(*file, "benchprof report reads Google Benchmark JSON");
  if (!parsed.ok()) return Fail(err, parsed.status().message());
  report.results = std::move(*parsed);
  for (auto [path, slot] : {std::pair{&settings.cpuprofile, &report.cpu},
                            std::pair{&settings.memprofile, &report.heap}}) {
    if (path->empty()) continue;
    StatusOr<encode::ProfileData> profile = flamegraph::ReadProfileFile(*path);
    if (!profile.ok()) return Fail(err, profile.status().message());
    *slot = ProfileSource{*path, std::move(*profile)};
  }
  if (!settings.trace.empty()) {
    trace_summary::TraceSummarizer summarizer;
    const StatusOr<trace_summary::TraceFileInfo> info = trace_summary::ReadTraceFile(
        settings.trace,
        [&summarizer](const trace_summary::TraceEvent& event) { summarizer.Add(event); });
    if (!info.ok()) return Fail(err, info.status().message());
    report.trace_path = settings.trace;
    report.trace = std::move(summarizer).Finish(settings.trace, *info);
    for (const std::string& warning : report.trace->warnings) {
      err += std::string(kProgram) +
             ": warning: " + tools::OneLine(settings.trace + ": " + warning) + "\n";
    }
  }
  if (Status written = output->WriteAndCommit(RenderRunReport(report));
      !written.ok()) {
    return Fail(err, "-o: " + written.message());
  }
  return kExitOk;
}

}  // namespace benchprof::report
