#include "tools/compare/markdown_output.h"

#include <algorithm>
#include <vector>

#include "tools/compare/markdown_text.h"
#include "tools/compare/output_content.h"

namespace benchprof::compare {
namespace {

// Text from an input file in a paragraph or list item.
std::string Code(const std::string& s) { return MarkdownCodeSpan(s, /*in_table=*/false); }

// The cells of `row` as Markdown shows them: names as code, the gate of a
// regression in bold.
std::vector<std::string> MarkedUpCells(const TableRow& row) {
  std::vector<std::string> cells = row.cells;
  if (row.first_cell_is_name) cells.front() = MarkdownCodeSpan(cells.front(), /*in_table=*/true);
  if (row.regression) cells.back() = "**" + cells.back() + "**";
  return cells;
}

std::string RenderMarkdown(const MetricTable& t) {
  std::vector<std::vector<std::string>> rows;
  for (const TableRow& row : t.rows) rows.push_back(MarkedUpCells(row));
  // Columns that are empty throughout (the gate of an ungated metric) go.
  std::vector<bool> used(t.align.size(), false);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) used[i] = used[i] || !row[i].empty();
  }
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    out += "|";
    for (size_t i = 0; i < rows[r].size(); ++i) {
      if (used[i]) out += " " + rows[r][i] + " |";
    }
    out += "\n";
    if (r == 0) {
      out += "|";
      for (size_t i = 0; i < t.align.size(); ++i) {
        if (used[i]) out += t.align[i] == Align::kLeft ? " :-- |" : " --: |";
      }
      out += "\n";
    }
  }
  return out;
}

std::string FindingsMarkdown(const Comparison& c) {
  std::string out;
  for (const auto& [title, outcome] : kFindingSections) {
    const std::vector<Finding> findings = Findings(c, outcome);
    if (findings.empty()) continue;
    out += "\n**" + std::string(title) + "**\n\n";
    for (const Finding& f : findings) {
      // The reason quotes metric names and units from the files.
      out += "- " + Code(f.benchmark) + " " + Code(f.metric) + ": " + Code(f.reason) + "\n";
    }
  }
  return out;
}

std::string SkippedMarkdown(const Comparison& c) {
  const std::vector<std::string> lines = SkippedLines(c);
  if (lines.empty()) return "";
  std::string out = "\n**Skipped (not compared)**\n\n";
  for (size_t i = 0; i < lines.size() && i < kMaxListedWarnings; ++i) {
    out += "- " + Code(lines[i]) + "\n";
  }
  if (lines.size() > kMaxListedWarnings) {
    out += "- … " + std::to_string(lines.size() - kMaxListedWarnings) + " more\n";
  }
  return out;
}

std::string WarningsMarkdown(const Comparison& c) {
  const std::vector<std::string> warnings = AllWarnings(c);
  if (warnings.empty() && c.verdict_notes.empty()) return "";
  std::string out = "\n**Warnings**\n\n";
  for (const std::string& note : c.verdict_notes) out += "- " + MarkdownEscape(note) + "\n";
  for (size_t i = 0; i < warnings.size() && i < kMaxListedWarnings; ++i) {
    out += "- " + Code(warnings[i]) + "\n";
  }
  if (warnings.size() > kMaxListedWarnings) {
    out += "- … " + std::to_string(warnings.size() - kMaxListedWarnings) + " more\n";
  }
  return out;
}

}  // namespace

std::string ComparisonMarkdown(const Comparison& c) {
  std::string out = "### benchprof compare: " + std::string(VerdictName(c.verdict)) + "\n\n";
  out += "base: " + Code(FileList(c.base_files)) +
         GbenchVersionSuffix(c.base_gbench_versions, Code) +
         " · head: " + Code(FileList(c.head_files)) +
         GbenchVersionSuffix(c.head_gbench_versions, Code) + "\n";
  if (const std::string note = GbenchVersionNote(c, Code); !note.empty()) {
    out += "\nNote: " + note + "\n";
  }
  for (const MetricTable& table : MetricTables(c)) out += "\n" + RenderMarkdown(table);
  if (!c.rows.empty()) {
    const std::vector<std::string> legend = Legend(c);
    out += "\n" + MarkdownEscape(legend[0]) + "<br>\n" + MarkdownEscape(legend[1]) + "\n";
  }
  out += FindingsMarkdown(c);
  out += SkippedMarkdown(c);
  out += WarningsMarkdown(c);
  out += "\nVerdict: **" + VerdictLine(c) + "**\n";
  return out;
}

}  // namespace benchprof::compare
