#include "tools/compare/thresholds.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace benchprof::compare {
namespace {

bool ParseNonNegative(std::string_view text, double& out) {
  if (text.empty() || text.size() > 64) return false;
  const std::string copy(text);
  // strtod would also take "inf", "nan" and hex; a threshold is a plain number.
  if (copy.find_first_not_of("0123456789.eE+-") != std::string::npos) return false;
  char* end = nullptr;
  out = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && std::isfinite(out) && out >= 0;
}

}  // namespace

std::string Threshold::ToString() const {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g%s", relative ? value * 100 : value,
                relative ? "%" : "");
  return buffer;
}

ThresholdPolicy ThresholdPolicy::Defaults() {
  ThresholdPolicy policy;
  policy.rules_.push_back(Rule{std::nullopt, "time", Threshold{true, 0.05}, false});
  policy.rules_.push_back(Rule{std::nullopt, "allocs/op", Threshold{false, 0}, false});
  policy.rules_.push_back(Rule{std::nullopt, "B/op", Threshold{false, 0}, false});
  // Deterministic, but a change of layout or inlining moves it a little.
  policy.rules_.push_back(Rule{std::nullopt, "instructions/op", Threshold{true, 0.01}, false});
  return policy;
}

Status ThresholdPolicy::Add(std::string_view spec) {
  std::optional<NamePattern> pattern;
  std::string_view list = spec;
  if (const size_t eq = spec.rfind('='); eq != std::string_view::npos) {
    const std::string_view expression = spec.substr(0, eq);
    list = spec.substr(eq + 1);
    if (expression.empty()) return Status::Error("empty benchmark regex before '='");
    StatusOr<NamePattern> compiled = NamePattern::Compile(expression);
    if (!compiled.ok()) {
      return Status::Error("invalid regular expression \"" + std::string(expression) +
                           "\": " + compiled.status().message());
    }
    pattern = std::move(*compiled);
  }
  std::vector<Rule> added;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    const std::string_view item = list.substr(start, comma - start);
    start = comma + 1;
    const size_t colon = item.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
      return Status::Error("\"" + std::string(item) + "\": expected METRIC:VALUE (e.g. time:5%)");
    }
    Rule rule{pattern, std::string(item.substr(0, colon)), std::nullopt, /*added=*/true};
    const std::string_view value = item.substr(colon + 1);
    if (value != "off") {
      Threshold t;
      std::string_view number = value;
      t.relative = !number.empty() && number.back() == '%';
      if (t.relative) number.remove_suffix(1);
      if (!ParseNonNegative(number, t.value)) {
        return Status::Error("\"" + std::string(item) +
                             "\": the value must be a number >= 0, optionally with %, or off");
      }
      if (t.relative) t.value /= 100;
      rule.threshold = t;
    }
    added.push_back(std::move(rule));
  }
  rules_.insert(rules_.end(), added.begin(), added.end());
  return Status();
}

std::optional<Threshold> ThresholdPolicy::Find(std::string_view benchmark, std::string_view metric,
                                               bool is_time_metric) const {
  for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) {
    if (it->metric != metric && !(is_time_metric && it->metric == "time")) continue;
    if (it->pattern && !it->pattern->Search(benchmark)) continue;
    return it->threshold;
  }
  return std::nullopt;
}

std::vector<std::string> ThresholdPolicy::AddedMetrics() const {
  std::vector<std::string> metrics;
  for (const Rule& rule : rules_) {
    if (rule.added && std::find(metrics.begin(), metrics.end(), rule.metric) == metrics.end()) {
      metrics.push_back(rule.metric);
    }
  }
  return metrics;
}

}  // namespace benchprof::compare
