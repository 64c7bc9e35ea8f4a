#include "tools/results/result_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <set>

#include "common/json_value.h"
#include "tools/results/benchfmt_reader.h"
#include "tools/results/gbench_json.h"

namespace benchprof::results {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Adds samples to a ResultSet, warning once per (benchmark, metric) about
// values that cannot be compared.
class SampleSink {
 public:
  SampleSink(const std::string& path, ResultSet& set) : path_(path), set_(set) {}

  void Add(const std::string& benchmark, const std::string& time_metric, const std::string& metric,
           double value) {
    BenchmarkSamples& b = Benchmark(benchmark, time_metric);
    if (!std::isfinite(value)) {
      if (warned_.insert(benchmark + '\n' + metric).second) {
        set_.warnings.push_back(path_ + ": " + benchmark + ": " + metric +
                                " is not a finite number in some repetitions; those are ignored");
      }
      return;
    }
    for (auto& [metric_name, values] : b.metrics) {
      if (metric_name == metric) {
        values.push_back(value);
        return;
      }
    }
    b.metrics.emplace_back(metric, std::vector<double>{value});
  }

 private:
  BenchmarkSamples& Benchmark(const std::string& name, const std::string& time_metric) {
    auto [it, inserted] = set_.index.try_emplace(name, set_.benchmarks.size());
    if (inserted) {
      set_.benchmarks.push_back(BenchmarkSamples{name, time_metric, {}});
    }
    return set_.benchmarks[it->second];
  }

  const std::string& path_;
  ResultSet& set_;
  std::set<std::string> warned_;
};

MetricInfo CounterInfo(const std::string& name) {
  MetricInfo info;
  info.unit = name;
  if (name == "allocs/op" || name == "B/op") {
    info.kind = MetricKind::kExact;
  } else {
    info.kind = MetricKind::kCounter;
    info.higher_is_better = EndsWith(name, "_per_second") || EndsWith(name, "/s");
  }
  return info;
}

std::string ContextText(const json::Value& v) {
  if (v.is_string()) return v.as_string();
  return json::Serialize(v);
}

Status AddGbench(const std::string& path, std::string_view contents, ResultSet& set) {
  StatusOr<GbenchResults> parsed = ParseGbenchJson(contents);
  if (!parsed.ok()) return parsed.status();
  const GbenchResults& results = *parsed;
  if (results.rows.empty()) return Status::Error("no benchmark results (\"benchmarks\" is empty)");

  for (const auto& [key, value] : results.context) {
    if (key == "host_name" || key == "num_cpus" || key == "library_build_type") {
      bool known = false;
      for (const auto& [k, v] : set.config) known = known || k == key;
      if (!known) set.config.emplace_back(key, ContextText(value));
    }
  }

  std::vector<std::string> notes;
  const std::vector<const GbenchRow*> rows = SampleRows(results, notes);
  for (const std::string& note : notes) set.warnings.push_back(path + ": " + note);
  SampleSink sink(path, set);
  size_t samples = 0;
  for (const GbenchRow* row : rows) {
    const std::string time_metric = UsesRealTime(row->run_name) ? "real_time" : "cpu_time";
    sink.Add(row->run_name, time_metric, "cpu_time", row->cpu_ns);
    sink.Add(row->run_name, time_metric, "real_time", row->real_ns);
    for (const auto& [counter, value] : row->counters) {
      set.metrics.try_emplace(counter, CounterInfo(counter));
      sink.Add(row->run_name, time_metric, counter, value);
    }
    ++samples;
  }
  if (samples == 0) return Status::Error("no successful benchmark results (every row failed)");
  set.metrics.try_emplace("cpu_time", MetricInfo{"ns/op", MetricKind::kTime, false});
  set.metrics.try_emplace("real_time", MetricInfo{"ns/op", MetricKind::kTime, false});
  return Status();
}

Status AddGoText(const std::string& path, std::string_view contents, ResultSet& set) {
  StatusOr<GoBenchText> parsed = ParseGoBenchText(contents);
  if (!parsed.ok()) return parsed.status();
  if (parsed->results.empty()) {
    return Status::Error(
        "no benchmark results (expected Google Benchmark JSON, or Go benchmark text lines "
        "\"Benchmark<Name> <iterations> <value> <unit> ...\")");
  }
  for (const auto& [key, value] : parsed->config) {
    bool known = false;
    for (const auto& [k, v] : set.config) known = known || k == key;
    if (!known) set.config.emplace_back(key, value);
  }
  SampleSink sink(path, set);
  for (const GoBenchResult& r : parsed->results) {
    const bool has_time = std::any_of(r.values.begin(), r.values.end(),
                                      [](const auto& uv) { return uv.first == "ns/op"; });
    for (const auto& [unit, value] : r.values) {
      if (set.metrics.count(unit) == 0) {
        MetricInfo info;
        info.unit = unit;
        const auto meta = parsed->units.find(unit);
        const GoUnitInfo unit_info = meta == parsed->units.end() ? GoUnitInfo{} : meta->second;
        if (unit == "ns/op" || unit == "sec/op" || EndsWith(unit, "-ns/op") ||
            EndsWith(unit, "-sec/op")) {
          info.kind = MetricKind::kTime;
        } else if (unit == "allocs/op" || unit == "B/op" || unit_info.assume == "exact") {
          info.kind = MetricKind::kExact;
        }
        info.higher_is_better =
            unit_info.better.empty() ? EndsWith(unit, "/s") : unit_info.better == "higher";
        set.metrics.emplace(unit, info);
      }
      sink.Add(r.name, has_time ? "ns/op" : "", unit, value);
    }
  }
  return Status();
}

}  // namespace

const std::vector<double>* BenchmarkSamples::Find(std::string_view metric) const {
  for (const auto& [metric_name, values] : metrics) {
    if (metric_name == metric) return &values;
  }
  return nullptr;
}

const BenchmarkSamples* ResultSet::Find(std::string_view name) const {
  const auto it = index.find(std::string(name));
  return it == index.end() ? nullptr : &benchmarks[it->second];
}

std::string_view FormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kGoogleBenchmarkJson:
      return "Google Benchmark JSON";
    case InputFormat::kGoText:
      return "Go benchmark text";
    case InputFormat::kUnknown:
      break;
  }
  return "unknown format";
}

Status AddResultText(const std::string& path, std::string_view contents, ResultSet& set) {
  if (const size_t nul = contents.find('\0'); nul != std::string_view::npos) {
    return Status::Error(path + ": binary file (NUL byte at offset " + std::to_string(nul) +
                         "), expected Google Benchmark JSON or Go benchmark text");
  }
  const size_t first = contents.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return Status::Error(path + ": empty file");
  const InputFormat format =
      contents[first] == '{' ? InputFormat::kGoogleBenchmarkJson : InputFormat::kGoText;
  if (set.format != InputFormat::kUnknown && set.format != format) {
    return Status::Error(path + ": is " + std::string(FormatName(format)) + " but " +
                         set.files.front() + " is " + std::string(FormatName(set.format)) +
                         "; convert JSON with `benchprof convert --to=go` to mix them");
  }
  const Status s = format == InputFormat::kGoogleBenchmarkJson ? AddGbench(path, contents, set)
                                                               : AddGoText(path, contents, set);
  if (!s.ok()) return s.WithContext(path);
  set.format = format;
  set.files.push_back(path);
  return Status();
}

StatusOr<std::string> ReadWholeFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::Error(path + ": is a directory");
  }
  std::string contents;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int saved = errno;
      ::close(fd);
      return Status::Error(path + ": cannot read: " + std::strerror(saved));
    }
    if (n == 0) break;
    contents.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return contents;
}

StatusOr<ResultSet> ReadResultFiles(const std::vector<std::string>& paths) {
  ResultSet set;
  for (const std::string& path : paths) {
    StatusOr<std::string> contents = ReadWholeFile(path);
    if (!contents.ok()) return contents.status();
    if (Status s = AddResultText(path, *contents, set); !s.ok()) return s;
  }
  return set;
}

}  // namespace benchprof::results
