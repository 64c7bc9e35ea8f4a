#include "tools/compare/output_content.h"

#include <algorithm>

#include "tools/compare/cell_format.h"
#include "tools/text_format.h"

namespace benchprof::compare {

using results::MetricInfo;
using tools::OneLine;

namespace {

// Names listed at most per side in a warning (JSON has them all).
constexpr size_t kMaxListedNames = 10;

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

TableRow BenchmarkRow(const Row& row) {
  const bool bare = row.rule == Rule::kExact;
  return TableRow{
      {OneLine(row.benchmark), FormatSummary(row.base, row.info, bare),
       FormatSummary(row.head, row.info, bare), DeltaCell(row), StatsCell(row), GateCell(row)},
      /*first_cell_is_name=*/true,
      /*regression=*/row.outcome == Outcome::kRegression};
}

// The geomean row of `metric`'s table, if the metric has one.
void AddGeoMeanRow(const Comparison& c, const std::string& metric, MetricTable& t) {
  for (const GeoMeanRow& g : c.geomeans) {
    if (g.metric != metric) continue;
    MetricInfo info;
    for (const Row& row : c.rows) {
      if (row.metric == metric) info = row.info;
    }
    if (g.valid) {
      t.rows.push_back({{"geomean", FormatValue(g.base, info), FormatValue(g.head, info),
                         FormatDelta(g.delta), "", ""}});
    } else {
      t.rows.push_back({{"geomean", "—", "—", "", "needs values > 0", ""}});
    }
  }
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

// The distinct known versions of `versions`, in first-seen order, each on
// one line.
std::vector<std::string> KnownVersions(const std::vector<std::string>& versions) {
  std::vector<std::string> known;
  for (const std::string& v : versions) {
    if (v.empty()) continue;
    std::string line = OneLine(v);
    if (std::find(known.begin(), known.end(), line) == known.end()) known.push_back(line);
  }
  return known;
}

// "1.7.1", "1.7.1 and 1.9.1" or "1.7.1, 1.8.3 and 1.9.1", each version
// quoted; `if_none` if empty.
std::string VersionList(const std::vector<std::string>& known, const std::string& if_none,
                        Quote quote) {
  if (known.empty()) return if_none;
  std::string list;
  for (size_t i = 0; i < known.size(); ++i) {
    if (i > 0) list += i + 1 == known.size() ? " and " : ", ";
    list += quote(known[i]);
  }
  return list;
}

}  // namespace

std::string AsIs(const std::string& text) { return text; }

std::string GbenchVersionSuffix(const std::vector<std::string>& versions, Quote quote) {
  const std::vector<std::string> known = KnownVersions(versions);
  return known.empty() ? "" : " (Google Benchmark " + VersionList(known, "", quote) + ")";
}

std::string GbenchVersionNote(const Comparison& c, Quote quote) {
  std::vector<std::string> all = c.base_gbench_versions;
  all.insert(all.end(), c.head_gbench_versions.begin(), c.head_gbench_versions.end());
  if (KnownVersions(all).size() < 2) return "";
  return "base and head were written by different Google Benchmark versions (base " +
         VersionList(KnownVersions(c.base_gbench_versions), "unknown", quote) + ", head " +
         VersionList(KnownVersions(c.head_gbench_versions), "unknown", quote) +
         "); differences may come from the library";
}

std::vector<std::string> SkippedLines(const Comparison& c) {
  std::vector<std::string> lines;
  for (const auto* side : {&c.skipped_in_base, &c.skipped_in_head}) {
    for (const results::SkipInFile& s : *side) {
      // The message is the benchmark's own text: keep it to one line.
      lines.push_back(OneLine(s.file + ": " + results::DescribeSkip(s.skip)));
    }
  }
  return lines;
}

std::vector<MetricTable> MetricTables(const Comparison& c) {
  std::vector<MetricTable> tables;
  for (const std::string& metric : c.metrics) {
    MetricTable t;
    t.align = {Align::kLeft,  Align::kRight, Align::kRight,
               Align::kRight, Align::kLeft,  Align::kLeft};
    t.rows.push_back(
        {{OneLine(metric), "base", "head", "delta", "", "gate"}, /*first_cell_is_name=*/true});
    bool any_gated = false;
    for (const Row& row : c.rows) {
      if (row.metric != metric) continue;
      any_gated = any_gated || row.gated();
      t.rows.push_back(BenchmarkRow(row));
    }
    if (t.rows.size() == 1) continue;
    AddGeoMeanRow(c, metric, t);
    if (!any_gated) {
      for (TableRow& row : t.rows) {
        row.cells.back().clear();
        row.regression = false;
      }
    }
    tables.push_back(std::move(t));
  }
  return tables;
}

std::string FileList(const std::vector<std::string>& files) {
  if (files.size() == 1) return OneLine(files.front());
  if (files.size() == 2) return OneLine(files[0]) + ", " + OneLine(files[1]);
  return OneLine(files.front()) + " … " + OneLine(files.back()) + " (" +
         std::to_string(files.size()) + " files)";
}

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

std::vector<Finding> Findings(const Comparison& c, Outcome outcome) {
  std::vector<Finding> out;
  for (const Row& row : c.rows) {
    if (row.gated() && row.outcome == outcome) {
      out.push_back({OneLine(row.benchmark), OneLine(row.metric), OneLine(row.reason)});
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
  for (std::string& line : w) line = OneLine(line);
  return w;
}

std::string VerdictLine(const Comparison& c) {
  return std::string(VerdictName(c.verdict)) + " (exit code " +
         std::to_string(static_cast<int>(c.verdict)) + ")";
}

}  // namespace benchprof::compare
