#include "tools/history/change_point_output.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <optional>
#include <utility>

#include "common/json_value.h"
#include "tools/compare/cell_format.h"
#include "tools/compare/markdown_text.h"
#include "tools/history/change_points.h"
#include "tools/text_format.h"

namespace benchprof::history {
namespace {

using compare::MarkdownCodeSpan;
using tools::OneLine;

// Enough of a hash to name a commit in a repository of millions.
constexpr size_t kShortHash = 10;

// The series in key order (ties keep the order given).
std::vector<const AnalysedSeries*> Ordered(const std::vector<AnalysedSeries>& series) {
  std::vector<const AnalysedSeries*> out;
  out.reserve(series.size());
  for (const AnalysedSeries& s : series) out.push_back(&s);
  std::stable_sort(out.begin(), out.end(), [](const AnalysedSeries* a, const AnalysedSeries* b) {
    return a->series.key < b->series.key;
  });
  return out;
}

// A series' change points by index.
std::vector<const ChangePoint*> Ordered(const std::vector<ChangePoint>& points) {
  std::vector<const ChangePoint*> out;
  for (const ChangePoint& c : points) out.push_back(&c);
  std::stable_sort(out.begin(), out.end(),
                   [](const ChangePoint* a, const ChangePoint* b) { return a->index < b->index; });
  return out;
}

const CommitInfo* FindCommit(const std::map<std::string, CommitInfo>& commits,
                             const std::string& hash) {
  const auto it = commits.find(hash);
  return it == commits.end() ? nullptr : &it->second;
}

// The commit time in UTC, or nothing when unknown.
std::optional<std::tm> CommitTime(const CommitInfo* commit) {
  if (commit == nullptr || commit->committer_time_ns == 0) return std::nullopt;
  // Floor division: a time before 1970 still names its own second.
  int64_t seconds = commit->committer_time_ns / 1000000000;
  if (commit->committer_time_ns % 1000000000 < 0) --seconds;
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm utc{};
  if (gmtime_r(&t, &utc) == nullptr) return std::nullopt;
  return utc;
}

// "2026-11-28", for people; "" when unknown.
std::string CommitDate(const CommitInfo* commit) {
  const std::optional<std::tm> t = CommitTime(commit);
  if (!t) return "";
  return tools::StringPrintf("%04d-%02d-%02d", t->tm_year + 1900, t->tm_mon + 1, t->tm_mday);
}

// "2026-11-28T04:12:30Z" (ISO 8601), for programs; "" when unknown.
std::string CommitTimestamp(const CommitInfo* commit) {
  const std::optional<std::tm> t = CommitTime(commit);
  if (!t) return "";
  return tools::StringPrintf("%04d-%02d-%02dT%02d:%02d:%02dZ", t->tm_year + 1900, t->tm_mon + 1,
                             t->tm_mday, t->tm_hour, t->tm_min, t->tm_sec);
}

// A median with its unit: times as durations ("1.05µs"), others as a
// number and the metric's unit ("4 allocs/op").
std::string ValueWithUnit(double value, const results::MetricInfo& info) {
  const std::string number = compare::FormatValue(value, info);
  if (info.kind == results::MetricKind::kTime || info.unit.empty()) return number;
  return number + " " + OneLine(info.unit);
}

// "regression", "improvement", or "change" for a significant move of the
// mean that left the medians equal.
std::string Direction(const ChangePoint& c) {
  if (c.regression) return "regression";
  return c.change == 0 ? "change" : "improvement";
}

std::string PText(const ChangePoint& c) {
  if (c.exact || !c.p) return "exact";
  return compare::FormatP(*c.p);
}

struct Counts {
  size_t series = 0;
  size_t with_changes = 0;
  size_t change_points = 0;
  size_t regressions = 0;
  size_t improvements = 0;
  size_t newest_regressed = 0;
};

Counts Count(const std::vector<AnalysedSeries>& series) {
  Counts n;
  n.series = series.size();
  for (const AnalysedSeries& s : series) {
    n.with_changes += s.change_points.empty() ? 0 : 1;
    n.change_points += s.change_points.size();
    for (const ChangePoint& c : s.change_points) {
      n.regressions += c.regression ? 1 : 0;
      n.improvements += Direction(c) == "improvement" ? 1 : 0;
    }
    n.newest_regressed += NewestIsRegression(s) ? 1 : 0;
  }
  return n;
}

std::string Plural(size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "3 change points in 2 of 4 series: 2 regressions, 1 improvement; the
// newest run of 1 series is regressed".
std::string Summary(const Counts& n) {
  std::string out = Plural(n.change_points, "change point", "change points") + " in " +
                    std::to_string(n.with_changes) + " of " + Plural(n.series, "series", "series") +
                    ": " + Plural(n.regressions, "regression", "regressions") + ", " +
                    Plural(n.improvements, "improvement", "improvements");
  if (const size_t other = n.change_points - n.regressions - n.improvements; other > 0) {
    out += ", " + Plural(other, "other change", "other changes");
  }
  if (n.newest_regressed > 0) {
    out +=
        "; the newest run of " + Plural(n.newest_regressed, "series", "series") + " is regressed";
  }
  return out;
}

// "abcdef0123  Subject line  (2026-11-28)" for text output.
std::string CommitText(const std::string& hash, const std::map<std::string, CommitInfo>& commits) {
  const CommitInfo* commit = FindCommit(commits, hash);
  std::string out = OneLine(hash.substr(0, kShortHash));
  if (commit != nullptr && !commit->subject.empty()) out += "  " + OneLine(commit->subject);
  if (const std::string date = CommitDate(commit); !date.empty()) out += "  (" + date + ")";
  return out;
}

std::string CommitMarkdown(const std::string& hash,
                           const std::map<std::string, CommitInfo>& commits) {
  const CommitInfo* commit = FindCommit(commits, hash);
  std::string out = MarkdownCodeSpan(OneLine(hash.substr(0, kShortHash)), /*in_table=*/true);
  if (commit != nullptr && !commit->subject.empty()) {
    out += " " + MarkdownCodeSpan(OneLine(commit->subject), /*in_table=*/true);
  }
  if (const std::string date = CommitDate(commit); !date.empty()) out += " " + date;
  return out;
}

json::Value Number(double v) {
  return std::isfinite(v) ? json::Value::MakeNumber(v) : json::Value::MakeNull();
}

json::Value CommitJson(const std::string& hash, const std::map<std::string, CommitInfo>& commits) {
  const CommitInfo* commit = FindCommit(commits, hash);
  // ISO 8601 in UTC: nanoseconds since the epoch do not fit a JSON number
  // (a double) exactly.
  const std::string time = CommitTimestamp(commit);
  return json::Value::MakeObject({
      {"commit", json::Value::MakeString(hash)},
      {"subject",
       commit != nullptr ? json::Value::MakeString(commit->subject) : json::Value::MakeNull()},
      {"committer_time", time.empty() ? json::Value::MakeNull() : json::Value::MakeString(time)},
  });
}

}  // namespace

std::string ChangePointsText(const std::vector<AnalysedSeries>& series,
                             const std::map<std::string, CommitInfo>& commits) {
  const Counts n = Count(series);
  if (n.change_points == 0)
    return "no change points in " + Plural(n.series, "series", "series") + "\n";
  std::string out = Summary(n) + "\n";
  for (const AnalysedSeries* s : Ordered(series)) {
    if (s->change_points.empty()) continue;
    const SeriesKey& key = s->series.key;
    out += "\n" + OneLine(key.benchmark) + "  " + OneLine(key.metric) + "  (testbed " +
           OneLine(key.testbed) + ", branch " + OneLine(key.branch) + ", " +
           Plural(s->series.points.size(), "run", "runs") + ")\n";
    for (const ChangePoint* c : Ordered(s->change_points)) {
      out += "  " + Direction(*c) + " " + compare::FormatDelta(c->change) + "  " +
             ValueWithUnit(c->before_median, s->series.info) + " -> " +
             ValueWithUnit(c->after_median, s->series.info) + "  " +
             (c->exact || !c->p ? "exact" : "p " + PText(*c)) + "\n";
      out += "    last good  " + CommitText(c->last_good_commit, commits) + "\n";
      out += "    first bad  " + CommitText(c->first_bad_commit, commits) + "\n";
    }
    if (NewestIsRegression(*s)) out += "  the newest run is regressed\n";
  }
  return out;
}

std::string ChangePointsMarkdown(const std::vector<AnalysedSeries>& series,
                                 const std::map<std::string, CommitInfo>& commits) {
  const Counts n = Count(series);
  if (n.change_points == 0) {
    return "No change points in " + Plural(n.series, "series", "series") + ".\n";
  }
  std::string out = "**" + compare::MarkdownEscape(Summary(n)) + "**\n\n";
  out +=
      "| benchmark | metric | testbed | branch | change | before | after | p | last good | "
      "first bad |\n"
      "| :-- | :-- | :-- | :-- | --: | --: | --: | --: | :-- | :-- |\n";
  const auto code = [](const std::string& s) {
    return MarkdownCodeSpan(OneLine(s), /*in_table=*/true);
  };
  for (const AnalysedSeries* s : Ordered(series)) {
    const SeriesKey& key = s->series.key;
    for (const ChangePoint* c : Ordered(s->change_points)) {
      std::string change = compare::FormatDelta(c->change) + " " + Direction(*c);
      if (c->regression) change = "**" + change + "**";
      out += "| " + code(key.benchmark) + " | " + code(key.metric) + " | " + code(key.testbed) +
             " | " + code(key.branch) + " | " + change + " | " +
             code(ValueWithUnit(c->before_median, s->series.info)) + " | " +
             code(ValueWithUnit(c->after_median, s->series.info)) + " | " + PText(*c) + " | " +
             CommitMarkdown(c->last_good_commit, commits) + " | " +
             CommitMarkdown(c->first_bad_commit, commits) + " |\n";
    }
  }
  return out;
}

std::string ChangePointsJson(const std::vector<AnalysedSeries>& series,
                             const std::map<std::string, CommitInfo>& commits) {
  const Counts n = Count(series);
  json::Value::Array all;
  for (const AnalysedSeries* s : Ordered(series)) {
    json::Value::Array points;
    for (const ChangePoint* c : Ordered(s->change_points)) {
      points.push_back(json::Value::MakeObject({
          {"index", json::Value::MakeNumber(static_cast<double>(c->index))},
          {"last_good", CommitJson(c->last_good_commit, commits)},
          {"first_bad", CommitJson(c->first_bad_commit, commits)},
          {"before_median", Number(c->before_median)},
          {"after_median", Number(c->after_median)},
          {"change", Number(c->change)},
          {"change_text", json::Value::MakeString(compare::FormatDelta(c->change))},
          {"p", c->p && !c->exact ? Number(*c->p) : json::Value::MakeNull()},
          {"exact", json::Value::MakeBool(c->exact)},
          {"regression", json::Value::MakeBool(c->regression)},
      }));
    }
    const SeriesKey& key = s->series.key;
    all.push_back(json::Value::MakeObject({
        {"benchmark", json::Value::MakeString(key.benchmark)},
        {"metric", json::Value::MakeString(key.metric)},
        {"testbed", json::Value::MakeString(key.testbed)},
        {"branch", json::Value::MakeString(key.branch)},
        {"unit", json::Value::MakeString(s->series.info.unit)},
        {"higher_is_better", json::Value::MakeBool(s->series.info.higher_is_better)},
        {"points", json::Value::MakeNumber(static_cast<double>(s->series.points.size()))},
        {"newest_is_regression", json::Value::MakeBool(NewestIsRegression(*s))},
        {"change_points", json::Value::MakeArray(std::move(points))},
    }));
  }
  const json::Value doc = json::Value::MakeObject({
      {"series_count", json::Value::MakeNumber(static_cast<double>(n.series))},
      {"change_point_count", json::Value::MakeNumber(static_cast<double>(n.change_points))},
      {"regression_count", json::Value::MakeNumber(static_cast<double>(n.regressions))},
      {"newest_regressed_count", json::Value::MakeNumber(static_cast<double>(n.newest_regressed))},
      {"series", json::Value::MakeArray(std::move(all))},
  });
  return json::Serialize(doc) + "\n";
}

}  // namespace benchprof::history
