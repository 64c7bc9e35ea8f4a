#include "tools/compare/html_output.h"

#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/compare/output_content.h"
#include "tools/flamegraph/benchmark_split.h"
#include "tools/flamegraph/flame_html.h"
#include "tools/flamegraph/flame_tree.h"
#include "tools/text_format.h"

namespace benchprof::compare {

using flamegraph::HtmlEscaped;

namespace {

// The class of a table row, from its gate cell.
std::string_view RowClass(const TableRow& row) {
  if (row.regression) return "regression";
  if (row.cells.empty()) return "";
  if (row.cells.back() == "improved") return "improvement";
  if (row.cells.back() == "inconclusive") return "inconclusive";
  return "";
}

void AppendTable(const MetricTable& table, std::string& html) {
  html += "<div class=\"wide\"><table>\n";
  for (size_t r = 0; r < table.rows.size(); ++r) {
    const TableRow& row = table.rows[r];
    const std::string_view row_class = RowClass(row);
    html += row_class.empty() ? "<tr>" : "<tr class=\"" + std::string(row_class) + "\">";
    for (size_t i = 0; i < row.cells.size(); ++i) {
      const char* tag = r == 0 ? "th" : "td";
      std::string cell = HtmlEscaped(row.cells[i]);
      if (r != 0 && row.regression && i + 1 == row.cells.size()) cell = "<b>" + cell + "</b>";
      html += std::string("<") + tag + ">" + cell + "</" + tag + ">";
    }
    html += "</tr>\n";
  }
  html += "</table></div>\n";
}

void AppendList(const char* title, const std::vector<std::string>& lines, std::string& html) {
  if (lines.empty()) return;
  html += "<h2>" + std::string(title) + "</h2>\n<ul>\n";
  for (size_t i = 0; i < lines.size() && i < kMaxListedWarnings; ++i) {
    html += "<li>" + HtmlEscaped(lines[i]) + "</li>\n";
  }
  if (lines.size() > kMaxListedWarnings) {
    html += "<li>… " + std::to_string(lines.size() - kMaxListedWarnings) + " more</li>\n";
  }
  html += "</ul>\n";
}

std::string Paths(const std::vector<NamedProfile>& profiles) {
  std::vector<std::string> paths;
  for (const NamedProfile& p : profiles) paths.push_back(p.path);
  return FileList(paths);
}

// The differential graph of `benchmark` from `pair`, when both sides have
// samples of it, in the sample type the first head profile defaults to.
// With `base_may_be_empty` (heap profiles: a benchmark that did not
// allocate before has no samples there) a base without any draws all of
// it as new, and the heading says the base's total is 0. A CPU profile
// without samples of a benchmark says nothing of it: no graph.
void AppendDiff(const ProfilePair& pair, const std::string& benchmark, bool base_may_be_empty,
                flamegraph::FlamePage& page) {
  if (pair.head.empty() || pair.base.empty()) return;
  const StatusOr<size_t> first = flamegraph::ChooseSampleIndex(pair.head[0].profile, "");
  if (!first.ok()) return;
  const encode::ValueTypeName type = pair.head[0].profile.sample_types[*first];
  const auto keep = [&benchmark](const encode::ProfileSample& sample) {
    return flamegraph::IsBenchmarkSample(sample, benchmark);
  };
  flamegraph::FlameTreeBuilder builder(type);
  for (const auto* side : {&pair.head, &pair.base}) {
    for (const NamedProfile& p : *side) {
      const StatusOr<size_t> index = flamegraph::ChooseSampleIndex(p.profile, type.type);
      if (index.ok()) builder.Add(p.profile, *index, keep, side == &pair.base);
    }
  }
  const flamegraph::FlameTree tree = std::move(builder).Finish();
  if (tree.samples == 0 || (tree.base_samples == 0 && !base_may_be_empty)) return;
  page.html() += "<h4>" + HtmlEscaped(Paths(pair.head)) + " against " +
                 HtmlEscaped(Paths(pair.base)) + ": " +
                 HtmlEscaped(flamegraph::DescribeTotal(tree)) + "</h4>\n";
  page.AppendGraph(tree);
}

}  // namespace

std::string ComparisonHtml(const Comparison& c, const HtmlProfiles& profiles) {
  flamegraph::FlamePage page("benchprof compare: " + std::string(VerdictName(c.verdict)));
  std::string& html = page.html();
  html += "<h1>benchprof compare: " + HtmlEscaped(VerdictName(c.verdict)) + "</h1>\n";
  html += "<p class=\"meta\">base: " + HtmlEscaped(FileList(c.base_files)) +
          HtmlEscaped(GbenchVersionSuffix(c.base_gbench_versions)) +
          " · head: " + HtmlEscaped(FileList(c.head_files)) +
          HtmlEscaped(GbenchVersionSuffix(c.head_gbench_versions)) + "</p>\n";
  if (const std::string note = GbenchVersionNote(c); !note.empty()) {
    html += "<p>Note: " + HtmlEscaped(note) + "</p>\n";
  }
  for (const MetricTable& table : MetricTables(c)) AppendTable(table, html);
  if (!c.rows.empty()) {
    const std::vector<std::string> legend = Legend(c);
    html += "<p class=\"meta\">" + HtmlEscaped(legend[0]) + "<br>\n" + HtmlEscaped(legend[1]) +
            "</p>\n";
  }
  for (const auto& [title, outcome] : kFindingSections) {
    std::vector<std::string> lines;
    for (const Finding& f : Findings(c, outcome)) {
      lines.push_back(f.benchmark + " " + f.metric + ": " + f.reason);
    }
    AppendList(title, lines, html);
  }
  AppendList("Skipped (not compared)", SkippedLines(c), html);
  std::vector<std::string> warnings = c.verdict_notes;
  for (const std::string& w : AllWarnings(c)) warnings.push_back(w);
  AppendList("Warnings", warnings, html);
  html += "<p><b>Verdict: " + HtmlEscaped(VerdictLine(c)) + "</b></p>\n";

  if (profiles.cpu || profiles.heap || !profiles.explanations.empty()) {
    std::vector<std::string> regressed;
    std::set<std::string> seen;
    for (const Row& row : c.rows) {
      if (row.outcome == Outcome::kRegression && seen.insert(row.benchmark).second) {
        regressed.push_back(row.benchmark);
      }
    }
    html += "<h2>Profiles of the regressions</h2>\n";
    if (regressed.empty()) html += "<p class=\"meta\">No regression.</p>\n";
    for (const std::string& benchmark : regressed) {
      html += "<section><h3>" + HtmlEscaped(tools::OneLine(benchmark)) + "</h3>\n";
      if (const auto why = profiles.explanations.find(benchmark);
          why != profiles.explanations.end()) {
        html += "<pre>";
        // Line by line: each is one line of names made safe, and the
        // explanation's own line breaks stay.
        std::string_view text = why->second;
        while (!text.empty()) {
          const size_t end = text.find('\n');
          html += HtmlEscaped(tools::OneLine(std::string(text.substr(0, end)))) + "\n";
          text = end == std::string_view::npos ? "" : text.substr(end + 1);
        }
        html += "</pre>\n";
      }
      const size_t before = html.size();
      if (profiles.cpu) AppendDiff(*profiles.cpu, benchmark, /*base_may_be_empty=*/false, page);
      if (profiles.heap) AppendDiff(*profiles.heap, benchmark, /*base_may_be_empty=*/true, page);
      if (html.size() == before) {
        html += "<p class=\"meta\">No samples of this benchmark in both profiles.</p>\n";
      }
      html += "</section>\n";
    }
  }
  return std::move(page).Finish();
}

}  // namespace benchprof::compare
