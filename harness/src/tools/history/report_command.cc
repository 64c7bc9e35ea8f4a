#include "tools/history/report_command.h"

#include <map>
#include <memory>
#include <new>
#include <optional>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "encode/pprof_reader.h"
#include "tools/flamegraph/benchmark_split.h"
#include "tools/flamegraph/flame_html.h"
#include "tools/flamegraph/flame_tree.h"
#include "tools/history/change_points.h"
#include "tools/history/database.h"
#include "tools/history/detect_flags.h"
#include "tools/history/store_flags.h"
#include "tools/history/trend_page.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::history {
namespace {

using tools::kExitBadInput;
using tools::kExitOk;
using tools::OneLine;

constexpr std::string_view kProgram = "benchprof history report";

// Differential flame graphs embedded in one page at most: each is a page of
// its own (tens to hundreds of KB), and a trend page must stay loadable.
constexpr size_t kMaxFlameGraphs = 50;

constexpr std::string_view kIntro =
    R"(Usage: benchprof history report [--db=LOCATION] [--metric=NAME] [--branch=NAME]
         [--testbed=NAME] [--window=N] [--max-p=P] [--threshold=...] [--title=TEXT]
         [PATTERN] -o FILE

Writes one self-contained HTML page (no network) of trend charts: one per stored
series (benchmark x metric x testbed x branch) whose benchmark name PATTERN
matches (every benchmark if none), the runs in git ancestry order, each run's
median and the spread of its repetitions, and the change points `history
detect` finds, marked with their commit range and change. A filter box narrows
the charts. When both runs around a change point have a pprof profile attached
(`history record --attach`), the change point links to the differential flame
graph of its benchmark between them (the profile whose samples match the
metric: allocations for allocs/op, bytes for B/op, CPU otherwise), at most 50
per page. The page's URL fragment can fill the filter: trend.html#filter=Alg.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "written"},
    {kExitBadInput,
     "bad input: a bad flag or pattern, no -o, no series matches, no database there, a file "
     "that is not a history database or is of a newer schema, an unwritable -o"},
    {kExitDatabaseUnavailable, kStoreUnavailableMeaning},
};

struct ReportSettings {
  StoreFlags store;
  SeriesFilterFlags filter;
  DetectOptions detect;
  std::string title;
  std::string out;
};

void DeclareFlags(FlagSet& flags, ReportSettings* s) {
  DeclareStoreFlags(flags, &s->store);
  DeclareSeriesFilterFlags(flags, &s->filter);
  DeclareDetectFlags(flags, &s->detect);
  flags.String("title", "TEXT", &s->title,
               "the page's title (default \"benchprof history\" and the filter)");
  flags.File("o", &s->out, "write the page to FILE (atomically); required");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

// The sample type of a profile that explains a change of `metric`.
std::string_view SampleTypeFor(std::string_view metric) {
  if (metric == "allocs/op") return "alloc_objects";
  if (metric == "B/op") return "alloc_space";
  return "cpu";
}

// The profiles attached to runs, decoded once per run (attachments that are
// not pprof profiles are left out).
class RunProfiles {
 public:
  explicit RunProfiles(HistoryStore& store) : store_(store) {}

  StatusOr<const std::vector<encode::ProfileData>*> Of(int64_t run_id) {
    auto it = profiles_.find(run_id);
    if (it != profiles_.end()) return &it->second;
    StatusOr<std::vector<Attachment>> attachments = store_.Attachments(run_id);
    if (!attachments.ok()) return attachments.status();
    std::vector<encode::ProfileData>& decoded = profiles_[run_id];
    for (const Attachment& a : *attachments) {
      StatusOr<encode::ProfileData> profile = encode::ReadProfile(a.bytes);
      if (profile.ok()) decoded.push_back(std::move(*profile));
    }
    return &decoded;
  }

 private:
  HistoryStore& store_;
  std::map<int64_t, std::vector<encode::ProfileData>> profiles_;
};

// The profile among `profiles` with `type` and samples of `benchmark`, and
// that sample type's index.
std::optional<std::pair<const encode::ProfileData*, size_t>> FindProfile(
    const std::vector<encode::ProfileData>& profiles, std::string_view type,
    const std::string& benchmark) {
  for (const encode::ProfileData& p : profiles) {
    for (size_t i = 0; i < p.sample_types.size(); ++i) {
      if (p.sample_types[i].type != type) continue;
      if (flamegraph::LabelledBenchmarks(p).contains(benchmark)) return std::pair{&p, i};
    }
  }
  return std::nullopt;
}

// The differential flame graph page of change point `c` of `s`, or "" when
// its runs lack a matching profile.
StatusOr<std::string> DiffFlameGraph(const Series& s, const ChangePoint& c, RunProfiles& profiles) {
  if (c.index == 0 || c.index >= s.points.size()) return std::string();
  StatusOr<const std::vector<encode::ProfileData>*> before =
      profiles.Of(s.points[c.index - 1].run_id);
  if (!before.ok()) return before.status();
  StatusOr<const std::vector<encode::ProfileData>*> after = profiles.Of(s.points[c.index].run_id);
  if (!after.ok()) return after.status();
  const std::string_view type = SampleTypeFor(s.key.metric);
  const auto base = FindProfile(**before, type, s.key.benchmark);
  const auto head = FindProfile(**after, type, s.key.benchmark);
  if (!base || !head) return std::string();
  const flamegraph::FlameTree tree = flamegraph::BenchmarkTree(
      *head->first, head->second, s.key.benchmark, base->first, base->second);
  const std::string heading = s.key.benchmark + " " + std::string(type) + ": " +
                              c.first_bad_commit.substr(0, 10) + " against " +
                              c.last_good_commit.substr(0, 10);
  flamegraph::FlamePage page(heading);
  std::string& html = page.html();
  html += "<h1>";
  flamegraph::AppendHtmlEscaped(html, OneLine(heading));
  html += "</h1>\n<p class=\"meta\">";
  flamegraph::AppendHtmlEscaped(html, flamegraph::DescribeTotal(tree));
  html += "</p>\n";
  page.AppendGraph(tree);
  return std::move(page).Finish();
}

}  // namespace

std::string ReportHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunReportCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  ReportSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                             &settings, &cl, out, err)) {
    return *done;
  }
  StatusOr<SeriesSelection> selection = SelectSeries(kProgram, cl, settings.filter);
  if (!selection.ok()) return Fail(err, selection.status().message());
  const std::string& pattern = selection->pattern;

  std::vector<NamedPath> inputs;
  if (!settings.store.db.empty() && !IsDatabaseUrl(settings.store.db)) {
    inputs.push_back({"--db", settings.store.db});
  }
  StatusOr<AtomicFile> output = tools::CreateHtmlOutput(settings.out, inputs);
  if (!output.ok()) return Fail(err, output.status().message());

  std::unique_ptr<HistoryStore> store;
  SelectedSeries selected;
  if (int code = LoadSelectedSeries(kProgram, settings.store, *selection, /*required=*/true, &store,
                                    &selected, err)) {
    return code;
  }
  try {
    TrendPageInput page;
    page.title = !settings.title.empty() ? settings.title
                 : pattern.empty()       ? "benchprof history"
                                         : "benchprof history: " + pattern;
    for (Series& s : selected.series) {
      std::vector<ChangePoint> found = FindChangePoints(s, settings.detect);
      page.series.push_back(AnalysedSeries{std::move(s), std::move(found)});
    }
    page.commits = std::move(selected.commits);

    RunProfiles profiles(*store);
    size_t graphs = 0, left_out = 0;
    for (size_t i = 0; i < page.series.size(); ++i) {
      const AnalysedSeries& a = page.series[i];
      for (size_t k = 0; k < a.change_points.size(); ++k) {
        if (graphs == kMaxFlameGraphs) {
          ++left_out;
          continue;
        }
        StatusOr<std::string> graph = DiffFlameGraph(a.series, a.change_points[k], profiles);
        if (!graph.ok()) return StoreFailure(kProgram, *store, graph.status(), err);
        if (graph->empty()) continue;
        page.diff_flamegraphs[{i, k}] = std::move(*graph);
        ++graphs;
      }
    }
    if (left_out > 0) {
      err += std::string(kProgram) + ": warning: " + std::to_string(left_out) +
             " change points beyond the first " + std::to_string(kMaxFlameGraphs) +
             " have no flame graph on the page\n";
    }
    size_t change_points = 0;
    for (const AnalysedSeries& a : page.series) change_points += a.change_points.size();
    if (Status written = output->WriteAndCommit(TrendPageHtml(page)); !written.ok()) {
      return Fail(err, "-o: " + written.message());
    }
    out += "wrote " + OneLine(settings.out) + ": " + std::to_string(page.series.size()) +
           " series, " + std::to_string(change_points) + " change points, " +
           std::to_string(graphs) + " flame graphs\n";
  } catch (const std::bad_alloc&) {
    return Fail(err, "out of memory while drawing the page");
  }
  return kExitOk;
}

}  // namespace benchprof::history
