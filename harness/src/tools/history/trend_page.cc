#include "tools/history/trend_page.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <string_view>
#include <unordered_map>

#include "encode/gzip.h"
#include "tools/flamegraph/flame_assets.h"
#include "tools/flamegraph/flame_html.h"
#include "tools/history/trend_assets.h"
#include "tools/text_format.h"

namespace benchprof::history {

namespace {

using flamegraph::AppendHtmlEscaped;
using flamegraph::AppendScriptString;

void AppendInt(std::string& out, int64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end.ptr);
}

// The shortest text that reads back as the same double; null when it is not
// finite (JSON has no infinity).
void AppendNumber(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char digits[32];
  const auto end = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end.ptr);
}

// 1234567 as "1,234,567".
std::string Grouped(size_t n) {
  const std::string digits = std::to_string(n);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

void AppendBase64(std::string& out, std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = uint32_t{static_cast<uint8_t>(bytes[i])} << 16 |
                       uint32_t{static_cast<uint8_t>(bytes[i + 1])} << 8 |
                       static_cast<uint8_t>(bytes[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const uint32_t v = uint32_t{static_cast<uint8_t>(bytes[i])} << 16 |
                       (two ? uint32_t{static_cast<uint8_t>(bytes[i + 1])} << 8 : 0);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += two ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
}

// The smallest and largest finite repetition of a point, or its median when
// it has none.
std::pair<double, double> Spread(const SeriesPoint& point) {
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  for (const double v : point.values) {
    if (!std::isfinite(v)) continue;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  if (low > high) return {point.median, point.median};
  return {low, high};
}

// The exponent E of the quantum 10^E in which a series' values are written:
// 0 when every value is an integer (exact metrics stay exact), else four
// significant digits of the smallest non-zero magnitude, coarsened so that
// the largest stays below 10^15 quanta (integers a double holds exactly).
int QuantumExponent(const Series& series) {
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  bool integral = true;
  double smallest = std::numeric_limits<double>::infinity();
  double largest = 0;
  const auto see = [&](double v) {
    if (!std::isfinite(v)) return;
    const double magnitude = std::fabs(v);
    if (v != std::trunc(v) || magnitude > kExactIntegers) integral = false;
    if (magnitude > 0) smallest = std::min(smallest, magnitude);
    largest = std::max(largest, magnitude);
  };
  for (const SeriesPoint& point : series.points) {
    see(point.median);
    const auto [low, high] = Spread(point);
    see(low);
    see(high);
  }
  if (integral || largest == 0) return 0;
  int exponent = static_cast<int>(std::floor(std::log10(smallest))) - 3;
  const int largest_digits = static_cast<int>(std::ceil(std::log10(largest)));
  exponent = std::max(exponent, largest_digits - 15);
  return std::clamp(exponent, -300, 300);  // 10^300 and its inverse are finite doubles
}

int64_t Quanta(double value, int exponent) {
  if (!std::isfinite(value)) return 0;
  const double scaled =
      exponent < 0 ? value * std::pow(10.0, -exponent) : value / std::pow(10.0, exponent);
  return std::llround(scaled);
}

// The commits of the page, listed once, in order of first use.
class CommitTable {
 public:
  explicit CommitTable(const std::map<std::string, CommitInfo>& known) : known_(known) {}

  size_t Index(const std::string& hash) {
    const auto [it, added] = index_.try_emplace(hash, order_.size());
    if (added) order_.push_back(&it->first);
    return it->second;
  }

  void AppendJson(std::string& out) const {
    out += '[';
    for (size_t i = 0; i < order_.size(); ++i) {
      if (i != 0) out += i % 8 == 0 ? ",\n" : ",";
      const std::string& hash = *order_[i];
      out += '[';
      AppendScriptString(out, hash);
      out += ',';
      const CommitInfo* info = Find(hash);
      AppendInt(out, info == nullptr ? 0 : info->committer_time_ns / 1'000'000'000);
      out += ',';
      AppendScriptString(out, info == nullptr ? std::string_view() : info->subject);
      out += ']';
    }
    out += ']';
  }

  const CommitInfo* Find(const std::string& hash) const {
    const auto it = known_.find(hash);
    return it == known_.end() ? nullptr : &it->second;
  }

 private:
  const std::map<std::string, CommitInfo>& known_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<const std::string*> order_;  // keys of index_ (stable: node-based)
};

std::string ShortHash(std::string_view hash) { return std::string(hash.substr(0, 10)); }

// A value in the series' unit, for the tables: durations for "ns/..." units.
std::string FormatValue(const std::string& unit, double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "NaN" : (value > 0 ? "+∞" : "-∞");
  if (unit.rfind("ns", 0) == 0) return tools::FormatDuration(value);
  std::string text = tools::FormatNumber(value);
  if (!unit.empty()) text += " " + unit;
  return text;
}

std::string FormatChange(double change) {
  if (!std::isfinite(change)) return std::isnan(change) ? "NaN" : (change > 0 ? "+∞%" : "-∞%");
  return tools::StringPrintf("%+.2f%%", change * 100);
}

// "abc123def0" with the subject as its tooltip.
void AppendCommit(std::string& html, const CommitTable& commits, const std::string& hash) {
  const CommitInfo* info = commits.Find(hash);
  html += "<code";
  if (info != nullptr && !info->subject.empty()) {
    html += " title=\"";
    AppendHtmlEscaped(html, info->subject);
    html += '"';
  }
  html += '>';
  AppendHtmlEscaped(html, ShortHash(hash));
  html += "</code>";
}

std::string KeyText(const SeriesKey& key) {
  return key.benchmark + " " + key.metric + " on " + key.testbed + ", branch " + key.branch;
}

void AppendSeriesJson(std::string& json, const AnalysedSeries& analysed, CommitTable& commits,
                      const std::vector<size_t>& shown, const std::vector<int64_t>& attachments) {
  const Series& series = analysed.series;
  json += "{\"b\":";
  AppendScriptString(json, series.key.benchmark);
  json += ",\"m\":";
  AppendScriptString(json, series.key.metric);
  json += ",\"t\":";
  AppendScriptString(json, series.key.testbed);
  json += ",\"br\":";
  AppendScriptString(json, series.key.branch);
  json += ",\"u\":";
  AppendScriptString(json, series.info.unit);
  json += series.info.higher_is_better ? ",\"hib\":1" : ",\"hib\":0";
  const int exponent = QuantumExponent(series);
  json += ",\"e\":";
  AppendInt(json, exponent);

  json += ",\"c\":[";
  size_t run_first = 0, run_count = 0;
  bool first_run = true;
  const auto flush = [&] {
    if (run_count == 0) return;
    if (!first_run) json += ',';
    first_run = false;
    AppendInt(json, static_cast<int64_t>(run_first));
    json += ',';
    AppendInt(json, static_cast<int64_t>(run_count));
  };
  for (const SeriesPoint& point : series.points) {
    const size_t index = commits.Index(point.commit);
    if (run_count != 0 && index == run_first + run_count) {
      ++run_count;
    } else {
      flush();
      run_first = index;
      run_count = 1;
    }
  }
  flush();

  std::string deltas, lows, highs, not_finite;
  int64_t previous = 0;
  bool same_repetitions = true;
  for (size_t k = 0; k < series.points.size(); ++k) {
    const SeriesPoint& point = series.points[k];
    const char* separator = k == 0 ? "" : ",";
    int64_t median = previous;
    if (std::isfinite(point.median)) {
      median = Quanta(point.median, exponent);
    } else {
      if (!not_finite.empty()) not_finite += ',';
      AppendInt(not_finite, static_cast<int64_t>(k));
    }
    const auto [low, high] = Spread(point);
    deltas += separator;
    AppendInt(deltas, median - previous);
    lows += separator;
    AppendInt(lows, std::isfinite(low) ? median - Quanta(low, exponent) : 0);
    highs += separator;
    AppendInt(highs, std::isfinite(high) ? Quanta(high, exponent) - median : 0);
    previous = median;
    if (point.values.size() != series.points[0].values.size()) same_repetitions = false;
  }
  json += "],\n\"d\":[" + deltas + "],\n\"lo\":[" + lows + "],\n\"hi\":[" + highs + "],\"r\":";
  if (same_repetitions) {
    AppendInt(json,
              series.points.empty() ? 0 : static_cast<int64_t>(series.points[0].values.size()));
  } else {
    json += '[';
    for (size_t k = 0; k < series.points.size(); ++k) {
      if (k != 0) json += ',';
      AppendInt(json, static_cast<int64_t>(series.points[k].values.size()));
    }
    json += ']';
  }
  json += ",\"nf\":[" + not_finite + "],\"cp\":[";
  for (const size_t j : shown) {
    const ChangePoint& cp = analysed.change_points[j];
    if (j != shown.front()) json += ',';
    json += "{\"i\":";
    AppendInt(json, static_cast<int64_t>(cp.index));
    json += ",\"c\":";
    AppendNumber(json, cp.change);
    json += ",\"b\":";
    AppendNumber(json, cp.before_median);
    json += ",\"a\":";
    AppendNumber(json, cp.after_median);
    if (cp.p) {
      json += ",\"p\":";
      AppendNumber(json, *cp.p);
    }
    json += cp.regression ? ",\"reg\":1" : ",\"reg\":0";
    json += cp.exact ? ",\"x\":1" : ",\"x\":0";
    if (attachments[j] >= 0) {
      json += ",\"f\":";
      AppendInt(json, attachments[j]);
    }
    json += '}';
  }
  json += "]}";
}

void AppendSeriesSection(std::string& html, size_t s, const AnalysedSeries& analysed,
                         const CommitTable& commits, const std::vector<size_t>& shown,
                         const std::vector<int64_t>& attachments) {
  const Series& series = analysed.series;
  const SeriesKey& key = series.key;
  const std::string id = std::to_string(s);
  size_t regressions = 0;
  for (const size_t j : shown) regressions += analysed.change_points[j].regression;

  html += "<section class=\"tp-s\" id=\"s" + id + "\" data-s=\"" + id + "\">\n<h2>";
  AppendHtmlEscaped(html, key.benchmark);
  html += " <span class=\"tp-metric\">";
  AppendHtmlEscaped(html, key.metric);
  html += "</span></h2>\n<p class=\"meta\">testbed ";
  AppendHtmlEscaped(html, key.testbed);
  html += " · branch ";
  AppendHtmlEscaped(html, key.branch);
  html += " · " + Grouped(series.points.size()) + (series.points.size() == 1 ? " run" : " runs");
  if (!series.info.unit.empty()) {
    html += " · ";
    AppendHtmlEscaped(html, series.info.unit);
  }
  if (series.info.higher_is_better) html += " (higher is better)";
  html += "</p>\n<div class=\"tp-chart\" data-s=\"" + id + "\" role=\"img\" aria-label=\"";
  std::string label = "Trend of " + KeyText(key) + ": " + Grouped(series.points.size()) +
                      " runs, " + Grouped(shown.size()) + " change points (" +
                      Grouped(regressions) + " regressions)";
  if (!series.points.empty()) {
    label += ", last median " + FormatValue(series.info.unit, series.points.back().median);
  }
  AppendHtmlEscaped(html, label);
  html += "\"></div>\n";
  if (shown.empty()) {
    html += "<p class=\"tp-none\">No change points.</p>\n";
  } else {
    html +=
        "<table class=\"tp-cps\"><caption>Change points</caption><thead><tr><th>Change</th>"
        "<th>Last good</th><th>First bad</th><th>Before</th><th>After</th><th>p</th>"
        "<th>Profile</th></tr></thead><tbody>\n";
    for (const size_t j : shown) {
      const ChangePoint& cp = analysed.change_points[j];
      html += cp.regression ? "<tr class=\"regression\"><td>" : "<tr class=\"improvement\"><td>";
      html += cp.regression ? "▲ " : "▼ ";
      html += FormatChange(cp.change);
      html += cp.regression ? " regression" : " improvement";
      html += "</td><td>";
      AppendCommit(html, commits, cp.last_good_commit);
      html += "</td><td>";
      AppendCommit(html, commits, cp.first_bad_commit);
      html += "</td><td>";
      AppendHtmlEscaped(html, FormatValue(series.info.unit, cp.before_median));
      html += "</td><td>";
      AppendHtmlEscaped(html, FormatValue(series.info.unit, cp.after_median));
      html += "</td><td>";
      if (cp.exact) {
        html += "exact";
      } else if (cp.p) {
        html += tools::StringPrintf("%.3g", *cp.p);
      }
      html += "</td><td>";
      if (attachments[j] >= 0) {
        html += "<a class=\"tp-fg-link\" data-f=\"" + std::to_string(attachments[j]) +
                "\" target=\"_blank\" rel=\"noopener\">differential flame graph</a>";
      }
      html += "</td></tr>\n";
    }
    html += "</tbody></table>\n";
  }
  // Filled by the script when opened: 200 series of 1,000 rows written out
  // would double the page.
  html += "<details class=\"tp-runs\" data-s=\"" + id +
          "\"><summary>Runs as a table</summary></details>\n</section>\n";
}

}  // namespace

std::string TrendPageHtml(const TrendPageInput& input) {
  CommitTable commits(input.commits);

  // The change points inside their series (a detector's index past the
  // last point is left out, not drawn off the chart), and the attachment
  // numbers of those, in series then change point order.
  std::vector<std::vector<size_t>> shown(input.series.size());
  std::vector<std::vector<int64_t>> attachments(input.series.size());
  std::vector<const std::string*> attached;
  size_t change_points = 0, regressions = 0, runs = 0;
  for (size_t s = 0; s < input.series.size(); ++s) {
    const AnalysedSeries& analysed = input.series[s];
    attachments[s].assign(analysed.change_points.size(), -1);
    runs += analysed.series.points.size();
    for (size_t j = 0; j < analysed.change_points.size(); ++j) {
      if (analysed.change_points[j].index >= analysed.series.points.size()) continue;
      shown[s].push_back(j);
      ++change_points;
      regressions += analysed.change_points[j].regression;
      const auto it = input.diff_flamegraphs.find({s, j});
      if (it == input.diff_flamegraphs.end()) continue;
      attachments[s][j] = static_cast<int64_t>(attached.size());
      attached.push_back(&it->second);
    }
  }

  std::string json = "{\"v\":1,\"series\":[\n";
  for (size_t s = 0; s < input.series.size(); ++s) {
    if (s != 0) json += ",\n";
    AppendSeriesJson(json, input.series[s], commits, shown[s], attachments[s]);
  }
  json += "],\n\"commits\":";
  commits.AppendJson(json);
  json += "}";

  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  AppendHtmlEscaped(html, input.title);
  html += "</title>\n<style>\n";
  html += flamegraph::PageStyle();
  html += TrendPageStyle();
  html += "</style>\n</head><body>\n<h1>";
  AppendHtmlEscaped(html, input.title);
  html += "</h1>\n<p class=\"meta\">" + Grouped(input.series.size()) + " series, " + Grouped(runs) +
          " runs, " + Grouped(change_points) + " change points: " + Grouped(regressions) +
          " regressions, " + Grouped(change_points - regressions) +
          " improvements</p>\n"
          "<div class=\"tp-bar\"><label>Filter <input id=\"tp-filter\" type=\"search\" "
          "placeholder=\"benchmark or metric\" aria-controls=\"tp-list\" "
          "aria-describedby=\"tp-count\"></label> <span id=\"tp-count\" "
          "aria-live=\"polite\"></span></div>\n"
          "<noscript><p>The charts need JavaScript; the tables list the change "
          "points.</p></noscript>\n"
          "<div id=\"tp-tip\" role=\"tooltip\" hidden></div>\n<div id=\"tp-list\">\n";
  for (size_t s = 0; s < input.series.size(); ++s) {
    AppendSeriesSection(html, s, input.series[s], commits, shown[s], attachments[s]);
  }
  html += "</div>\n<script type=\"application/json\" id=\"tp-data\">";
  html += json;
  html += "</script>\n";
  for (size_t f = 0; f < attached.size(); ++f) {
    StatusOr<std::string> packed = encode::GzipCompress(*attached[f]);
    if (!packed.ok()) throw std::bad_alloc();  // zlib fails only when it cannot allocate
    html += "<script type=\"text/plain\" class=\"tp-fg\" data-f=\"" + std::to_string(f) + "\">";
    AppendBase64(html, *packed);
    html += "</script>\n";
  }
  html += "<script>\n";
  html += TrendPageScript();
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace benchprof::history
