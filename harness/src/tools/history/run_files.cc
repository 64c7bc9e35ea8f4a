#include "tools/history/run_files.h"

#include <map>
#include <optional>
#include <string_view>

#include "common/json_value.h"
#include "common/whole_file.h"
#include "tools/history/record_command.h"
#include "tools/merge/result_merge.h"

namespace benchprof::history {
namespace {

// The shard a Google Benchmark JSON file names in its context, or "".
std::string ShardOf(const json::Value& document) {
  const json::Value* context = document.Find("context");
  const json::Value* shard = context != nullptr ? context->Find(merge::kShardContextKey) : nullptr;
  return shard != nullptr && shard->is_string() ? shard->as_string() : "";
}

// Shard files of one run (bench --shard=I/N) as one run: the text
// `benchprof merge` writes for them, which the run is read from and
// identified by, so recording the shards and recording their merged file
// are the same run. A shard given twice counts once (a note in the
// warnings). Nothing when no file names a shard.
StatusOr<std::optional<RunFiles>> ReadShards(const std::vector<std::string>& paths,
                                             const std::vector<std::string>& contents) {
  std::vector<merge::NamedResults> files;
  std::map<std::string, std::string> path_of_shard;
  std::vector<std::string> notes;
  bool sharded = false;
  for (size_t i = 0; i < paths.size(); ++i) {
    const size_t first = contents[i].find_first_not_of(" \t\r\n");
    if (first == std::string::npos || contents[i][first] != '{') {
      return std::optional<RunFiles>();
    }
    StatusOr<json::Value> document = json::Parse(contents[i]);
    if (!document.ok()) return document.status().WithContext(paths[i]);
    const std::string shard = ShardOf(*document);
    if (!shard.empty()) {
      sharded = true;
      const auto [found, inserted] = path_of_shard.try_emplace(shard, paths[i]);
      if (!inserted) {
        notes.push_back(paths[i] + ": shard " + shard + " again (as " + found->second +
                        "); recorded once");
        continue;
      }
    }
    files.push_back({paths[i], std::move(*document)});
  }
  if (!sharded) return std::optional<RunFiles>();
  StatusOr<json::Value> merged = merge::MergeResults(files, {});
  if (!merged.ok()) return merged.status();
  const std::string text = merge::FormatResults(*merged);
  RunFiles run;
  std::string name = files.front().path;
  if (files.size() > 1) name += " and " + std::to_string(files.size() - 1) + " more shards";
  if (Status added = results::AddResultText(name, text, run.results); !added.ok()) return added;
  run.results.warnings.insert(run.results.warnings.begin(), notes.begin(), notes.end());
  run.content_hash = ContentHash({text});
  run.context = run.results.context;
  return std::optional<RunFiles>(std::move(run));
}

}  // namespace

StatusOr<RunFiles> ReadRunFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> contents;
  for (const std::string& path : paths) {
    StatusOr<std::string> bytes = ReadWholeFile(path, size_t{1} << 32);
    if (!bytes.ok()) return bytes.status();
    contents.push_back(std::move(*bytes));
  }
  RunFiles run;
  StatusOr<std::optional<RunFiles>> shards =
      paths.size() > 1 ? ReadShards(paths, contents) : std::optional<RunFiles>();
  if (!shards.ok()) return shards.status();
  if (shards->has_value()) {
    run = std::move(**shards);
  } else {
    // The bytes read above are the run's identity; the results are read
    // again as they stream in.
    StatusOr<results::ResultSet> results = results::ReadResultFiles(paths);
    if (!results.ok()) return results.status();
    run.content_hash = ContentHash(contents);
    run.context = results->context.empty() ? results->config : results->context;
    run.results = std::move(*results);
    for (const auto& [key, value] : run.context) {
      if (key != merge::kShardContextKey) continue;
      run.shard = merge::ParseShardName(value);
      if (!run.shard) {
        return Status::Error(paths.front() + ": context \"" + key + "\" is not a shard such as \"2/4\"");
      }
    }
  }
  if (run.results.benchmarks.empty()) {
    return Status::Error(paths.front() + ": no measured benchmark (all skipped)");
  }
  return run;
}

}  // namespace benchprof::history
