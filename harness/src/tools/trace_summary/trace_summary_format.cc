#include "tools/trace_summary/trace_summary_format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "common/json_value.h"
#include "tools/text_format.h"

namespace benchprof::trace_summary {

using tools::DisplayWidth;
using tools::FormatDuration;
using tools::OneLine;
using tools::StringPrintf;

namespace {

// Durations are whole nanoseconds, so below a microsecond "42ns" says it
// exactly where FormatDuration's four digits would print "42.00ns".
std::string Duration(int64_t ns) {
  if (ns > -1000 && ns < 1000) return std::to_string(ns) + "ns";
  return FormatDuration(static_cast<double>(ns));
}

std::string Percent(double share) {
  if (std::isnan(share)) return "—";
  return StringPrintf("%.1f%%", share * 100);
}

// Columns: the first is left-aligned (names), the others right-aligned
// (numbers), two spaces apart; widths count code points, so "µs" is 2.
std::string RenderColumns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], DisplayWidth(row[i]));
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string fill(width[i] - DisplayWidth(row[i]), ' ');
      if (i > 0) line += "  ";
      line += i == 0 ? row[i] + fill : fill + row[i];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string DurationTable(const char* title, const std::vector<NamedDurations>& rows) {
  std::vector<std::vector<std::string>> table = {
      {title, "count", "total", "min", "p50", "p90", "p99", "max"}};
  for (const NamedDurations& r : rows) {
    const DurationStats& d = r.stats;
    table.push_back({OneLine(r.name), std::to_string(d.count), Duration(d.total_ns),
                     Duration(d.min_ns), Duration(d.p50_ns), Duration(d.p90_ns), Duration(d.p99_ns),
                     Duration(d.max_ns)});
  }
  return RenderColumns(table);
}

// More threads than this (a pool started per benchmark iteration leaves
// hundreds) and the table gets one row per thread name instead.
constexpr size_t kMaxThreadRows = 16;

// The thread table's rows: one per thread, or, past kMaxThreadRows, one per
// name, the busiest first (ties by name, as the threads are ordered).
std::vector<std::vector<std::string>> ThreadRows(const TraceSummary& s, bool* grouped) {
  // The blocked column only when some thread was seen waiting.
  bool any_blocked = false;
  for (const ThreadUsage& t : s.threads) any_blocked |= t.blocked_ns > 0;
  std::vector<std::vector<std::string>> table = {{"thread", "tid", "busy", "idle", "busy time"}};
  if (any_blocked) table[0].push_back("blocked");
  const auto name_of = [](const ThreadUsage& t) {
    return t.name.empty() ? std::string("(unnamed)") : OneLine(t.name);
  };
  const auto add_row = [&](std::string name, std::string tid, const ThreadUsage& t,
                           std::string idle) {
    table.push_back({std::move(name), std::move(tid), Percent(s.BusyShare(t)), std::move(idle),
                     t.has_cpu ? Duration(t.busy_ns) : "—"});
    if (any_blocked) table.back().push_back(Duration(t.blocked_ns));
  };
  const auto add_thread = [&](const ThreadUsage& t) {
    add_row(name_of(t), t.tid >= 0 ? std::to_string(t.tid) : "?", t, Percent(s.IdleShare(t)));
  };
  *grouped = s.threads.size() > kMaxThreadRows;
  if (!*grouped) {
    for (const ThreadUsage& t : s.threads) add_thread(t);
    return table;
  }
  struct Group {
    const ThreadUsage* first = nullptr;
    size_t threads = 0;
    ThreadUsage total;  // busy_ns, blocked_ns and has_cpu summed
  };
  std::vector<Group> groups;
  std::map<std::string, size_t> by_name;
  for (const ThreadUsage& t : s.threads) {
    const auto [at, added] = by_name.emplace(t.name, groups.size());
    if (added) groups.push_back({&t, 0, {}});
    Group& group = groups[at->second];
    ++group.threads;
    group.total.busy_ns += t.busy_ns;
    group.total.blocked_ns += t.blocked_ns;
    group.total.has_cpu |= t.has_cpu;
  }
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    return a.total.has_cpu != b.total.has_cpu ? a.total.has_cpu : a.total.busy_ns > b.total.busy_ns;
  });
  for (const Group& group : groups) {
    if (group.threads == 1) {
      add_thread(*group.first);
    } else {
      add_row(name_of(*group.first) + " (" + std::to_string(group.threads) + " threads)", "—",
              group.total, "—");
    }
  }
  return table;
}

std::string UnmatchedText(const UnmatchedCounts& u) {
  std::vector<std::string> parts;
  if (u.span_begins > 0) parts.push_back(std::to_string(u.span_begins) + " B without E");
  if (u.span_ends > 0) parts.push_back(std::to_string(u.span_ends) + " E without B");
  if (u.task_begins > 0) parts.push_back(std::to_string(u.task_begins) + " task b without e");
  if (u.task_ends > 0) parts.push_back(std::to_string(u.task_ends) + " task e without b");
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i > 0 ? ", " : "") + parts[i];
  return out;
}

std::string Text(const TraceSummary& s) {
  std::vector<std::vector<std::string>> header;
  header.push_back({"trace:", OneLine(s.file)});
  if (!s.producer.empty() || !s.clock.empty()) {
    std::string producer = s.producer.empty() ? "unknown producer" : OneLine(s.producer);
    if (!s.clock.empty()) producer += " (clock: " + OneLine(s.clock) + ")";
    header.push_back({"producer:", producer});
  }
  header.push_back({"interval:", s.has_interval
                                     ? Duration(s.duration_ns()) + " (from " +
                                           Duration(s.start_ns) + " to " + Duration(s.end_ns) + ")"
                                     : "none (no timed events)"});
  header.push_back({"events:", std::to_string(s.events) + " (" + std::to_string(s.dropped_events) +
                                   " dropped)"});
  if (s.window_ns > 0) {
    header.push_back(
        {"window:", "the last " + Duration(s.window_ns) + " of the run (flight recorder; " +
                        std::to_string(s.discarded_events) + " older events discarded)"});
  }
  if (s.truncated) header.push_back({"truncated:", OneLine(s.truncation)});
  if (s.unmatched.total() > 0) header.push_back({"unmatched:", UnmatchedText(s.unmatched)});
  const double mean_busy = s.MeanBusyThreads();
  const bool any_cpu = std::any_of(s.threads.begin(), s.threads.end(),
                                   [](const ThreadUsage& t) { return t.has_cpu; });
  if (any_cpu && !std::isnan(mean_busy)) {
    std::string parallelism = StringPrintf("%.2f", mean_busy) + " threads busy on average";
    if (s.cpus > 0) {
      // What the RSS case study is about: the cores the program left unused.
      const double idle = std::max(0.0, 1 - mean_busy / s.cpus);
      parallelism += StringPrintf(", of %u CPUs (%.0f%% idle)", s.cpus, idle * 100);
    }
    header.push_back({"parallelism:", parallelism});
  }
  // Left-aligned label column, left-aligned values.
  size_t label_width = 0;
  for (const auto& row : header) label_width = std::max(label_width, row[0].size());
  std::string out;
  for (const auto& row : header) {
    out += row[0] + std::string(label_width - row[0].size() + 2, ' ') + row[1] + "\n";
  }

  out += "\n";
  if (s.threads.empty()) {
    out += "threads: none (no CPU counter or thread name events)\n";
  } else {
    bool grouped = false;
    out += RenderColumns(ThreadRows(s, &grouped));
    if (grouped) {
      out += "(" + std::to_string(s.threads.size()) +
             " threads; those sharing a name are one row, busy summed: 100% = one CPU. "
             "--format=json lists each.)\n";
    }
  }

  out += "\n";
  out += s.tasks.empty() ? "tasks: none\n" : DurationTable("task type", s.tasks);
  out += "\n";
  out += s.regions.empty() ? "regions: none\n" : DurationTable("region", s.regions);
  if (!s.tasks.empty() || !s.regions.empty()) {
    out +=
        "\npN: nearest-rank percentile, the smallest duration with at least N% of the durations "
        "at or below it\n";
  }
  return out;
}

json::Value Number(double d) { return json::Value::MakeNumber(d); }
json::Value Number(int64_t n) { return json::Value::MakeNumber(static_cast<double>(n)); }
json::Value Number(uint64_t n) { return json::Value::MakeNumber(static_cast<double>(n)); }
json::Value String(const std::string& s) { return json::Value::MakeString(s); }
json::Value StringOrNull(const std::string& s) { return s.empty() ? json::Value() : String(s); }
json::Value NumberOrNull(double d) { return std::isnan(d) ? json::Value() : Number(d); }

json::Value DurationsJson(const std::vector<NamedDurations>& rows) {
  json::Value::Array out;
  for (const NamedDurations& r : rows) {
    const DurationStats& d = r.stats;
    out.push_back(json::Value::MakeObject({
        {"name", String(r.name)},
        {"count", Number(d.count)},
        {"total_ns", Number(d.total_ns)},
        {"min_ns", Number(d.min_ns)},
        {"p50_ns", Number(d.p50_ns)},
        {"p90_ns", Number(d.p90_ns)},
        {"p99_ns", Number(d.p99_ns)},
        {"max_ns", Number(d.max_ns)},
    }));
  }
  return json::Value::MakeArray(std::move(out));
}

std::string Json(const TraceSummary& s) {
  json::Value::Array threads;
  for (const ThreadUsage& t : s.threads) {
    const double busy = s.BusyShare(t);
    threads.push_back(json::Value::MakeObject({
        {"name", String(t.name)},
        {"pid", Number(t.pid)},
        {"tid", t.tid >= 0 ? Number(t.tid) : json::Value()},
        {"cpu_samples", Number(t.samples)},
        {"busy_ns", t.has_cpu ? Number(t.busy_ns) : json::Value()},
        {"blocked_ns", Number(t.blocked_ns)},
        {"busy", NumberOrNull(busy)},
        {"idle", NumberOrNull(s.IdleShare(t))},
    }));
  }
  json::Value::Array warnings;
  for (const std::string& w : s.warnings) warnings.push_back(String(w));
  const json::Value interval =
      s.has_interval ? json::Value::MakeObject({{"start_ns", Number(s.start_ns)},
                                                {"end_ns", Number(s.end_ns)},
                                                {"duration_ns", Number(s.duration_ns())}})
                     : json::Value();
  const json::Value doc = json::Value::MakeObject({
      {"file", String(s.file)},
      {"layout", String(s.layout == TraceLayout::kObject  ? "object"
                        : s.layout == TraceLayout::kArray ? "array"
                                                          : "perfetto")},
      {"producer", StringOrNull(s.producer)},
      {"clock", StringOrNull(s.clock)},
      {"interval", interval},
      {"events", Number(s.events)},
      {"dropped_events", Number(s.dropped_events)},
      {"window_ns", s.window_ns > 0 ? Number(s.window_ns) : json::Value()},
      {"discarded_events", Number(s.discarded_events)},
      {"truncated", json::Value::MakeBool(s.truncated)},
      {"truncation", StringOrNull(s.truncation)},
      {"mean_busy_threads", NumberOrNull(s.MeanBusyThreads())},
      {"cpus", s.cpus > 0 ? Number(static_cast<uint64_t>(s.cpus)) : json::Value()},
      {"threads", json::Value::MakeArray(std::move(threads))},
      {"percentile_method", String("nearest-rank")},
      {"tasks", DurationsJson(s.tasks)},
      {"regions", DurationsJson(s.regions)},
      {"unmatched", json::Value::MakeObject({{"span_begins", Number(s.unmatched.span_begins)},
                                             {"span_ends", Number(s.unmatched.span_ends)},
                                             {"task_begins", Number(s.unmatched.task_begins)},
                                             {"task_ends", Number(s.unmatched.task_ends)}})},
      {"negative_durations", Number(s.negative_durations)},
      {"busy_out_of_range", Number(s.busy_out_of_range)},
      {"warnings", json::Value::MakeArray(std::move(warnings))},
  });
  return json::Serialize(doc) + "\n";
}

}  // namespace

std::optional<TraceSummaryFormat> ParseTraceSummaryFormat(std::string_view name) {
  if (name == "text") return TraceSummaryFormat::kText;
  if (name == "json") return TraceSummaryFormat::kJson;
  return std::nullopt;
}

std::string RenderTraceSummary(const TraceSummary& summary, TraceSummaryFormat format) {
  return format == TraceSummaryFormat::kJson ? Json(summary) : Text(summary);
}

}  // namespace benchprof::trace_summary
