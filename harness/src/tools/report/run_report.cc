#include "tools/report/run_report.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/flamegraph/benchmark_split.h"
#include "tools/flamegraph/flame_html.h"
#include "tools/flamegraph/flame_tree.h"
#include "tools/text_format.h"
#include "tools/trace_summary/trace_summary_format.h"

namespace benchprof::report {

using results::GbenchRow;
using tools::OneLine;

namespace {

// Text from an input file (a name, a path, a message) as HTML: on one line,
// as OneLine makes it, and escaped.
std::string HtmlEscaped(std::string_view text) { return flamegraph::HtmlEscaped(OneLine(text)); }

bool ShownRow(const GbenchRow& row) {
  return !row.aggregate || row.aggregate_name == "mean" || row.aggregate_name == "median" ||
         row.aggregate_name == "stddev";
}

// The counters of the shown rows, allocs/op and B/op first, then in order
// of first appearance.
std::vector<std::string> CounterColumns(const results::GbenchResults& results) {
  std::vector<std::string> columns;
  for (const GbenchRow& row : results.rows) {
    if (!ShownRow(row)) continue;
    for (const auto& [name, value] : row.counters) {
      if (std::find(columns.begin(), columns.end(), name) == columns.end()) {
        columns.push_back(name);
      }
    }
  }
  std::stable_sort(columns.begin(), columns.end(), [](const std::string& a, const std::string& b) {
    const auto rank = [](const std::string& c) {
      return c == "allocs/op" ? 0 : c == "B/op" ? 1 : 2;
    };
    return rank(a) < rank(b);
  });
  return columns;
}

std::string CounterCell(const std::string& name, double value) {
  std::string text = tools::FormatNumber(value);
  if (name.size() > 11 && name.ends_with("_per_second")) text += "/s";
  return text;
}

// An id for a benchmark's section: its position.
std::string SectionId(size_t index) { return "bench-" + std::to_string(index); }

void AppendContext(const RunReport& report, std::string& html) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : report.results.context) {
    if ((key == "date" || key == "host_name" || key == "executable") && value.is_string()) {
      parts.push_back(value.as_string());
    }
    if (key == "num_cpus" && value.is_number()) {
      parts.push_back(tools::FormatNumber(value.as_number()) + " CPUs");
    }
  }
  const std::string version = results::GbenchVersion(report.results);
  if (!version.empty()) parts.push_back("Google Benchmark " + version);
  html += "<p class=\"meta\">";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i != 0) html += " · ";
    html += HtmlEscaped(parts[i]);
  }
  html += "</p>\n";
}

void AppendResultsTable(const RunReport& report, const std::vector<std::string>& with_profiles,
                        std::string& html) {
  const std::vector<std::string> counters = CounterColumns(report.results);
  html +=
      "<h2>Results</h2>\n<div class=\"wide\"><table>\n<tr><th>Benchmark</th><th>Time</th>"
      "<th>CPU</th><th>Iterations</th>";
  for (const std::string& c : counters) html += "<th>" + HtmlEscaped(c) + "</th>";
  html += "</tr>\n";
  for (const GbenchRow& row : report.results.rows) {
    if (!ShownRow(row)) continue;
    html += "<tr><td>";
    const auto linked = std::find(with_profiles.begin(), with_profiles.end(), row.run_name);
    if (linked != with_profiles.end() && !row.aggregate) {
      html += "<a href=\"#" + SectionId(static_cast<size_t>(linked - with_profiles.begin())) +
              "\">" + HtmlEscaped(row.name) + "</a>";
    } else {
      html += HtmlEscaped(row.name);
    }
    html += "</td>";
    if (!row.measured()) {
      const std::string why =
          row.error ? "error: " + row.error_message : "skipped: " + row.skip_message;
      html += "<td colspan=\"" + std::to_string(3 + counters.size()) + "\">" + HtmlEscaped(why) +
              "</td></tr>\n";
      continue;
    }
    if (row.has_times) {
      html += "<td>" + HtmlEscaped(tools::FormatDuration(row.real_ns)) + "</td><td>" +
              HtmlEscaped(tools::FormatDuration(row.cpu_ns)) + "</td>";
    } else {
      html += "<td>—</td><td>—</td>";
    }
    html +=
        "<td>" + (row.aggregate ? std::string() : tools::FormatNumber(row.iterations)) + "</td>";
    for (const std::string& c : counters) {
      const auto it = std::find_if(row.counters.begin(), row.counters.end(),
                                   [&](const auto& counter) { return counter.first == c; });
      html += "<td>" +
              (it == row.counters.end() ? std::string() : HtmlEscaped(CounterCell(c, it->second))) +
              "</td>";
    }
    html += "</tr>\n";
  }
  html += "</table></div>\n";
}

// One benchmark's graph from `source`, or nothing when it has no samples.
void AppendGraph(const ProfileSource& source, std::string_view benchmark,
                 flamegraph::FlamePage& page) {
  std::string& html = page.html();
  const StatusOr<size_t> index = flamegraph::ChooseSampleIndex(source.profile, "");
  if (!index.ok()) return;
  const flamegraph::FlameTree tree = flamegraph::BenchmarkTree(source.profile, *index, benchmark);
  if (tree.samples == 0) return;
  html += "<h4>" + HtmlEscaped(source.path) + ": " + HtmlEscaped(flamegraph::DescribeTotal(tree)) +
          "</h4>\n";
  page.AppendGraph(tree);
}

bool HasSamples(const std::optional<ProfileSource>& source, std::string_view benchmark) {
  if (!source) return false;
  const StatusOr<size_t> index = flamegraph::ChooseSampleIndex(source->profile, "");
  if (!index.ok()) return false;
  return std::any_of(source->profile.samples.begin(), source->profile.samples.end(),
                     [&](const encode::ProfileSample& s) {
                       return s.values[*index] != 0 && flamegraph::IsBenchmarkSample(s, benchmark);
                     });
}

}  // namespace

std::string RenderRunReport(const RunReport& report) {
  // The benchmarks with samples, in the order of the results file.
  std::vector<std::string> with_profiles;
  for (const GbenchRow& row : report.results.rows) {
    if (row.aggregate || std::find(with_profiles.begin(), with_profiles.end(), row.run_name) !=
                             with_profiles.end()) {
      continue;
    }
    if (HasSamples(report.cpu, row.run_name) || HasSamples(report.heap, row.run_name)) {
      with_profiles.push_back(row.run_name);
    }
  }

  flamegraph::FlamePage page("benchprof report: " + OneLine(report.results_path));
  std::string& html = page.html();
  html += "<h1>" + HtmlEscaped(report.results_path) + "</h1>\n";
  AppendContext(report, html);
  AppendResultsTable(report, with_profiles, html);

  if (report.cpu || report.heap) {
    html += "<h2>Profiles</h2>\n";
    if (with_profiles.empty()) {
      // No sample names a benchmark of the file (a profile from another
      // tool, or of other benchmarks): the whole profiles.
      html +=
          "<p class=\"meta\">No sample is labelled with a benchmark of this file; the whole "
          "profiles follow.</p>\n";
      for (const auto* source : {&report.cpu, &report.heap}) {
        if (*source) AppendGraph(**source, "", page);
      }
    }
    for (size_t i = 0; i < with_profiles.size(); ++i) {
      html +=
          "<section id=\"" + SectionId(i) + "\"><h3>" + HtmlEscaped(with_profiles[i]) + "</h3>\n";
      for (const auto* source : {&report.cpu, &report.heap}) {
        if (*source) AppendGraph(**source, with_profiles[i], page);
      }
      html += "</section>\n";
    }
  }
  if (report.trace) {
    html += "<h2>Trace: " + HtmlEscaped(report.trace_path) + "</h2>\n<pre>";
    // Line by line: the summary's own line breaks stay, and its names are
    // one line each already.
    const std::string summary =
        trace_summary::RenderTraceSummary(*report.trace, trace_summary::TraceSummaryFormat::kText);
    for (size_t start = 0; start < summary.size();) {
      const size_t end = std::min(summary.find('\n', start), summary.size());
      html += HtmlEscaped(std::string_view(summary).substr(start, end - start)) + "\n";
      start = end + 1;
    }
    html += "</pre>\n";
  }
  return std::move(page).Finish();
}

}  // namespace benchprof::report
