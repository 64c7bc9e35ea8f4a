#include "tools/history/detect_command.h"

#include <map>
#include <memory>
#include <optional>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "tools/history/change_point_output.h"
#include "tools/history/change_points.h"
#include "tools/history/database.h"
#include "tools/history/detect_flags.h"
#include "tools/history/store_flags.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::history {
namespace {

using tools::kExitBadInput;
using tools::kExitOk;
using tools::kExitRegression;

constexpr std::string_view kProgram = "benchprof history detect";

constexpr std::string_view kIntro =
    R"(Usage: benchprof history detect [--db=LOCATION] [--metric=NAME] [--branch=NAME]
         [--testbed=NAME] [--window=N] [--max-p=P] [--threshold=...]
         [--format=text|markdown|json] [-o FILE] [PATTERN]

Finds where each stored series (benchmark x metric x testbed x branch) whose
benchmark name PATTERN matches (a POSIX extended regular expression, searched
anywhere in the name; every benchmark if none) changed, its runs ordered by
git ancestry. Time and other noisy metrics: E-divisive means over the runs'
medians, each split confirmed by a t-test within a window of runs around it
(Apache Otava's method; deterministic). Exact metrics (allocs/op and B/op
constant within each run, instructions/op): any change beyond the metric's
threshold, at the exact commit. Each change point names the last good and the
first bad commit, the medians before and after, the change and its p-value.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "no series' newest run is a regression"},
    {kExitRegression,
     "the newest run of some series is a regression: its last change point made it worse "
     "and nothing since changed it back"},
    {kExitBadInput,
     "bad input: a bad flag or pattern, no series matches, no database there, a file that "
     "is not a history database or is of a newer schema"},
    {kExitDatabaseUnavailable, kStoreUnavailableMeaning},
};

enum class DetectFormat { kText, kMarkdown, kJson };

struct DetectSettings {
  StoreFlags store;
  SeriesFilterFlags filter;
  DetectOptions detect;
  DetectFormat format = DetectFormat::kText;
  std::string out;
};

void DeclareFlags(FlagSet& flags, DetectSettings* s) {
  DeclareStoreFlags(flags, &s->store);
  DeclareSeriesFilterFlags(flags, &s->filter);
  DeclareDetectFlags(flags, &s->detect);
  flags.Custom(
      "format", "text|markdown|json",
      [s](std::string_view value) {
        if (value == "text") {
          s->format = DetectFormat::kText;
        } else if (value == "markdown") {
          s->format = DetectFormat::kMarkdown;
        } else if (value == "json") {
          s->format = DetectFormat::kJson;
        } else {
          return std::string("expected text, markdown or json");
        }
        return std::string();
      },
      "output format (default text; markdown for a pull-request comment; json for tools)");
  flags.File("o", &s->out, "write the report to FILE (atomically) instead of standard output");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

}  // namespace

std::string DetectHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunDetectCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  DetectSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                             &settings, &cl, out, err)) {
    return *done;
  }
  StatusOr<SeriesSelection> selection = SelectSeries(kProgram, cl, settings.filter);
  if (!selection.ok()) return Fail(err, selection.status().message());

  // The output's temporary file first: a bad -o fails before any work.
  std::optional<AtomicFile> output;
  if (!settings.out.empty()) {
    if (!settings.store.db.empty() && !IsDatabaseUrl(settings.store.db)) {
      const NamedPath pair[] = {{"-o", settings.out}, {"--db", settings.store.db}};
      if (Status distinct = CheckDistinctFiles(pair); !distinct.ok()) {
        return Fail(err, distinct.message());
      }
    }
    StatusOr<AtomicFile> file = AtomicFile::Create(settings.out);
    if (!file.ok()) return Fail(err, "-o: " + file.status().message());
    output.emplace(std::move(*file));
  }

  std::unique_ptr<HistoryStore> store;
  SelectedSeries selected;
  if (int code = LoadSelectedSeries(kProgram, settings.store, *selection, /*required=*/true, &store,
                                    &selected, err)) {
    return code;
  }
  std::vector<AnalysedSeries> analysed;
  bool newest_regression = false;
  for (Series& s : selected.series) {
    std::vector<ChangePoint> found = FindChangePoints(s, settings.detect);
    analysed.push_back(AnalysedSeries{std::move(s), std::move(found)});
    newest_regression = newest_regression || NewestIsRegression(analysed.back());
  }

  const std::string report =
      settings.format == DetectFormat::kMarkdown ? ChangePointsMarkdown(analysed, selected.commits)
      : settings.format == DetectFormat::kJson   ? ChangePointsJson(analysed, selected.commits)
                                                 : ChangePointsText(analysed, selected.commits);
  const int verdict = newest_regression ? kExitRegression : kExitOk;
  if (output) {
    if (Status s = output->WriteAndCommit(report); !s.ok()) {
      // A failed write must hide no regression, nor pass for success.
      const int bad_output = Fail(err, "-o: " + s.message());
      return newest_regression ? verdict : bad_output;
    }
  } else {
    out += report;
  }
  return verdict;
}

}  // namespace benchprof::history
