#include "tools/results/gbench_json.h"

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "common/json_document.h"
#include "common/json_tokenizer.h"
#include "tools/results/gbench_rows.h"
#include "tools/text_format.h"

namespace benchprof::results {
namespace {

// A string member of the context, if present.
Status ContextString(const json::Value& context, std::string_view key, std::string& out) {
  const json::Value* value = context.Find(key);
  if (value == nullptr) return Status();
  if (!value->is_string()) return WrongKindError("context", key, value->kind(), "a string");
  out = value->as_string();
  return Status();
}

// The context members this reader relies on: the library and schema
// versions. Every other member is kept as it is.
Status ReadContext(const json::Value& context, GbenchResults& results) {
  if (!context.is_object())
    return WrongKindError("top level", "context", context.kind(), "an object");
  results.context = context.members();
  if (Status s = ContextString(context, "library_version", results.library_version); !s.ok()) {
    return s;
  }
  if (Status s =
          ContextString(context, "google_benchmark_version", results.google_benchmark_version);
      !s.ok()) {
    return s;
  }
  const json::Value* schema = context.Find("json_schema_version");
  if (schema == nullptr) return Status();
  if (!schema->is_number()) {
    return WrongKindError("context", "json_schema_version", schema->kind(), "a number");
  }
  const double version = schema->as_number();
  if (!(version >= 1) || version != std::floor(version)) {
    return Status::Error("context: \"json_schema_version\" must be an integer >= 1");
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
  // Hashed, and keyed by views of the rows' names: this runs once per row
  // of files with hundreds of thousands of rows.
  std::unordered_set<std::string_view> raw, has_median;
  std::vector<std::string_view> order;
  std::unordered_map<std::string_view, std::pair<int, int>> failed;  // name -> (failed, total)
  std::unordered_map<std::string_view, std::string_view> failure_message;
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
  std::unordered_set<std::string_view> fell_back;
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
  for (const std::string_view name : order) {
    const auto [failures, total] = failed[name];
    if (failures == 0) continue;
    notes.push_back(std::string(name) + ": " + std::to_string(failures) + " of " +
                    std::to_string(total) + " repetitions failed (" +
                    std::string(failure_message[name]) + "); they are ignored");
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

StatusOr<GbenchResults> ReadGbenchJson(json::Tokenizer& tokens) {
  using json::Token;
  // Problems are kept in the order a whole-document reader would report
  // them (the JSON itself, the document's kind, the context, the
  // "benchmarks" member, its rows), so the input is read to its end and
  // checked as JSON even after the first problem with its content. As with
  // Find(), a member that occurs twice counts the last time.
  Token t = tokens.Next();
  if (t == Token::kError) return tokens.status();
  if (t != Token::kBeginObject) {
    if (!tokens.SkipValue()) return tokens.status();
    if (tokens.Next() != Token::kEnd) return tokens.status();
    const json::Kind kind = KindOfFirstToken(t);
    return Status::Error("not Google Benchmark JSON: the document is " +
                         std::string(kind == json::Kind::kArray ? "an " : "a ") +
                         std::string(json::KindName(kind)) + ", expected an object");
  }
  GbenchResults results;
  Status context_problem;
  Status rows_problem = Status::Error("not Google Benchmark JSON: no \"benchmarks\" array");
  for (t = tokens.Next(); t == Token::kKey; t = tokens.Next()) {
    const bool is_context = tokens.string() == "context";
    const bool is_rows = tokens.string() == "benchmarks";
    const Token first = tokens.Next();
    if (first == Token::kError) return tokens.status();
    if (is_rows && first == Token::kBeginArray) {
      results.rows.clear();
      rows_problem = Status();
      if (Status s = ReadRows(tokens, results.rows, rows_problem); !s.ok()) return s;
    } else if (is_context) {
      json::Value context;
      if (Status s = json::ReadValue(tokens, first, context); !s.ok()) return s;
      GbenchResults fresh;
      context_problem = ReadContext(context, fresh);
      results.context = std::move(fresh.context);
      results.library_version = std::move(fresh.library_version);
      results.google_benchmark_version = std::move(fresh.google_benchmark_version);
      results.json_schema_version = fresh.json_schema_version;
    } else {
      if (!tokens.SkipValue()) return tokens.status();
      if (is_rows) {
        const json::Kind kind = KindOfFirstToken(first);
        rows_problem = Status::Error(std::string("not Google Benchmark JSON: \"benchmarks\" is ") +
                                     (kind == json::Kind::kObject ? "an " : "a ") +
                                     std::string(json::KindName(kind)) + ", expected an array");
      }
    }
  }
  if (t != Token::kEndObject) return tokens.status();
  if (tokens.Next() != Token::kEnd) return tokens.status();
  if (!context_problem.ok()) return context_problem;
  if (!rows_problem.ok()) return rows_problem;
  return results;
}

StatusOr<GbenchResults> ParseGbenchJson(std::string_view text) {
  json::Tokenizer tokens(text);
  return ReadGbenchJson(tokens);
}

}  // namespace benchprof::results
