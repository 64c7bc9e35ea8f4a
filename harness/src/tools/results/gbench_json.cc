#include "tools/results/gbench_json.h"

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "tools/text_format.h"

namespace benchprof::results {
namespace {

// Members of a benchmark row that are not measurements. Any other numeric
// member is a user counter: 1.7.1 flattens counters into the row.
constexpr std::array<std::string_view, 23> kRowFields = {"name",
                                                         "family_index",
                                                         "per_family_instance_index",
                                                         "run_name",
                                                         "run_type",
                                                         "repetitions",
                                                         "repetition_index",
                                                         "threads",
                                                         "aggregate_name",
                                                         "aggregate_unit",
                                                         "error_occurred",
                                                         "error_message",
                                                         "skipped",
                                                         "skip_message",
                                                         "iterations",
                                                         "real_time",
                                                         "cpu_time",
                                                         "time_unit",
                                                         "cpu_coefficient",
                                                         "real_coefficient",
                                                         "big_o",
                                                         "rms",
                                                         "label"};

bool IsRowField(std::string_view key) {
  for (std::string_view f : kRowFields) {
    if (f == key) return true;
  }
  return false;
}

std::string RowContext(size_t index, const std::string& name) {
  std::string s = "benchmarks[" + std::to_string(index) + "]";
  if (!name.empty()) s += " (" + name + ")";
  return s;
}

Status WrongKind(const std::string& where, std::string_view key, const json::Value& v,
                 std::string_view expected) {
  return Status::Error(where + ": \"" + std::string(key) + "\" is " +
                       (v.is_array() || v.is_object() ? "an " : "a ") +
                       std::string(json::KindName(v.kind())) + ", expected " +
                       std::string(expected));
}

// Reads an optional string member into `out`.
Status OptionalString(const json::Value& row, std::string_view key, const std::string& where,
                      std::string& out) {
  const json::Value* v = row.Find(key);
  if (v == nullptr) return Status();
  if (!v->is_string()) return WrongKind(where, key, *v, "a string");
  out = v->as_string();
  return Status();
}

// Reads an optional number member; `present` says whether it was there.
Status OptionalNumber(const json::Value& row, std::string_view key, const std::string& where,
                      double& out, bool* present = nullptr) {
  const json::Value* v = row.Find(key);
  if (present != nullptr) *present = v != nullptr;
  if (v == nullptr) return Status();
  if (!v->is_number()) return WrongKind(where, key, *v, "a number");
  out = v->as_number();
  return Status();
}

// The row's identity: its name (required), run name, run type, aggregate
// name, error state and label. Sets `where` to the row's context.
Status ReadIdentity(const json::Value& value, size_t index, GbenchRow& row, std::string& where) {
  const json::Value* name = value.Find("name");
  if (name == nullptr) return Status::Error(where + ": no \"name\"");
  if (!name->is_string()) return WrongKind(where, "name", *name, "a string");
  row.name = name->as_string();
  if (row.name.empty()) return Status::Error(where + ": empty \"name\"");
  where = RowContext(index, row.name);

  Status s = OptionalString(value, "run_name", where, row.run_name);
  if (!s.ok()) return s;
  if (row.run_name.empty()) row.run_name = row.name;

  std::string run_type = "iteration";
  if (s = OptionalString(value, "run_type", where, run_type); !s.ok()) return s;
  if (run_type == "aggregate") {
    row.aggregate = true;
  } else if (run_type != "iteration") {
    return Status::Error(where + ": unknown \"run_type\" \"" + run_type +
                         "\" (expected \"iteration\" or \"aggregate\")");
  }
  if (s = OptionalString(value, "aggregate_name", where, row.aggregate_name); !s.ok()) return s;
  // An aggregate taken for a repetition would join the samples (n = 9 + 5).
  if (!row.aggregate_name.empty() && !row.aggregate) {
    return Status::Error(where + ": \"aggregate_name\" \"" + row.aggregate_name +
                         "\" but \"run_type\" is not \"aggregate\"");
  }

  if (const json::Value* e = value.Find("error_occurred"); e != nullptr) {
    if (!e->is_bool()) return WrongKind(where, "error_occurred", *e, "true or false");
    row.error = e->as_bool();
  }
  if (s = OptionalString(value, "error_message", where, row.error_message); !s.ok()) return s;
  if (const json::Value* skipped = value.Find("skipped"); skipped != nullptr) {
    if (!skipped->is_bool()) return WrongKind(where, "skipped", *skipped, "true or false");
    row.skipped = skipped->as_bool();
  }
  if (s = OptionalString(value, "skip_message", where, row.skip_message); !s.ok()) return s;
  return OptionalString(value, "label", where, row.label);
}

// The iteration and thread counts.
Status ReadCounts(const json::Value& value, const std::string& where, GbenchRow& row) {
  if (Status s = OptionalNumber(value, "iterations", where, row.iterations); !s.ok()) return s;
  if (row.measured() && (!std::isfinite(row.iterations) || row.iterations < 0)) {
    return Status::Error(where + ": \"iterations\" must be a finite number >= 0");
  }
  // Google Benchmark counts in int64_t; Go text (convert's output) too.
  if (row.measured() && row.iterations >= 0x1p63) {
    return Status::Error(where +
                         ": \"iterations\" is beyond Google Benchmark's count (at most 2^63 - 1)");
  }
  double threads = 1;
  if (Status s = OptionalNumber(value, "threads", where, threads); !s.ok()) return s;
  if (!(threads >= 1 && threads <= 1e9) || threads != std::floor(threads)) {
    return Status::Error(where + ": \"threads\" must be a positive integer");
  }
  row.threads = static_cast<int64_t>(threads);
  return Status();
}

// real_time and cpu_time, in nanoseconds.
Status ReadTimes(const json::Value& value, const std::string& where, GbenchRow& row) {
  std::string time_unit = "ns";
  if (Status s = OptionalString(value, "time_unit", where, time_unit); !s.ok()) return s;
  const double scale = NanosecondsPerUnit(time_unit);
  if (scale == 0) {
    return Status::Error(where + ": unknown \"time_unit\" \"" + time_unit +
                         "\" (expected ns, us, ms or s)");
  }
  bool has_real = false, has_cpu = false;
  double real = 0, cpu = 0;
  if (Status s = OptionalNumber(value, "real_time", where, real, &has_real); !s.ok()) return s;
  if (Status s = OptionalNumber(value, "cpu_time", where, cpu, &has_cpu); !s.ok()) return s;
  if (has_real != has_cpu) {
    return Status::Error(where + ": has \"" + (has_real ? "real_time" : "cpu_time") +
                         "\" but no \"" + (has_real ? "cpu_time" : "real_time") + "\"");
  }
  const bool is_aggregate_statistic =
      row.aggregate && row.aggregate_name != "mean" && row.aggregate_name != "median";
  if (has_real) {
    // Failed and skipped runs report zeros; stddev and cv may be anything,
    // even NaN.
    if (row.measured() && !is_aggregate_statistic) {
      for (auto [key, v] : {std::pair<const char*, double>{"real_time", real}, {"cpu_time", cpu}}) {
        if (!std::isfinite(v) || v < 0) {
          return Status::Error(where + ": \"" + key + "\" must be a finite number >= 0");
        }
      }
    }
    row.has_times = true;
    row.real_ns = real * scale;
    row.cpu_ns = cpu * scale;
  } else if (!row.aggregate && row.measured()) {
    return Status::Error(where + ": no \"real_time\" and \"cpu_time\"");
  }
  return Status();
}

// Every other numeric member is a user counter.
void ReadCounters(const json::Value& value, GbenchRow& row) {
  for (const auto& [key, member] : value.members()) {
    if (!member.is_number() || IsRowField(key)) continue;
    // Duplicate keys: Find() semantics (the last one wins) for counters too.
    bool replaced = false;
    for (auto& [k, v] : row.counters) {
      if (k == key) {
        v = member.as_number();
        replaced = true;
      }
    }
    if (!replaced) row.counters.emplace_back(key, member.as_number());
  }
}

StatusOr<GbenchRow> ParseRow(const json::Value& value, size_t index) {
  GbenchRow row;
  row.index = index;
  std::string where = RowContext(index, "");
  if (!value.is_object()) {
    return Status::Error(where + ": expected an object, found " +
                         std::string(json::KindName(value.kind())));
  }
  if (Status s = ReadIdentity(value, index, row, where); !s.ok()) return s;
  if (Status s = ReadCounts(value, where, row); !s.ok()) return s;
  if (Status s = ReadTimes(value, where, row); !s.ok()) return s;
  ReadCounters(value, row);
  return row;
}

// The context members this reader relies on: the library and schema
// versions. Every other member is kept as it is.
Status ReadContext(const json::Value& context, GbenchResults& results) {
  const std::string where = "context";
  if (!context.is_object()) return WrongKind("top level", "context", context, "an object");
  results.context = context.members();
  if (Status s = OptionalString(context, "library_version", where, results.library_version);
      !s.ok()) {
    return s;
  }
  if (Status s = OptionalString(context, "google_benchmark_version", where,
                                results.google_benchmark_version);
      !s.ok()) {
    return s;
  }
  const json::Value* schema = context.Find("json_schema_version");
  if (schema == nullptr) return Status();
  if (!schema->is_number()) return WrongKind(where, "json_schema_version", *schema, "a number");
  const double version = schema->as_number();
  if (!(version >= 1) || version != std::floor(version)) {
    return Status::Error(where + ": \"json_schema_version\" must be an integer >= 1");
  }
  if (version > static_cast<double>(kGbenchJsonSchemaVersion)) {
    return Status::Error(
        tools::StringPrintf("unsupported json_schema_version %.15g (this benchprof reads %lld)",
                            version, static_cast<long long>(kGbenchJsonSchemaVersion)));
  }
  results.json_schema_version = static_cast<int64_t>(version);
  return Status();
}

}  // namespace

double NanosecondsPerUnit(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return 0;
}

bool UsesRealTime(std::string_view run_name) {
  // Parts after the function name; 1.7.1 puts the time type before
  // "threads:N", so it need not be last.
  size_t start = run_name.find('/');
  while (start != std::string_view::npos) {
    const size_t end = run_name.find('/', start + 1);
    const std::string_view part = run_name.substr(
        start + 1, end == std::string_view::npos ? std::string_view::npos : end - start - 1);
    if (part == "real_time" || part == "manual_time") return true;
    start = end;
  }
  return false;
}

std::vector<const GbenchRow*> SampleRows(const GbenchResults& results,
                                         std::vector<std::string>& notes) {
  // Which run names have raw repetitions, which a median aggregate, and how
  // many repetitions failed (in first-seen order, for stable messages).
  std::set<std::string> raw, has_median;
  std::vector<std::string> order;
  std::map<std::string, std::pair<int, int>> failed;  // name -> (failed, total)
  std::map<std::string, std::string> failure_message;
  for (const GbenchRow& row : results.rows) {
    if (row.aggregate) {
      if (row.aggregate_name == "median" && row.has_times) has_median.insert(row.run_name);
      continue;
    }
    if (row.skipped && !row.error) continue;  // neither a sample nor a failure
    auto [it, inserted] = failed.try_emplace(row.run_name, 0, 0);
    if (inserted) order.push_back(row.run_name);
    ++it->second.second;
    if (row.error) {
      ++it->second.first;
      failure_message.try_emplace(row.run_name, row.error_message);
    } else {
      raw.insert(row.run_name);
    }
  }
  std::vector<const GbenchRow*> samples;
  std::set<std::string> fell_back;
  for (const GbenchRow& row : results.rows) {
    bool use = !row.aggregate && row.measured();
    if (row.aggregate && row.measured() && row.has_times && raw.count(row.run_name) == 0) {
      const std::string wanted = has_median.count(row.run_name) ? "median" : "mean";
      use = row.aggregate_name == wanted;
      if (use && fell_back.insert(row.run_name).second) {
        notes.push_back(row.run_name +
                        ": no raw repetitions (written with "
                        "--benchmark_report_aggregates_only?); its " +
                        wanted + " counts as one sample");
      }
    }
    if (use) samples.push_back(&row);
  }
  for (const std::string& name : order) {
    const auto [failures, total] = failed[name];
    if (failures == 0) continue;
    notes.push_back(name + ": " + std::to_string(failures) + " of " + std::to_string(total) +
                    " repetitions failed (" + failure_message[name] + "); they are ignored");
  }
  return samples;
}

std::vector<SkippedBenchmark> SkippedBenchmarks(const GbenchResults& results) {
  std::vector<SkippedBenchmark> skips;
  std::map<std::string, size_t> index;  // run name -> position in `skips`
  for (const GbenchRow& row : results.rows) {
    if (row.aggregate || !row.skipped || row.error) continue;
    auto [it, inserted] = index.try_emplace(row.run_name, skips.size());
    if (inserted) skips.push_back(SkippedBenchmark{row.run_name, row.skip_message, 0, 0});
    ++skips[it->second].skipped;
  }
  for (const GbenchRow& row : results.rows) {
    if (row.aggregate) continue;
    if (const auto it = index.find(row.run_name); it != index.end()) {
      ++skips[it->second].repetitions;
    }
  }
  return skips;
}

std::string DescribeSkip(const SkippedBenchmark& skip) {
  std::string line = skip.run_name + ": ";
  if (skip.skipped < skip.repetitions) {
    line +=
        std::to_string(skip.skipped) + " of " + std::to_string(skip.repetitions) + " repetitions ";
  }
  line += "skipped";
  if (!skip.message.empty()) line += " (" + skip.message + ")";
  return line;
}

std::string GbenchVersion(const GbenchResults& results) {
  std::string_view version = results.library_version;
  // GetBenchmarkVersion() is the git tag, "v1.9.1"; benchprof writes "1.7.1".
  if (version.size() > 1 && version[0] == 'v' && version[1] >= '0' && version[1] <= '9') {
    version.remove_prefix(1);
  }
  return std::string(version.empty() ? std::string_view(results.google_benchmark_version)
                                     : version);
}

StatusOr<GbenchResults> GbenchResultsFromDocument(const json::Value& doc) {
  if (!doc.is_object()) {
    return Status::Error("not Google Benchmark JSON: the document is " +
                         std::string(doc.is_array() || doc.is_object() ? "an " : "a ") +
                         std::string(json::KindName(doc.kind())) + ", expected an object");
  }
  // The context first: its schema version says how to read the rest.
  GbenchResults results;
  if (const json::Value* context = doc.Find("context"); context != nullptr) {
    if (Status s = ReadContext(*context, results); !s.ok()) return s;
  }
  const json::Value* rows = doc.Find("benchmarks");
  if (rows == nullptr) return Status::Error("not Google Benchmark JSON: no \"benchmarks\" array");
  if (!rows->is_array()) {
    return WrongKind("not Google Benchmark JSON", "benchmarks", *rows, "an array");
  }
  results.rows.reserve(rows->as_array().size());
  for (size_t i = 0; i < rows->as_array().size(); ++i) {
    StatusOr<GbenchRow> row = ParseRow(rows->as_array()[i], i);
    if (!row.ok()) return row.status();
    results.rows.push_back(std::move(*row));
  }
  return results;
}

StatusOr<GbenchResults> ParseGbenchJson(std::string_view text) {
  StatusOr<json::Value> doc = json::Parse(text);
  if (!doc.ok()) return doc.status();
  return GbenchResultsFromDocument(*doc);
}

}  // namespace benchprof::results
