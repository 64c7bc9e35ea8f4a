#include "tools/compare/json_output.h"

#include <cmath>
#include <utility>
#include <vector>

#include "common/json_value.h"
#include "tools/compare/output_content.h"

namespace benchprof::compare {

using results::MetricKind;

namespace {

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

// A number, or null when it is not finite (JSON has no infinity).
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

json::Value RowJson(const Row& row) {
  json::Value::Members m = {
      {"benchmark", json::Value::MakeString(row.benchmark)},
      {"metric", json::Value::MakeString(row.metric)},
      {"unit", json::Value::MakeString(row.info.unit)},
      {"kind", json::Value::MakeString(KindName(row.info.kind))},
      {"higher_is_better", json::Value::MakeBool(row.info.higher_is_better)},
      {"gated", json::Value::MakeBool(row.gated())},
      {"threshold",
       row.gated() ? json::Value::MakeString(row.threshold->ToString()) : json::Value::MakeNull()},
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
  return json::Value::MakeObject(std::move(m));
}

// One version per file; null where the file does not say.
json::Value Versions(const std::vector<std::string>& versions) {
  json::Value::Array a;
  for (const std::string& v : versions) {
    a.push_back(v.empty() ? json::Value::MakeNull() : json::Value::MakeString(v));
  }
  return json::Value::MakeArray(std::move(a));
}

json::Value SkippedJson(const std::vector<results::SkipInFile>& skipped) {
  json::Value::Array a;
  for (const results::SkipInFile& s : skipped) {
    a.push_back(json::Value::MakeObject({
        {"file", json::Value::MakeString(s.file)},
        {"benchmark", json::Value::MakeString(s.skip.run_name)},
        {"message", json::Value::MakeString(s.skip.message)},
        {"repetitions_skipped", json::Value::MakeNumber(s.skip.skipped)},
        {"repetitions", json::Value::MakeNumber(s.skip.repetitions)},
    }));
  }
  return json::Value::MakeArray(std::move(a));
}

json::Value GeoMeanJson(const GeoMeanRow& g) {
  return json::Value::MakeObject({{"metric", json::Value::MakeString(g.metric)},
                                  {"base", g.valid ? Number(g.base) : json::Value::MakeNull()},
                                  {"head", g.valid ? Number(g.head) : json::Value::MakeNull()},
                                  {"delta", g.valid ? Number(g.delta) : json::Value::MakeNull()}});
}

}  // namespace

std::string ComparisonJson(const Comparison& c) {
  json::Value::Array rows;
  for (const Row& row : c.rows) rows.push_back(RowJson(row));
  json::Value::Array geomeans;
  for (const GeoMeanRow& g : c.geomeans) geomeans.push_back(GeoMeanJson(g));
  const std::string version_note = GbenchVersionNote(c);
  const json::Value doc = json::Value::MakeObject({
      {"verdict", json::Value::MakeString(std::string(VerdictName(c.verdict)))},
      {"exit_code", json::Value::MakeNumber(static_cast<int>(c.verdict))},
      {"alpha", Number(c.alpha)},
      {"confidence", Number(c.confidence)},
      {"holm_tests", json::Value::MakeNumber(c.holm_tests)},
      {"base_files", Strings(c.base_files)},
      {"head_files", Strings(c.head_files)},
      {"base_google_benchmark_versions", Versions(c.base_gbench_versions)},
      {"head_google_benchmark_versions", Versions(c.head_gbench_versions)},
      {"version_note",
       version_note.empty() ? json::Value::MakeNull() : json::Value::MakeString(version_note)},
      {"rows", json::Value::MakeArray(std::move(rows))},
      {"geomeans", json::Value::MakeArray(std::move(geomeans))},
      {"only_in_base", Strings(c.only_in_base)},
      {"only_in_head", Strings(c.only_in_head)},
      {"skipped_in_base", SkippedJson(c.skipped_in_base)},
      {"skipped_in_head", SkippedJson(c.skipped_in_head)},
      {"warnings", Strings(c.warnings)},
      {"notes", Strings(c.verdict_notes)},
  });
  return json::Serialize(doc) + "\n";
}

}  // namespace benchprof::compare
