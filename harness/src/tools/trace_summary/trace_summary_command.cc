#include "tools/trace_summary/trace_summary_command.h"

#include <optional>
#include <utility>

#include "benchprof/flags.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"
#include "tools/trace_summary/trace_file_reader.h"
#include "tools/trace_summary/trace_summary.h"
#include "tools/trace_summary/trace_summary_format.h"

namespace benchprof::trace_summary {

using tools::kExitBadInput;
using tools::kExitOk;
using tools::OneLine;

namespace {

constexpr std::string_view kProgram = "benchprof trace-summary";

constexpr std::string_view kIntro = R"(Usage: benchprof trace-summary [--format=text|json] FILE

Summarizes an execution trace written by `bench --trace=FILE`: Chrome
trace-event JSON (see docs/trace-format.md; a bare JSON array of events, the
trace-event "array format", is accepted too) or Perfetto's protobuf format
(FILE.pftrace), told apart by their first bytes, either of them possibly
gzip-compressed. The same run gives the same summary in both formats, but
for the number of events (the JSON writes a region of a task twice):

  - the traced interval (from the earliest to the latest event time), the
    number of events, and the number of events the recorder dropped because
    its buffers were full;
  - per thread, from the per-thread CPU counters: busy, the share of the
    traced interval the thread ran on a CPU, idle = 100% - busy, and busy
    time; "parallelism" is the sum of the busy shares, the mean number of
    threads running, against the CPUs the traced process could use.
    Busiest first; threads with a name but no CPU samples last, with "—";
  - per task type (benchprof::NewTask; from its begin to its end, which may
    be on another thread) and per region name (benchprof::StartRegion; from
    its begin to its end on one thread): count, total, min, p50, p90, p99
    and max duration. Durations print as whole ns below 1µs, then in µs, ms
    or s with four significant digits; --format=json gives integer ns.

Percentiles are nearest-rank: pN is the duration at rank ceil(N/100 * count)
of the durations sorted ascending, i.e. the smallest duration with at least
N% of the durations at or below it. It is always a duration that occurred
(no interpolation); with fewer than 100 durations, p99 is the max.

The file is streamed, so a trace of millions of events is read in little
memory, except that every task and region duration is kept (8 bytes each)
for exact percentiles: memory grows with the number of tasks and regions.

Begins without an end and ends without a begin are counted, reported and
left out of the durations; they do not make the summary fail. A
flight-recorder trace (bench --trace_window) is summarized over the window
it kept (interval, busy shares, blocked time), which the summary states with
the number of older events discarded; its ends without a begin (spans and
tasks begun before the window) are expected, not warned about. A trace that
was cut short (the bench process was killed while writing it) is summarized
up to its last complete event (a Perfetto trace: its last whole packet),
with a warning: spans and tasks whose ends were lost count as unmatched, and
busy shares use the last CPU sample of each thread up to the end of what was
recorded.

A missing, unreadable, empty or malformed file, or one that is not a trace,
is bad input: one line on the error stream naming the file and the problem.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "summarized (warnings, if any, on standard error)"},
    {kExitBadInput, "bad input: a file that cannot be summarized, or a bad flag"},
};

// Declares trace-summary's flags in `flags`, bound to `*format`.
void DeclareFlags(FlagSet& flags, TraceSummaryFormat* format) {
  flags.Custom(
      "format", "text|json",
      [format](std::string_view value) {
        const std::optional<TraceSummaryFormat> parsed = ParseTraceSummaryFormat(value);
        if (!parsed) return std::string("expected text or json");
        *format = *parsed;
        return std::string();
      },
      "output format (default text)");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

}  // namespace

std::string TraceSummaryHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunTraceSummaryCommand(const std::vector<std::string>& args, std::string& out,
                           std::string& err) {
  TraceSummaryFormat format = TraceSummaryFormat::kText;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                              &format, &cl, out, err)) {
    return *done;
  }
  const StatusOr<std::string> file = tools::OneOperand(cl, "trace-summary", "trace file");
  if (!file.ok()) return Fail(err, file.status().message());
  const std::string& path = *file;

  TraceSummarizer summarizer;
  const StatusOr<TraceFileInfo> info =
      ReadTraceFile(path, [&summarizer](const TraceEvent& event) { summarizer.Add(event); });
  if (!info.ok()) return Fail(err, info.status().message());
  const TraceSummary summary = std::move(summarizer).Finish(path, *info);
  for (const std::string& warning : summary.warnings) {
    err += "benchprof trace-summary: warning: " + OneLine(path + ": " + warning) + "\n";
  }
  out += RenderTraceSummary(summary, format);
  return kExitOk;
}

}  // namespace benchprof::trace_summary
