#include "tools/results/result_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <utility>

#include "common/json_byte_source.h"
#include "common/json_document.h"
#include "common/json_tokenizer.h"
#include "common/json_value.h"
#include "tools/results/benchfmt_reader.h"
#include "tools/results/gbench_json.h"

namespace benchprof::results {
namespace {

// How much of a result file is looked at to tell JSON from Go text.
constexpr size_t kSniffBytes = 4096;

// The most read from an input that is not a regular file: a pipe or a
// device may never end (`yes`, /dev/urandom), and a result file streamed
// through a pipe is rarely this large.
constexpr uint64_t kMaxStreamedBytes = uint64_t{64} << 20;

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
    AddTo(Benchmark(benchmark, time_metric), metric, value);
  }

  // The benchmark named `name`, added with `time_metric` if it is new.
  BenchmarkSamples& Benchmark(const std::string& name, const std::string& time_metric) {
    auto [it, inserted] = set_.index.try_emplace(name, set_.benchmarks.size());
    if (inserted) {
      set_.benchmarks.push_back(BenchmarkSamples{name, time_metric, {}});
    }
    return set_.benchmarks[it->second];
  }

  // Adds a value of `metric` to `b` (from Benchmark()).
  void AddTo(BenchmarkSamples& b, const std::string& metric, double value) {
    const std::string& benchmark = b.name;
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
  const std::string& path_;
  ResultSet& set_;
  std::set<std::string> warned_;
};

MetricInfo CounterInfo(const std::string& name) {
  MetricInfo info;
  info.unit = name;
  if (name == "allocs/op" || name == "B/op") {
    info.kind = MetricKind::kExact;
  } else if (name == kInstructionsMetric) {
    info.kind = MetricKind::kExact;
    info.exact_medians = true;
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

Status AddGbench(const std::string& path, const GbenchResults& results, ResultSet& set) {
  if (results.rows.empty()) return Status::Error("no benchmark results (\"benchmarks\" is empty)");

  // bench --instructions ran under Valgrind: its times say nothing.
  bool times_meaningless = false;
  for (const auto& [key, value] : results.context) {
    if (key == kTimingsContextKey) times_meaningless = true;
    bool seen = false;
    for (const auto& [k, v] : set.context) seen = seen || k == key;
    if (!seen) set.context.emplace_back(key, ContextText(value));
    if (key == "host_name" || key == "num_cpus" || key == "library_build_type") {
      bool known = false;
      for (const auto& [k, v] : set.config) known = known || k == key;
      if (!known) set.config.emplace_back(key, ContextText(value));
    }
  }

  std::vector<std::string> notes;
  const std::vector<const GbenchRow*> rows = SampleRows(results, notes);
  for (const std::string& note : notes) set.warnings.push_back(path + ": " + note);
  std::vector<SkippedBenchmark> skips = SkippedBenchmarks(results);
  for (SkippedBenchmark& skip : skips) set.skipped.push_back(SkipInFile{path, std::move(skip)});
  SampleSink sink(path, set);
  size_t samples = 0;
  static const std::string kCpuTime = "cpu_time", kRealTime = "real_time";
  for (const GbenchRow* row : rows) {
    // Looked up once per row: files can have hundreds of thousands.
    BenchmarkSamples& b =
        sink.Benchmark(row->run_name, UsesRealTime(row->run_name) ? kRealTime : kCpuTime);
    if (!times_meaningless) {
      sink.AddTo(b, kCpuTime, row->cpu_ns);
      sink.AddTo(b, kRealTime, row->real_ns);
    }
    for (const auto& [counter, value] : row->counters) {
      if (set.metrics.find(counter) == set.metrics.end()) {
        set.metrics.emplace(counter, CounterInfo(counter));
      }
      sink.AddTo(b, counter, value);
    }
    ++samples;
  }
  // A file whose benchmarks all skipped themselves measured nothing, but
  // is not bad input.
  if (samples == 0 && skips.empty()) {
    return Status::Error("no successful benchmark results (every row failed)");
  }
  if (times_meaningless) {
    set.warnings.push_back(path + ": times measured under Valgrind (bench --instructions) are " +
                           "not compared");
    return Status();
  }
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

// Fails if `format` is not that of the files already in `set`.
Status CheckSameFormat(const std::string& path, InputFormat format, const ResultSet& set) {
  if (set.format == InputFormat::kUnknown || set.format == format) return Status();
  return Status::Error(path + ": is " + std::string(FormatName(format)) + " but " +
                       set.files.front() + " is " + std::string(FormatName(set.format)) +
                       "; convert JSON with `benchprof convert --to=go` to mix them");
}

// `gbench_version`: GbenchVersion of a JSON file, "" for Go text.
void RecordFile(const std::string& path, InputFormat format, std::string gbench_version,
                ResultSet& set) {
  set.format = format;
  set.files.push_back(path);
  set.gbench_versions.push_back(std::move(gbench_version));
}

// The rest of `source`, whole.
Status BinaryFile(size_t nul_offset) {
  return Status::Error("binary file (NUL byte at offset " + std::to_string(nul_offset) +
                       "), expected Google Benchmark JSON or Go benchmark text");
}

// Reads to the end; stops at the first NUL byte, which no result file has
// (and /dev/zero has nothing else, endlessly).
StatusOr<std::string> ReadAll(const json::ByteSource& source) {
  std::string contents;
  char buffer[1 << 16];
  for (;;) {
    StatusOr<size_t> n = source(buffer, sizeof buffer);
    if (!n.ok()) return n.status();
    if (*n == 0) return contents;
    if (const void* nul = std::memchr(buffer, '\0', *n); nul != nullptr) {
      const size_t offset =
          contents.size() + static_cast<size_t>(static_cast<const char*>(nul) - buffer);
      return BinaryFile(offset);
    }
    contents.append(buffer, *n);
  }
}

// A Google Benchmark JSON file, read as it streams in: memory is the rows
// kept, never the document or the file's text.
StatusOr<GbenchResults> ReadGbenchSource(const std::string& path, json::ByteSource source) {
  json::Tokenizer tokens(std::move(source));
  StatusOr<GbenchResults> results = ReadGbenchJson(tokens);
  if (!results.ok() && tokens.failure() == json::Failure::kNulByte) {
    return BinaryFile(tokens.error_offset()).WithContext(path);
  }
  if (!results.ok()) return results.status().WithContext(path);
  return results;
}

Status AddGbenchFile(const std::string& path, json::ByteSource source, ResultSet& set) {
  if (Status s = CheckSameFormat(path, InputFormat::kGoogleBenchmarkJson, set); !s.ok()) return s;
  StatusOr<GbenchResults> results = ReadGbenchSource(path, std::move(source));
  if (!results.ok()) return results.status();
  if (Status s = AddGbench(path, *results, set); !s.ok()) return s.WithContext(path);
  RecordFile(path, InputFormat::kGoogleBenchmarkJson, GbenchVersion(*results), set);
  return Status();
}

// Opens an input. A regular file is read whatever its size; anything else
// (a pipe, a FIFO, a device) might never end, so it is read up to
// kMaxStreamedBytes.
StatusOr<json::ByteSource> OpenInput(const std::string& path) {
  StatusOr<json::ByteSource> file = json::OpenFileSource(path);
  if (!file.ok()) return file.status().WithContext(path);
  struct stat info;
  if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) return file;
  return json::LimitSource(std::move(*file), kMaxStreamedBytes,
                           "not a regular file, and more than " +
                               std::to_string(kMaxStreamedBytes >> 20) +
                               " MiB long: stopped reading (save it to a file to read it whole)");
}

// The input at `path` with its first bytes looked at.
StatusOr<json::PeekedSource> OpenAndPeek(const std::string& path) {
  StatusOr<json::ByteSource> file = OpenInput(path);
  if (!file.ok()) return file.status();
  StatusOr<json::PeekedSource> peeked = json::Peek(std::move(*file), kSniffBytes);
  if (!peeked.ok()) return peeked.status().WithContext(path);
  return peeked;
}

// Whether `head`, an input's first bytes, starts a JSON object.
bool LooksLikeJson(std::string_view head) {
  const size_t first = head.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && head[first] == '{' &&
         head.find('\0') == std::string_view::npos;
}

// One result file: JSON is streamed; Go text (or what is neither) is read
// whole, as AddResultText needs it.
Status AddResultFile(const std::string& path, ResultSet& set) {
  StatusOr<json::PeekedSource> peeked = OpenAndPeek(path);
  if (!peeked.ok()) return peeked.status();
  if (LooksLikeJson(peeked->head)) return AddGbenchFile(path, std::move(peeked->source), set);
  StatusOr<std::string> contents = ReadAll(peeked->source);
  if (!contents.ok()) return contents.status().WithContext(path);
  return AddResultText(path, *contents, set);
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
    return BinaryFile(nul).WithContext(path);
  }
  const size_t first = contents.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return Status::Error(path + ": empty file");
  const InputFormat format =
      contents[first] == '{' ? InputFormat::kGoogleBenchmarkJson : InputFormat::kGoText;
  if (Status s = CheckSameFormat(path, format, set); !s.ok()) return s;
  Status s;
  std::string gbench_version;
  if (format == InputFormat::kGoogleBenchmarkJson) {
    StatusOr<GbenchResults> results = ParseGbenchJson(contents);
    s = results.ok() ? AddGbench(path, *results, set) : results.status();
    if (results.ok()) gbench_version = GbenchVersion(*results);
  } else {
    s = AddGoText(path, contents, set);
  }
  if (!s.ok()) return s.WithContext(path);
  RecordFile(path, format, std::move(gbench_version), set);
  return Status();
}

StatusOr<GbenchResults> ReadGbenchFile(const std::string& path, std::string_view if_not_json) {
  StatusOr<json::PeekedSource> peeked = OpenAndPeek(path);
  if (!peeked.ok()) return peeked.status();
  if (!LooksLikeJson(peeked->head)) {
    if (const size_t nul = peeked->head.find('\0'); nul != std::string::npos) {
      return BinaryFile(nul).WithContext(path);
    }
    if (peeked->head.find_first_not_of(" \t\r\n") == std::string::npos && peeked->ended) {
      return Status::Error(path + ": empty file");
    }
    return Status::Error(path + ": not Google Benchmark JSON" +
                         (if_not_json.empty() ? "" : " (" + std::string(if_not_json) + ")"));
  }
  return ReadGbenchSource(path, std::move(peeked->source));
}

StatusOr<ResultSet> ReadResultFiles(const std::vector<std::string>& paths) {
  ResultSet set;
  for (const std::string& path : paths) {
    if (Status s = AddResultFile(path, set); !s.ok()) return s;
  }
  return set;
}

}  // namespace benchprof::results
