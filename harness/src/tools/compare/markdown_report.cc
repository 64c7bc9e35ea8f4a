#include "tools/compare/markdown_report.h"

#include <algorithm>
#include <vector>

#include "tools/compare/report_content.h"

namespace benchprof::compare {
namespace {

// Escapes text for a Markdown table cell or paragraph.
std::string EscapeMarkdown(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '*' || c == '_' || c == '`' || c == '|' || c == '<' || c == '>' ||
        c == '[' || c == ']' || c == '#') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

// A code span that survives any content, including backticks and pipes.
std::string MarkdownCode(const std::string& s) {
  std::string escaped;
  size_t run = 0, longest = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|') escaped += '\\';  // GFM table cells need it even in code
    escaped += c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
  return fence + (pad ? " " : "") + escaped + (pad ? " " : "") + fence;
}

// The cells of `row` as Markdown shows them: names as code, the gate of a
// regression in bold.
std::vector<std::string> MarkedUpCells(const TableRow& row) {
  std::vector<std::string> cells = row.cells;
  if (row.first_cell_is_name) cells.front() = MarkdownCode(cells.front());
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
      out += "- " + MarkdownCode(f.benchmark) + " " + EscapeMarkdown(f.metric) + ": " +
             EscapeMarkdown(f.reason) + "\n";
    }
  }
  return out;
}

std::string SkippedMarkdown(const Comparison& c) {
  const std::vector<std::string> lines = SkippedLines(c);
  if (lines.empty()) return "";
  std::string out = "\n**Skipped (not compared)**\n\n";
  for (size_t i = 0; i < lines.size() && i < kMaxListedWarnings; ++i) {
    out += "- " + EscapeMarkdown(lines[i]) + "\n";
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
  for (const std::string& note : c.verdict_notes) out += "- " + EscapeMarkdown(note) + "\n";
  for (size_t i = 0; i < warnings.size() && i < kMaxListedWarnings; ++i) {
    out += "- " + EscapeMarkdown(warnings[i]) + "\n";
  }
  if (warnings.size() > kMaxListedWarnings) {
    out += "- … " + std::to_string(warnings.size() - kMaxListedWarnings) + " more\n";
  }
  return out;
}

}  // namespace

std::string MarkdownReport(const Comparison& c) {
  std::string out = "### benchprof compare: " + std::string(VerdictName(c.verdict)) + "\n\n";
  out += "base: " + MarkdownCode(FileList(c.base_files)) +
         EscapeMarkdown(GbenchVersionSuffix(c.base_gbench_versions)) +
         " · head: " + MarkdownCode(FileList(c.head_files)) +
         EscapeMarkdown(GbenchVersionSuffix(c.head_gbench_versions)) + "\n";
  if (const std::string note = GbenchVersionNote(c); !note.empty()) {
    out += "\nNote: " + EscapeMarkdown(note) + "\n";
  }
  for (const MetricTable& table : MetricTables(c)) out += "\n" + RenderMarkdown(table);
  if (!c.rows.empty()) {
    const std::vector<std::string> legend = Legend(c);
    out += "\n" + EscapeMarkdown(legend[0]) + "<br>\n" + EscapeMarkdown(legend[1]) + "\n";
  }
  out += FindingsMarkdown(c);
  out += SkippedMarkdown(c);
  out += WarningsMarkdown(c);
  out += "\nVerdict: **" + VerdictLine(c) + "**\n";
  return out;
}

}  // namespace benchprof::compare
