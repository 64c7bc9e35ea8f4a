#include "tools/history/show_command.h"

#include <algorithm>
#include <ctime>
#include <memory>

#include "benchprof/flags.h"
#include "tools/compare/cell_format.h"
#include "tools/history/database.h"
#include "tools/history/store_flags.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::history {
namespace {

using tools::DisplayWidth;
using tools::kExitBadInput;
using tools::kExitOk;
using tools::OneLine;

constexpr std::string_view kProgram = "benchprof history show";

constexpr std::string_view kIntro =
    R"(Usage: benchprof history show [--db=LOCATION] [--metric=NAME] [--branch=NAME]
         [--testbed=NAME] [PATTERN]

Prints the stored runs of each series (benchmark x metric x testbed x branch)
whose benchmark name PATTERN matches (a POSIX extended regular expression,
searched anywhere in the name; every benchmark if none): one row per run in
git ancestry order, oldest first, with the commit, its date and subject, the
number of repetitions, their median, minimum and maximum, and the median's
change from the run before.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "printed"},
    {kExitBadInput,
     "bad input: a bad flag or pattern, no series matches, no database there, a file that "
     "is not a history database or is of a newer schema"},
    {kExitDatabaseUnavailable, kStoreUnavailableMeaning},
};

struct ShowSettings {
  StoreFlags store;
  SeriesFilterFlags filter;
};

void DeclareFlags(FlagSet& flags, ShowSettings* s) {
  DeclareStoreFlags(flags, &s->store);
  DeclareSeriesFilterFlags(flags, &s->filter);
}

constexpr size_t kSubjectWidth = 40;

std::string Date(int64_t ns) {
  if (ns == 0) return "-";
  const std::time_t seconds = static_cast<std::time_t>(ns / 1'000'000'000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d", &tm);
  return text;
}

// At most `width` code points, "…" marking a cut.
std::string Clip(const std::string& text, size_t width) {
  if (DisplayWidth(text) <= width) return text;
  std::string out;
  size_t points = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool starts_point = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts_point && ++points > width - 1) break;
    out += text[i];
  }
  return out + "…";
}

void AppendPadded(std::string& line, const std::string& cell, size_t width, bool right) {
  const size_t w = DisplayWidth(cell);
  const std::string pad(width > w ? width - w : 0, ' ');
  line += right ? pad + cell : cell + pad;
}

}  // namespace

std::string RenderSeriesTable(const std::vector<Series>& series,
                              const std::map<std::string, CommitInfo>& commits) {
  std::string out;
  for (const Series& s : series) {
    if (!out.empty()) out += "\n";
    out +=
        OneLine(s.key.benchmark) + "  " + OneLine(s.key.metric) +
        (s.info.unit.empty() || s.info.unit == s.key.metric ? ""
                                                            : " (" + OneLine(s.info.unit) + ")") +
        "  testbed " + OneLine(s.key.testbed) + "  branch " + OneLine(s.key.branch) + "\n";
    std::vector<std::vector<std::string>> rows = {
        {"commit", "date", "subject", "n", "median", "min", "max", "change"}};
    double previous = 0;
    for (size_t i = 0; i < s.points.size(); ++i) {
      const SeriesPoint& p = s.points[i];
      const auto c = commits.find(p.commit);
      const int64_t time = c != commits.end() && c->second.committer_time_ns != 0
                               ? c->second.committer_time_ns
                               : p.recorded_at_ns;
      const std::string subject =
          c != commits.end() ? Clip(OneLine(c->second.subject), kSubjectWidth) : "";
      std::string lo = "-", hi = "-";
      if (!p.values.empty()) {
        const auto [min, max] = std::minmax_element(p.values.begin(), p.values.end());
        lo = compare::FormatValue(*min, s.info);
        hi = compare::FormatValue(*max, s.info);
      }
      std::string change;
      if (i > 0) {
        change = previous == 0 ? (p.median == 0 ? compare::FormatDelta(0) : "-")
                               : compare::FormatDelta(p.median / previous - 1);
      }
      previous = p.median;
      rows.push_back({OneLine(p.commit.substr(0, 12)), Date(time), subject,
                      std::to_string(p.values.size()), compare::FormatValue(p.median, s.info), lo,
                      hi, change});
    }
    std::vector<size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows) {
      for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
    for (const auto& row : rows) {
      std::string line;
      for (size_t i = 0; i < row.size(); ++i) {
        if (i > 0) line += "  ";
        AppendPadded(line, row[i], widths[i], /*right=*/i >= 3);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  return out;
}

std::string ShowHelp() { return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes); }

int RunShowCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  ShowSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                             &settings, &cl, out, err)) {
    return *done;
  }
  StatusOr<SeriesSelection> selection = SelectSeries(kProgram, cl, settings.filter);
  if (!selection.ok()) return tools::Fail(err, kProgram, selection.status().message());

  std::unique_ptr<HistoryStore> store;
  SelectedSeries selected;
  if (int code = LoadSelectedSeries(kProgram, settings.store, *selection, /*required=*/true, &store,
                                    &selected, err)) {
    return code;
  }
  out += RenderSeriesTable(selected.series, selected.commits);
  return kExitOk;
}

}  // namespace benchprof::history
