#include "tracer/trace_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace benchprof::testing {

std::string Str(const json::Value& event, const char* key) {
  const json::Value* value = event.Find(key);
  return value != nullptr && value->is_string() ? value->as_string() : "";
}

double Num(const json::Value& event, const char* key) {
  const json::Value* value = event.Find(key);
  return value != nullptr && value->is_number() ? value->as_number() : -1;
}

const json::Value* Arg(const json::Value& event, const char* key) {
  const json::Value* args = event.Find("args");
  return args != nullptr ? args->Find(key) : nullptr;
}

std::vector<json::Value> TraceEvents(const json::Value& doc) {
  const json::Value* events = doc.Find("traceEvents");
  EXPECT_TRUE(events != nullptr && events->is_array()) << "no traceEvents array";
  if (events == nullptr || !events->is_array()) return {};
  for (const json::Value& event : events->as_array()) {
    EXPECT_TRUE(event.is_object());
    EXPECT_NE(Str(event, "ph"), "");
    EXPECT_GE(Num(event, "pid"), 0);
  }
  return events->as_array();
}

std::string NestingProblems(const std::vector<json::Value>& events) {
  std::ostringstream problems;
  std::map<int, std::vector<std::string>> open;
  std::map<int, double> last_ts;
  for (const json::Value& event : events) {
    const std::string ph = Str(event, "ph");
    // The event types the format keeps in time order per thread.
    if (ph != "B" && ph != "E" && ph != "i" && ph != "b" && ph != "e" && ph != "n") continue;
    const int tid = static_cast<int>(Num(event, "tid"));
    const double ts = Num(event, "ts");
    if (ts < 0) problems << "event without ts on tid " << tid << "\n";
    if (last_ts.count(tid) != 0 && ts < last_ts[tid]) {
      problems << "tid " << tid << ": ts " << ts << " after " << last_ts[tid] << "\n";
    }
    last_ts[tid] = std::max(last_ts[tid], ts);
    if (ph == "B") open[tid].push_back(Str(event, "name"));
    if (ph == "E") {
      if (open[tid].empty()) {
        problems << "tid " << tid << ": E '" << Str(event, "name") << "' with nothing open\n";
      } else {
        if (open[tid].back() != Str(event, "name")) {
          problems << "tid " << tid << ": E '" << Str(event, "name") << "' closes '"
                   << open[tid].back() << "'\n";
        }
        open[tid].pop_back();
      }
    }
  }
  for (const auto& [tid, stack] : open) {
    if (!stack.empty()) problems << "tid " << tid << ": " << stack.size() << " B left open\n";
  }
  return problems.str();
}

std::map<int, std::string> ThreadNames(const std::vector<json::Value>& events) {
  std::map<int, std::string> names;
  for (const json::Value& event : events) {
    if (Str(event, "ph") == "M" && Str(event, "name") == "thread_name") {
      const json::Value* name = Arg(event, "name");
      if (name != nullptr) names[static_cast<int>(Num(event, "tid"))] = name->as_string();
    }
  }
  return names;
}

std::map<int, double> BusyShares(const std::vector<json::Value>& events) {
  std::map<std::string, std::vector<std::pair<double, double>>> series;  // name -> (ts, busy)
  for (const json::Value& event : events) {
    if (Str(event, "ph") != "C" || Str(event, "cat") != "cpu") continue;
    const json::Value* busy = Arg(event, "busy");
    if (busy == nullptr) continue;
    series[Str(event, "name")].emplace_back(Num(event, "ts"), busy->as_number());
  }
  std::map<int, double> shares;
  for (auto& [name, points] : series) {
    std::sort(points.begin(), points.end());
    const size_t open = name.rfind('[');
    if (open == std::string::npos || points.size() < 2) continue;
    const int tid = std::atoi(name.c_str() + open + 1);
    double busy_time = 0;
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      busy_time += points[i].second * (points[i + 1].first - points[i].first);
    }
    const double span = points.back().first - points.front().first;
    shares[tid] = span > 0 ? busy_time / span : 0;
  }
  return shares;
}

}  // namespace benchprof::testing
