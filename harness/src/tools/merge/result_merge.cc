#include "tools/merge/result_merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace benchprof::merge {

using json::Value;

std::optional<ShardName> ParseShardName(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  ShardName shard;
  const auto digits = [](std::string_view part, size_t& out) {
    if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != part.npos) {
      return false;
    }
    out = std::stoul(std::string(part));
    return true;
  };
  if (!digits(text.substr(0, slash), shard.index) || !digits(text.substr(slash + 1), shard.total) ||
      shard.index >= shard.total) {
    return std::nullopt;
  }
  return shard;
}

namespace {

constexpr char kExecutableKey[] = "executable";
constexpr char kInterruptedKey[] = "benchprof_interrupted";

const Value* ContextValue(const Value& document, std::string_view key) {
  const Value* context = document.Find("context");
  return context != nullptr ? context->Find(key) : nullptr;
}

std::string ContextString(const Value& document, std::string_view key) {
  const Value* value = ContextValue(document, key);
  return value != nullptr && value->is_string() ? value->as_string() : "";
}

// The benchmark a row belongs to: its run name (aggregates carry their
// benchmark's), else its name.
const std::string& BenchmarkOf(const Value& row) {
  const Value* run_name = row.Find("run_name");
  if (run_name != nullptr && run_name->is_string()) return run_name->as_string();
  return row.Find("name")->as_string();
}

// A file's rows grouped by benchmark, the groups in first-seen order.
std::vector<std::vector<const Value*>> GroupByBenchmark(const Value& document) {
  std::vector<std::vector<const Value*>> groups;
  std::unordered_map<std::string_view, size_t> group_of;
  for (const Value& row : document.Find("benchmarks")->as_array()) {
    const auto [found, inserted] = group_of.try_emplace(BenchmarkOf(row), groups.size());
    if (inserted) groups.emplace_back();
    groups[found->second].push_back(&row);
  }
  return groups;
}

// The shard each file names, in file order; none for a file that names
// none. Fails on a malformed shard, a shard given twice, shards of
// different splits, and sharded files mixed with unsharded ones.
StatusOr<std::vector<std::optional<ShardName>>> ShardsOf(std::span<const NamedResults> files) {
  std::vector<std::optional<ShardName>> shards;
  std::optional<size_t> sharded_file, unsharded_file;
  std::map<size_t, size_t> file_of_index;
  for (size_t i = 0; i < files.size(); ++i) {
    const Value* value = ContextValue(files[i].document, kShardContextKey);
    if (value == nullptr) {
      shards.emplace_back();
      if (!unsharded_file) unsharded_file = i;
      continue;
    }
    const std::optional<ShardName> shard =
        value->is_string() ? ParseShardName(value->as_string()) : std::nullopt;
    if (!shard) {
      return Status::Error(files[i].path + ": context \"" + kShardContextKey +
                           "\" is not a shard such as \"2/4\"");
    }
    if (sharded_file) {
      const ShardName& other = *shards[*sharded_file];
      if (other.total != shard->total) {
        return Status::Error(files[*sharded_file].path + " is shard " +
                             ContextString(files[*sharded_file].document, kShardContextKey) +
                             " and " + files[i].path + " shard " + value->as_string() +
                             ": not shards of one split");
      }
    } else {
      sharded_file = i;
    }
    if (const auto [found, inserted] = file_of_index.try_emplace(shard->index, i); !inserted) {
      return Status::Error(files[found->second].path + " and " + files[i].path +
                           " are both shard " + value->as_string());
    }
    shards.push_back(shard);
  }
  if (sharded_file && unsharded_file) {
    return Status::Error(files[*unsharded_file].path + " names no shard and " +
                         files[*sharded_file].path + " is a shard (" + kShardContextKey +
                         "): not shards of one run");
  }
  return shards;
}

void AppendIndent(std::string& out, int level) { out.append(static_cast<size_t>(level) * 2, ' '); }

// An object's members one per line at `level`, values on one line.
void AppendObject(std::string& out, const Value& object, int level) {
  out += "{\n";
  bool first = true;
  for (const auto& [key, value] : object.members()) {
    if (!first) out += ",\n";
    first = false;
    AppendIndent(out, level + 1);
    json::AppendQuoted(out, key);
    out += ": ";
    out += json::Serialize(value);
  }
  out += "\n";
  AppendIndent(out, level);
  out += "}";
}

}  // namespace

StatusOr<Value> MergeResults(std::span<const NamedResults> files,
                             const ResultMergeOptions& options) {
  const NamedResults& first = files.front();
  if (!options.allow_different_binaries) {
    const std::string executable = ContextString(first.document, kExecutableKey);
    for (const NamedResults& file : files.subspan(1)) {
      const std::string other = ContextString(file.document, kExecutableKey);
      if (other != executable) {
        return Status::Error(first.path + " and " + file.path +
                             " are results of different benchmark binaries (context executable \"" +
                             executable + "\" and \"" + other +
                             "\"); --allow-different-binaries merges them anyway");
      }
    }
  }
  StatusOr<std::vector<std::optional<ShardName>>> shards = ShardsOf(files);
  if (!shards.ok()) return shards.status();

  // Each file's benchmarks; a benchmark in two files is refused.
  std::vector<std::vector<std::vector<const Value*>>> groups;
  std::unordered_map<std::string_view, size_t> file_of_benchmark;
  for (size_t i = 0; i < files.size(); ++i) {
    groups.push_back(GroupByBenchmark(files[i].document));
    for (const std::vector<const Value*>& group : groups.back()) {
      const std::string& name = BenchmarkOf(*group.front());
      const auto [found, inserted] = file_of_benchmark.try_emplace(name, i);
      if (!inserted) {
        return Status::Error(files[found->second].path + " and " + files[i].path + " both hold " +
                             name + ": shards of one run hold different benchmarks");
      }
    }
  }

  // The order to take the files in: by shard index when sharded.
  std::vector<size_t> order(files.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const bool sharded = (*shards)[0].has_value();
  if (sharded) {
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return (*shards)[a]->index < (*shards)[b]->index; });
  }
  Value::Array rows;
  if (sharded) {
    // The j-th benchmark of shard i was instance j * N + i of the run.
    size_t longest = 0;
    for (const auto& file_groups : groups) longest = std::max(longest, file_groups.size());
    for (size_t j = 0; j < longest; ++j) {
      for (const size_t file : order) {
        if (j >= groups[file].size()) continue;
        for (const Value* row : groups[file][j]) rows.push_back(*row);
      }
    }
  } else {
    for (const size_t file : order) {
      for (const Value& row : files[file].document.Find("benchmarks")->as_array()) {
        rows.push_back(row);
      }
    }
  }

  Value::Members context;
  std::string shard_names;
  for (const size_t file : order) {
    if (!(*shards)[file]) continue;
    if (!shard_names.empty()) shard_names += ",";
    shard_names += ContextString(files[file].document, kShardContextKey);
  }
  // The lowest shard's context (shard 0's, when all are there), so the
  // merged file is the same whatever order the shards are given in.
  const NamedResults& context_source = files[order.front()];
  bool named_shards = false;
  if (const Value* first_context = context_source.document.Find("context")) {
    for (const auto& [key, value] : first_context->members()) {
      if (key == kShardContextKey) {
        context.emplace_back(kShardsContextKey, Value::MakeString(shard_names));
        named_shards = true;
      } else {
        context.emplace_back(key, value);
      }
    }
  }
  if (sharded && !named_shards) {
    context.emplace_back(kShardsContextKey, Value::MakeString(shard_names));
  }
  // A shard that was interrupted makes the whole run so.
  if (ContextValue(context_source.document, kInterruptedKey) == nullptr) {
    for (const NamedResults& file : files) {
      if (const Value* interrupted = ContextValue(file.document, kInterruptedKey)) {
        context.emplace_back(kInterruptedKey, *interrupted);
        break;
      }
    }
  }
  Value::Members document;
  document.emplace_back("context", Value::MakeObject(std::move(context)));
  document.emplace_back("benchmarks", Value::MakeArray(std::move(rows)));
  return Value::MakeObject(std::move(document));
}

std::string FormatResults(const Value& document) {
  std::string out = "{\n";
  bool first_member = true;
  for (const auto& [key, value] : document.members()) {
    if (!first_member) out += ",\n";
    first_member = false;
    AppendIndent(out, 1);
    json::AppendQuoted(out, key);
    out += ": ";
    if (value.is_object()) {
      AppendObject(out, value, 1);
    } else if (value.is_array()) {
      out += "[\n";
      bool first_row = true;
      for (const Value& element : value.as_array()) {
        if (!first_row) out += ",\n";
        first_row = false;
        AppendIndent(out, 2);
        if (element.is_object()) {
          AppendObject(out, element, 2);
        } else {
          out += json::Serialize(element);
        }
      }
      out += "\n";
      AppendIndent(out, 1);
      out += "]";
    } else {
      out += json::Serialize(value);
    }
  }
  out += "\n}\n";
  return out;
}

}  // namespace benchprof::merge
