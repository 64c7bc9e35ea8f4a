#include "tools/compare/text_output.h"

#include <algorithm>
#include <vector>

#include "tools/compare/output_content.h"
#include "tools/text_format.h"

namespace benchprof::compare {

using tools::DisplayWidth;

namespace {

std::string Pad(const std::string& s, size_t width, Align align) {
  const size_t w = DisplayWidth(s);
  if (w >= width) return s;
  const std::string fill(width - w, ' ');
  return align == Align::kLeft ? s + fill : fill + s;
}

// Columns two spaces apart, each as wide as its widest cell; columns empty
// throughout are left out, and so is trailing space.
std::string RenderText(const MetricTable& t) {
  std::vector<size_t> width(t.align.size(), 0);
  for (const TableRow& row : t.rows) {
    for (size_t i = 0; i < row.cells.size(); ++i) {
      width[i] = std::max(width[i], DisplayWidth(row.cells[i]));
    }
  }
  std::string out;
  for (const TableRow& row : t.rows) {
    std::string line;
    for (size_t i = 0; i < row.cells.size(); ++i) {
      if (width[i] == 0) continue;
      if (!line.empty()) line += "  ";
      line += Pad(row.cells[i], width[i], t.align[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string FindingsText(const Comparison& c) {
  std::string out;
  for (const auto& [title, outcome] : kFindingSections) {
    const std::vector<Finding> findings = Findings(c, outcome);
    if (findings.empty()) continue;
    out += "\n" + std::string(title) + ":\n";
    for (const Finding& f : findings) {
      out += "  " + f.benchmark + " " + f.metric + ": " + f.reason + "\n";
    }
  }
  return out;
}

// Skipped benchmarks are listed apart from failures: a skip is the
// benchmark's own decision, not a problem with the run.
std::string SkippedText(const Comparison& c) {
  const std::vector<std::string> lines = SkippedLines(c);
  if (lines.empty()) return "";
  std::string out = "\nSkipped (not compared):\n";
  for (size_t i = 0; i < lines.size() && i < kMaxListedWarnings; ++i) {
    out += "  " + lines[i] + "\n";
  }
  if (lines.size() > kMaxListedWarnings) {
    out +=
        "  … " + std::to_string(lines.size() - kMaxListedWarnings) + " more (see --format=json)\n";
  }
  return out;
}

std::string WarningsText(const Comparison& c) {
  const std::vector<std::string> warnings = AllWarnings(c);
  if (warnings.empty() && c.verdict_notes.empty()) return "";
  std::string out = "\nWarnings:\n";
  for (const std::string& note : c.verdict_notes) out += "  " + note + "\n";
  for (size_t i = 0; i < warnings.size() && i < kMaxListedWarnings; ++i) {
    out += "  " + warnings[i] + "\n";
  }
  if (warnings.size() > kMaxListedWarnings) {
    out += "  … " + std::to_string(warnings.size() - kMaxListedWarnings) +
           " more (see --format=json)\n";
  }
  return out;
}

}  // namespace

std::string ComparisonText(const Comparison& c) {
  std::string out =
      "base: " + FileList(c.base_files) + GbenchVersionSuffix(c.base_gbench_versions) +
      "\nhead: " + FileList(c.head_files) + GbenchVersionSuffix(c.head_gbench_versions) + "\n";
  if (const std::string note = GbenchVersionNote(c); !note.empty()) out += "note: " + note + "\n";
  for (const MetricTable& table : MetricTables(c)) out += "\n" + RenderText(table);
  if (!c.rows.empty()) {
    out += "\n";
    for (const std::string& line : Legend(c)) out += line + "\n";
  }
  out += FindingsText(c);
  out += SkippedText(c);
  out += WarningsText(c);
  out += "\nverdict: " + VerdictLine(c) + "\n";
  return out;
}

}  // namespace benchprof::compare
