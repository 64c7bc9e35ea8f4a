#include "tools/compare/table_writer.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/json_value.h"
#include "tools/compare/cell_format.h"
#include "tools/text_format.h"

namespace benchprof::compare {

using results::MetricInfo;
using results::MetricKind;
using tools::DisplayWidth;

namespace {

// Lists longer than this are cut in text and Markdown (JSON has them all).
constexpr size_t kMaxListedNames = 10;
constexpr size_t kMaxListedWarnings = 20;

enum class Align { kLeft, kRight };

struct Table {
  std::vector<Align> align;
  std::vector<std::vector<std::string>> rows;  // rows[0] is the header
};

std::string Pad(const std::string& s, size_t width, Align align) {
  const size_t w = DisplayWidth(s);
  if (w >= width) return s;
  const std::string fill(width - w, ' ');
  return align == Align::kLeft ? s + fill : fill + s;
}

std::string RenderText(const Table& t) {
  std::vector<size_t> width(t.align.size(), 0);
  for (const auto& row : t.rows) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], DisplayWidth(row[i]));
  }
  std::string out;
  for (const auto& row : t.rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      if (width[i] == 0) continue;
      if (!line.empty()) line += "  ";
      line += Pad(row[i], width[i], t.align[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

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

std::string RenderMarkdown(const Table& t) {
  // Columns that are empty throughout (the gate of an ungated metric) go.
  std::vector<bool> used(t.align.size(), false);
  for (const auto& row : t.rows) {
    for (size_t i = 0; i < row.size(); ++i) used[i] = used[i] || !row[i].empty();
  }
  std::string out;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    out += "|";
    for (size_t i = 0; i < t.rows[r].size(); ++i) {
      if (used[i]) out += " " + t.rows[r][i] + " |";
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

std::string DeltaCell(const Row& row) {
  switch (row.rule) {
    case Rule::kMissing:
      return "—";
    case Rule::kExact:
      if (row.base.median == row.head.median) return "0.00%";
      if (row.base.median == 0) {
        return "+" + FormatValue(row.head.median - row.base.median, row.info);
      }
      return FormatDelta(row.delta);
    case Rule::kStatistical:
      break;
  }
  return row.significant ? FormatDelta(row.delta) : "~";
}

std::string StatsCell(const Row& row) {
  switch (row.rule) {
    case Rule::kMissing:
      return FormatCounts(row.base.n, row.head.n);
    case Rule::kExact:
      return "exact " + FormatCounts(row.base.n, row.head.n);
    case Rule::kStatistical:
      break;
  }
  return "p=" + FormatP(row.p) + " " + FormatCounts(row.base.n, row.head.n);
}

std::string GateCell(const Row& row) {
  if (!row.gated()) return "";
  switch (row.outcome) {
    case Outcome::kRegression:
      return "REGRESSION";
    case Outcome::kWithinThreshold:
      return "within " + row.threshold->ToString();
    case Outcome::kImprovement:
      return "improved";
    case Outcome::kInconclusive:
      return row.rule == Rule::kMissing ? "missing" : "inconclusive";
    case Outcome::kUnchanged:
    case Outcome::kChanged:
      break;
  }
  return "ok";
}

std::string OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kUnchanged:
      return "unchanged";
    case Outcome::kRegression:
      return "regression";
    case Outcome::kWithinThreshold:
      return "within_threshold";
    case Outcome::kImprovement:
      return "improvement";
    case Outcome::kInconclusive:
      return "inconclusive";
    case Outcome::kChanged:
      return "changed";
  }
  return "?";
}

std::string RuleName(Rule rule) {
  switch (rule) {
    case Rule::kStatistical:
      return "statistical";
    case Rule::kExact:
      return "exact";
    case Rule::kMissing:
      return "missing";
  }
  return "?";
}

std::string KindName(MetricKind kind) {
  switch (kind) {
    case MetricKind::kTime:
      return "time";
    case MetricKind::kExact:
      return "exact";
    case MetricKind::kCounter:
      return "counter";
  }
  return "?";
}

// One table per metric, in display order.
std::vector<std::pair<std::string, Table>> MetricTables(const Comparison& c, bool markdown) {
  std::vector<std::pair<std::string, Table>> tables;
  for (const std::string& metric : c.metrics) {
    Table t;
    t.align = {Align::kLeft,  Align::kRight, Align::kRight,
               Align::kRight, Align::kLeft,  Align::kLeft};
    const std::string title = markdown ? MarkdownCode(metric) : metric;
    t.rows.push_back({title, "base", "head", "delta", "", "gate"});
    bool any_gated = false;
    for (const Row& row : c.rows) {
      if (row.metric != metric) continue;
      any_gated = any_gated || row.gated();
      std::string gate = GateCell(row);
      if (markdown && row.outcome == Outcome::kRegression) gate = "**" + gate + "**";
      const bool bare = row.rule == Rule::kExact;
      t.rows.push_back({markdown ? MarkdownCode(row.benchmark) : row.benchmark,
                        FormatSummary(row.base, row.info, bare),
                        FormatSummary(row.head, row.info, bare), DeltaCell(row), StatsCell(row),
                        gate});
    }
    if (t.rows.size() == 1) continue;
    for (const GeoMeanRow& g : c.geomeans) {
      if (g.metric != metric) continue;
      MetricInfo info;
      for (const Row& row : c.rows) {
        if (row.metric == metric) info = row.info;
      }
      if (g.valid) {
        t.rows.push_back({"geomean", FormatValue(g.base, info), FormatValue(g.head, info),
                          FormatDelta(g.delta), "", ""});
      } else {
        t.rows.push_back({"geomean", "—", "—", "", "needs values > 0", ""});
      }
    }
    if (!any_gated) {
      t.rows.front().back() = "";
      for (auto& row : t.rows) row.back().clear();
    }
    tables.emplace_back(metric, std::move(t));
  }
  return tables;
}

std::string FileList(const std::vector<std::string>& files) {
  if (files.size() == 1) return files.front();
  if (files.size() == 2) return files[0] + ", " + files[1];
  return files.front() + " … " + files.back() + " (" + std::to_string(files.size()) + " files)";
}

std::string NameList(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < kMaxListedNames; ++i) {
    if (i > 0) s += ", ";
    s += names[i];
  }
  if (names.size() > kMaxListedNames) {
    s += ", … (" + std::to_string(names.size() - kMaxListedNames) + " more)";
  }
  return s;
}

// Two lines that say how to read the tables.
std::vector<std::string> Legend(const Comparison& c) {
  std::string p = "p: two-sided Mann-Whitney U test";
  if (c.holm_tests > 1) {
    p += "; on gated rows Holm-adjusted over the " + std::to_string(c.holm_tests) + " gated tests";
  }
  return {"base, head: median ± " + FormatP(c.confidence * 100) +
              "% confidence interval. delta: change of the median; ~ = no significant "
              "difference at alpha " +
              FormatP(c.alpha) + ".",
          p + "."};
}

// Sections of (benchmark, metric, reason) lines, by outcome.
struct Finding {
  std::string benchmark, metric, reason;
};
std::vector<Finding> Findings(const Comparison& c, Outcome outcome) {
  std::vector<Finding> out;
  for (const Row& row : c.rows) {
    if (row.gated() && row.outcome == outcome) {
      out.push_back({row.benchmark, row.metric, row.reason});
    }
  }
  return out;
}

std::vector<std::string> AllWarnings(const Comparison& c) {
  std::vector<std::string> w;
  if (!c.only_in_base.empty()) {
    w.push_back("only in base (" + std::to_string(c.only_in_base.size()) +
                "): " + NameList(c.only_in_base));
  }
  if (!c.only_in_head.empty()) {
    w.push_back("only in head (" + std::to_string(c.only_in_head.size()) +
                "): " + NameList(c.only_in_head));
  }
  w.insert(w.end(), c.warnings.begin(), c.warnings.end());
  return w;
}

std::string VerdictLine(const Comparison& c) {
  return std::string(VerdictName(c.verdict)) + " (exit code " +
         std::to_string(static_cast<int>(c.verdict)) + ")";
}

std::string Text(const Comparison& c) {
  std::string out = "base: " + FileList(c.base_files) + "\nhead: " + FileList(c.head_files) + "\n";
  for (const auto& [metric, table] : MetricTables(c, false)) out += "\n" + RenderText(table);
  if (!c.rows.empty()) {
    out += "\n";
    for (const std::string& line : Legend(c)) out += line + "\n";
  }
  const std::pair<const char*, Outcome> sections[] = {{"Regressions", Outcome::kRegression},
                                                      {"Inconclusive", Outcome::kInconclusive},
                                                      {"Improvements", Outcome::kImprovement}};
  for (const auto& [title, outcome] : sections) {
    const std::vector<Finding> findings = Findings(c, outcome);
    if (findings.empty()) continue;
    out += "\n" + std::string(title) + ":\n";
    for (const Finding& f : findings) {
      out += "  " + f.benchmark + " " + f.metric + ": " + f.reason + "\n";
    }
  }
  const std::vector<std::string> warnings = AllWarnings(c);
  if (!warnings.empty() || !c.verdict_notes.empty()) {
    out += "\nWarnings:\n";
    for (const std::string& note : c.verdict_notes) out += "  " + note + "\n";
    for (size_t i = 0; i < warnings.size() && i < kMaxListedWarnings; ++i) {
      out += "  " + warnings[i] + "\n";
    }
    if (warnings.size() > kMaxListedWarnings) {
      out += "  … " + std::to_string(warnings.size() - kMaxListedWarnings) +
             " more (see --format=json)\n";
    }
  }
  out += "\nverdict: " + VerdictLine(c) + "\n";
  return out;
}

std::string Markdown(const Comparison& c) {
  std::string out = "### benchprof compare: " + std::string(VerdictName(c.verdict)) + "\n\n";
  out += "base: " + MarkdownCode(FileList(c.base_files)) +
         " · head: " + MarkdownCode(FileList(c.head_files)) + "\n";
  for (const auto& [metric, table] : MetricTables(c, true)) out += "\n" + RenderMarkdown(table);
  if (!c.rows.empty()) {
    const std::vector<std::string> legend = Legend(c);
    out += "\n" + EscapeMarkdown(legend[0]) + "<br>\n" + EscapeMarkdown(legend[1]) + "\n";
  }
  const std::pair<const char*, Outcome> sections[] = {{"Regressions", Outcome::kRegression},
                                                      {"Inconclusive", Outcome::kInconclusive},
                                                      {"Improvements", Outcome::kImprovement}};
  for (const auto& [title, outcome] : sections) {
    const std::vector<Finding> findings = Findings(c, outcome);
    if (findings.empty()) continue;
    out += "\n**" + std::string(title) + "**\n\n";
    for (const Finding& f : findings) {
      out += "- " + MarkdownCode(f.benchmark) + " " + EscapeMarkdown(f.metric) + ": " +
             EscapeMarkdown(f.reason) + "\n";
    }
  }
  const std::vector<std::string> warnings = AllWarnings(c);
  if (!warnings.empty() || !c.verdict_notes.empty()) {
    out += "\n**Warnings**\n\n";
    for (const std::string& note : c.verdict_notes) out += "- " + EscapeMarkdown(note) + "\n";
    for (size_t i = 0; i < warnings.size() && i < kMaxListedWarnings; ++i) {
      out += "- " + EscapeMarkdown(warnings[i]) + "\n";
    }
    if (warnings.size() > kMaxListedWarnings) {
      out += "- … " + std::to_string(warnings.size() - kMaxListedWarnings) + " more\n";
    }
  }
  out += "\nVerdict: **" + VerdictLine(c) + "**\n";
  return out;
}

json::Value Number(double v) {
  return std::isfinite(v) ? json::Value::MakeNumber(v) : json::Value::MakeNull();
}

json::Value Strings(const std::vector<std::string>& list) {
  json::Value::Array a;
  for (const std::string& s : list) a.push_back(json::Value::MakeString(s));
  return json::Value::MakeArray(std::move(a));
}

json::Value SummaryJson(const Summary& s) {
  if (s.n == 0) return json::Value::MakeNull();
  return json::Value::MakeObject({{"n", json::Value::MakeNumber(s.n)},
                                  {"median", Number(s.median)},
                                  {"lo", Number(s.lo)},
                                  {"hi", Number(s.hi)},
                                  {"confidence", Number(s.confidence)}});
}

std::string Json(const Comparison& c) {
  json::Value::Array rows;
  for (const Row& row : c.rows) {
    json::Value::Members m = {
        {"benchmark", json::Value::MakeString(row.benchmark)},
        {"metric", json::Value::MakeString(row.metric)},
        {"unit", json::Value::MakeString(row.info.unit)},
        {"kind", json::Value::MakeString(KindName(row.info.kind))},
        {"higher_is_better", json::Value::MakeBool(row.info.higher_is_better)},
        {"gated", json::Value::MakeBool(row.gated())},
        {"threshold", row.gated() ? json::Value::MakeString(row.threshold->ToString())
                                  : json::Value::MakeNull()},
        {"rule", json::Value::MakeString(RuleName(row.rule))},
        {"base", SummaryJson(row.base)},
        {"head", SummaryJson(row.head)},
        {"delta", row.rule == Rule::kMissing ? json::Value::MakeNull() : Number(row.delta)},
    };
    if (row.rule == Rule::kStatistical) {
      m.emplace_back("p", Number(row.p));
      m.emplace_back("p_raw", Number(row.test.p));
      m.emplace_back("u", Number(row.test.u));
      m.emplace_back("p_exact", json::Value::MakeBool(row.test.exact));
    }
    m.emplace_back("significant", json::Value::MakeBool(row.significant));
    m.emplace_back("outcome", json::Value::MakeString(OutcomeName(row.outcome)));
    m.emplace_back("reason", json::Value::MakeString(row.reason));
    rows.push_back(json::Value::MakeObject(std::move(m)));
  }
  json::Value::Array geomeans;
  for (const GeoMeanRow& g : c.geomeans) {
    geomeans.push_back(
        json::Value::MakeObject({{"metric", json::Value::MakeString(g.metric)},
                                 {"base", g.valid ? Number(g.base) : json::Value::MakeNull()},
                                 {"head", g.valid ? Number(g.head) : json::Value::MakeNull()},
                                 {"delta", g.valid ? Number(g.delta) : json::Value::MakeNull()}}));
  }
  const json::Value doc = json::Value::MakeObject({
      {"verdict", json::Value::MakeString(std::string(VerdictName(c.verdict)))},
      {"exit_code", json::Value::MakeNumber(static_cast<int>(c.verdict))},
      {"alpha", Number(c.alpha)},
      {"confidence", Number(c.confidence)},
      {"holm_tests", json::Value::MakeNumber(c.holm_tests)},
      {"base_files", Strings(c.base_files)},
      {"head_files", Strings(c.head_files)},
      {"rows", json::Value::MakeArray(std::move(rows))},
      {"geomeans", json::Value::MakeArray(std::move(geomeans))},
      {"only_in_base", Strings(c.only_in_base)},
      {"only_in_head", Strings(c.only_in_head)},
      {"warnings", Strings(c.warnings)},
      {"notes", Strings(c.verdict_notes)},
  });
  return json::Serialize(doc) + "\n";
}

}  // namespace

std::optional<OutputFormat> ParseOutputFormat(std::string_view name) {
  if (name == "text") return OutputFormat::kText;
  if (name == "markdown" || name == "md") return OutputFormat::kMarkdown;
  if (name == "json") return OutputFormat::kJson;
  return std::nullopt;
}

std::string RenderComparison(const Comparison& comparison, OutputFormat format) {
  switch (format) {
    case OutputFormat::kText:
      return Text(comparison);
    case OutputFormat::kMarkdown:
      return Markdown(comparison);
    case OutputFormat::kJson:
      return Json(comparison);
  }
  return "";
}

}  // namespace benchprof::compare
