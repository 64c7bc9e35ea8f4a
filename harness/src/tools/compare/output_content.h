// What the text and Markdown reports of a Comparison say, before either
// lays it out: the Google Benchmark version of each side, one table per
// metric (one row per benchmark, then the geomean), the legend, the
// findings (regressions, inconclusive rows, improvements, each with the
// reason its rule gave), the skipped benchmarks and the warnings.
//
// Cells and lines are plain text, each on one line: every name, path,
// version and message from an input file has been through tools::OneLine
// (no line break, control or bidi character, no CI command), so text,
// Markdown and HTML print them without more checks; JSON reads the
// Comparison itself and keeps them exact. Each table row says which of its
// cells a format may mark up (the name in its first cell, the gate of a
// regression in its last), so that Markdown can quote and embolden them
// while the text table shows them as they are.
//
//   for (const MetricTable& table : MetricTables(comparison)) {
//     for (const TableRow& row : table.rows) ... row.cells ...
//   }
//
// Thread-safety: thread-safe (pure functions of the Comparison).
#ifndef BENCHPROF_TOOLS_COMPARE_OUTPUT_CONTENT_H_
#define BENCHPROF_TOOLS_COMPARE_OUTPUT_CONTENT_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tools/compare/comparison.h"

namespace benchprof::compare {

// Warnings listed in text and Markdown at most (JSON has them all).
inline constexpr size_t kMaxListedWarnings = 20;

enum class Align { kLeft, kRight };

struct TableRow {
  std::vector<std::string> cells;
  bool first_cell_is_name = false;  // a metric (header) or benchmark name
  bool regression = false;          // the last cell is a regression's gate
};

// One metric's table: columns name, base, head, delta, statistics, gate.
struct MetricTable {
  std::vector<Align> align;    // per column
  std::vector<TableRow> rows;  // rows[0] is the header
};

// One table per metric with rows, in display order. The gate column is
// empty throughout when no row of the metric is gated.
std::vector<MetricTable> MetricTables(const Comparison& c);

// The files of one side: "a.json", "a.json, b.json" or
// "a.json … z.json (26 files)".
std::string FileList(const std::vector<std::string>& files);

// How a format shows text from an input file inside its own words: as it
// is (AsIs: text, HTML), or in a Markdown code span.
using Quote = std::string (*)(const std::string&);
std::string AsIs(const std::string& text);

// What follows a side's files in the header: " (Google Benchmark 1.9.1)",
// " (Google Benchmark 1.7.1 and 1.9.1)" for files of several versions, or
// "" when no file of the side says which version wrote it. Each version
// is quoted with `quote`.
std::string GbenchVersionSuffix(const std::vector<std::string>& versions, Quote quote = AsIs);

// One line when the files of the two sides were not all written by the same
// Google Benchmark version (unknown versions aside): "base and head were
// written by different Google Benchmark versions (base 1.7.1, head 1.9.1);
// differences may come from the library". "" otherwise. A note, not a
// warning: upgrading the library is a normal reason to compare. Each
// version is quoted with `quote`.
std::string GbenchVersionNote(const Comparison& c, Quote quote = AsIs);

// The benchmarks that skipped themselves, base then head, one line each
// (a line break in a message made a space, as OneLine does):
// "head.json: BM_Gpu: skipped (no GPU)".
std::vector<std::string> SkippedLines(const Comparison& c);

// Two lines (without line breaks) that say how to read the tables.
std::vector<std::string> Legend(const Comparison& c);

// The sections of findings, in report order: title and the outcome listed.
inline constexpr std::pair<const char*, Outcome> kFindingSections[] = {
    {"Regressions", Outcome::kRegression},
    {"Inconclusive", Outcome::kInconclusive},
    {"Improvements", Outcome::kImprovement}};

// A gated row with a given outcome, and the reason its rule gave.
struct Finding {
  std::string benchmark, metric, reason;
};

// The gated rows whose outcome is `outcome`, in row order.
std::vector<Finding> Findings(const Comparison& c, Outcome outcome);

// The benchmarks on one side only (named, up to 10 per side), then the
// comparison's warnings.
std::vector<std::string> AllWarnings(const Comparison& c);

// "regression (exit code 1)".
std::string VerdictLine(const Comparison& c);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_OUTPUT_CONTENT_H_
