#include "tools/convert/go_format_writer.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "tools/text_format.h"

namespace benchprof::convert {

using results::GbenchResults;
using results::GbenchRow;
using tools::StringPrintf;

namespace {

// Names and units may not contain white space; benchfmt splits on it. A
// line break or TAB becomes a space and then '_'; the other characters
// OneLine replaces (controls, bidi formatting, CI command markers,
// malformed UTF-8) become '_' too.
std::string SpaceFree(std::string_view s) {
  std::string out = tools::OneLine(s, "_");
  std::replace(out.begin(), out.end(), ' ', '_');
  return out;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// True if `name` ends in "-<digits>", which benchfmt reads as GOMAXPROCS.
bool EndsWithProcs(std::string_view name) {
  const size_t dash = name.rfind('-');
  return dash != std::string_view::npos && AllDigits(name.substr(dash + 1));
}

// A config key: lower case, no white space or upper case (benchfmt's rule),
// limited here to [a-z0-9._-] and starting with a letter.
std::string ConfigKey(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += ok ? c : '-';
  }
  if (out.empty() || !(out[0] >= 'a' && out[0] <= 'z')) out = "ctx-" + out;
  return out;
}

// A config value runs to the end of the line: one line, as OneLine makes
// it, without leading or trailing spaces.
std::string ConfigValue(std::string_view value) {
  const std::string out = tools::OneLine(value);
  const size_t first = out.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return out.substr(first, out.find_last_not_of(' ') - first + 1);
}

// Context values as text: numbers with six significant digits (load_avg
// is a float array), arrays in brackets, objects as compact JSON.
std::string ContextText(const json::Value& v) {
  if (v.is_string()) return v.as_string();
  if (v.is_number()) return StringPrintf("%.6g", v.as_number());
  if (v.is_array()) {
    std::string s = "[";
    for (const json::Value& e : v.as_array()) {
      if (s.size() > 1) s += ",";
      s += e.is_object() ? "{...}" : ContextText(e);
    }
    return s + "]";
  }
  return json::Serialize(v);
}

// Context members that describe the machine (stable), that change from run
// to run (volatile), or that are too long for a line (caches).
bool IsLibraryContextKey(std::string_view key) {
  static constexpr std::string_view kKeys[] = {"date",
                                               "host_name",
                                               "executable",
                                               "num_cpus",
                                               "mhz_per_cpu",
                                               "cpu_scaling_enabled",
                                               "caches",
                                               "load_avg",
                                               "library_build_type",
                                               "library_version",
                                               "json_schema_version",
                                               "aslr_enabled"};
  return std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys);
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Go prints B/op and allocs/op as integers; ours may be exact fractions.
std::string CountValue(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return StringPrintf("%8.0f", v);
  return GoPrettyNumber(v);
}

using Config = std::vector<std::pair<std::string, std::string>>;

// What a file's JSON context becomes: configuration lines, and the values
// that change from run to run, for the '#' comment line.
struct FileContext {
  Config config;                 // in line order, without empty values
  std::string volatile_context;  // " key=value" per value
};

FileContext ContextOf(const GbenchResults& results) {
  FileContext context;
  context.config = {{"pkg", ""},
                    {"benchprof-host", ""},
                    {"benchprof-num-cpus", ""},
                    {"benchprof-library-build-type", ""}};
  Config& config = context.config;
  for (const auto& [key, value] : results.context) {
    const std::string text = ConfigValue(ContextText(value));
    if (key == "executable") {
      config[0].second = text.empty() ? "" : BaseName(text);
    } else if (key == "host_name") {
      config[1].second = text;
    } else if (key == "num_cpus") {
      config[2].second = text;
    } else if (key == "library_build_type") {
      config[3].second = text;
    } else if (key == "date" || key == "mhz_per_cpu" || key == "cpu_scaling_enabled" ||
               key == "load_avg" || key == "library_version" || key == "google_benchmark_version") {
      context.volatile_context += " " + key + "=" + SpaceFree(text);
    } else if (!IsLibraryContextKey(key) && value.is_string()) {
      config.emplace_back(ConfigKey(key), text);
    }
  }
  std::erase_if(config, [](const auto& kv) { return kv.second.empty(); });
  return context;
}

// The configuration lines that turn `in_force` into `next`: deletions
// first, then the keys that are new or have a new value.
std::string ConfigChanges(const Config& in_force, const Config& next) {
  std::string lines;
  // Pairs, not structured bindings: clang 14 (the fuzz build) cannot
  // capture those in a lambda.
  for (const auto& old_entry : in_force) {
    const bool kept = std::any_of(next.begin(), next.end(),
                                  [&](const auto& kv) { return kv.first == old_entry.first; });
    if (!kept) lines += old_entry.first + ":\n";  // an empty value deletes the key
  }
  for (const auto& new_entry : next) {
    const bool same = std::any_of(in_force.begin(), in_force.end(),
                                  [&](const auto& kv) { return kv == new_entry; });
    if (!same) lines += new_entry.first + ": " + new_entry.second + "\n";
  }
  return lines;
}

}  // namespace

std::string GoBenchmarkName(std::string_view run_name, int64_t threads) {
  std::string name = "Benchmark";
  int64_t procs = threads;
  size_t start = 0;
  bool first = true;
  while (start <= run_name.size()) {
    size_t slash = run_name.find('/', start);
    if (slash == std::string_view::npos) slash = run_name.size();
    std::string_view part = run_name.substr(start, slash - start);
    start = slash + 1;
    if (first) {
      name += SpaceFree(part);
      first = false;
      continue;
    }
    std::string mapped;
    if (part.starts_with("threads:") && AllDigits(part.substr(8))) {
      continue;  // the "-N" suffix, from the row's thread count
    } else if (part == "real_time") {
      mapped = "time=real";
    } else if (part == "manual_time") {
      mapped = "time=manual";
    } else if (part == "process_time") {
      mapped = "cpu=process";
    } else if (const size_t colon = part.find(':'); colon != std::string_view::npos) {
      mapped = std::string(part.substr(0, colon)) + "=" + std::string(part.substr(colon + 1));
    } else {
      mapped = part;
    }
    name += "/" + SpaceFree(mapped);
  }
  if (procs != 1) {
    name += "-" + std::to_string(procs);
  } else if (EndsWithProcs(name)) {
    name += "-1";
  }
  return name;
}

std::string GoUnit(std::string_view counter) { return SpaceFree(counter); }

std::string GoPrettyNumber(double x) {
  const double y = std::fabs(x);
  if (y == 0 || y >= 999.95) return StringPrintf("%10.0f", x);
  if (y >= 99.995) return StringPrintf("%12.1f", x);
  if (y >= 9.9995) return StringPrintf("%13.2f", x);
  if (y >= 0.99995) return StringPrintf("%14.3f", x);
  if (y >= 0.099995) return StringPrintf("%15.4f", x);
  if (y >= 0.0099995) return StringPrintf("%16.5f", x);
  if (y >= 0.00099995) return StringPrintf("%17.6f", x);
  // Go stops at seven decimals and would print 0 below 5e-8; keep the value.
  if (y >= 5e-8) return StringPrintf("%18.7f", x);
  return StringPrintf("%18.3e", x);
}

GoTextWriter::ResultLine GoTextWriter::FormatRow(const std::string& path, const GbenchRow& row,
                                                 std::set<std::string>& warned) {
  ResultLine line;
  line.name = GoBenchmarkName(row.run_name, row.threads);
  const double iterations = std::max(0.0, std::round(row.iterations));
  line.rest = StringPrintf("%8.0f", iterations) + "\t" + GoPrettyNumber(row.real_ns) + " ns/op";
  std::vector<std::pair<std::string, double>> extras = {{"cpu-ns/op", row.cpu_ns}};
  const double* bytes = nullptr;
  const double* allocs = nullptr;
  for (const auto& [counter, value] : row.counters) {
    if (!std::isfinite(value)) {
      if (warned.insert(row.run_name + "\n" + counter).second) {
        warnings_.push_back(path + ": " + row.run_name + ": " + counter +
                            " is not a finite number; left out");
      }
      continue;
    }
    if (counter == "B/op") {
      bytes = &value;
    } else if (counter == "allocs/op") {
      allocs = &value;
    } else if (!counter.empty()) {
      has_instructions_ = has_instructions_ || counter == "instructions/op";
      extras.emplace_back(GoUnit(counter), value);
    }
  }
  std::sort(extras.begin(), extras.end());
  for (const auto& [unit, value] : extras) line.rest += "\t" + GoPrettyNumber(value) + " " + unit;
  if (bytes != nullptr) line.rest += "\t" + CountValue(*bytes) + " B/op";
  if (allocs != nullptr) line.rest += "\t" + CountValue(*allocs) + " allocs/op";
  has_bytes_ = has_bytes_ || bytes != nullptr;
  has_allocs_ = has_allocs_ || allocs != nullptr;
  return line;
}

void GoTextWriter::Add(const std::string& path, const GbenchResults& results) {
  // Configuration of this file, then the difference to what is in force.
  FileContext context = ContextOf(results);
  body_ += ConfigChanges(config_, context.config);
  config_ = std::move(context.config);
  if (!context.volatile_context.empty()) body_ += "# benchprof:" + context.volatile_context + "\n";

  std::vector<std::string> notes;
  const std::vector<const GbenchRow*> rows = SampleRows(results, notes);
  for (const std::string& note : notes) warnings_.push_back(path + ": " + note);
  for (const results::SkippedBenchmark& skip : SkippedBenchmarks(results)) {
    warnings_.push_back(path + ": " + DescribeSkip(skip));
  }

  // Names padded to the longest, so the columns line up as in `go test`.
  // The width first, so that lines go straight into the text: a file of
  // many rows is not held twice.
  size_t width = 0;
  for (const GbenchRow* row : rows) {
    width = std::max(width, GoBenchmarkName(row->run_name, row->threads).size());
  }
  std::set<std::string> warned;
  for (const GbenchRow* row : rows) {
    const ResultLine line = FormatRow(path, *row, warned);
    body_ += line.name;
    body_.append(width - line.name.size(), ' ');
    body_ += '\t';
    body_ += line.rest;
    body_ += '\n';
  }
}

std::string GoTextWriter::Finish() const {
  std::string out;
  if (options_.assume_exact) {
    if (has_allocs_) out += "Unit allocs/op assume=exact\n";
    if (has_bytes_) out += "Unit B/op assume=exact\n";
    if (has_instructions_) out += "Unit instructions/op assume=exact\n";
  }
  return out + body_;
}

}  // namespace benchprof::convert
