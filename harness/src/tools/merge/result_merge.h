// Joins the Google Benchmark JSON result files of one run's shards
// (`bench --shard=I/N`) into one file that `benchprof compare` and
// `benchprof history record` read as one run.
//
// The merged file's context is the first shard's (the lowest index; of
// unsharded files, the first file's), with the shards named
// ("benchprof_shards": "0/4,1/4,2/4,3/4" instead of each file's
// "benchprof_shard"). The merged file is the same, byte for byte, whatever
// order the shards are given in: `history record` identifies a sharded run
// by it, whether given the shards or their merged file. When every file names its shard, the
// benchmarks are put back in the order one unsharded run reports them: the shards dealt the
// instances out in turn (cli/shard.h), so the merge takes each shard's next benchmark in turn.
// Files that name no shard keep their order, one after the other.
//
// It refuses what cannot be one run, each in one line naming the files: a
// benchmark in two files, a shard given twice, shards of different splits
// (1/3 and 0/4), sharded and unsharded files together, and results of
// different benchmark binaries (the context's "executable"), unless
// allowed.
//
//   std::vector<NamedResults> shards = ...;  // parsed with json::Parse
//   StatusOr<json::Value> merged = MergeResults(shards, {});
//   std::string text = FormatResults(*merged);
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_MERGE_RESULT_MERGE_H_
#define BENCHPROF_TOOLS_MERGE_RESULT_MERGE_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/json_value.h"
#include "common/status.h"

namespace benchprof::merge {

// The context keys a shard's file and a merged file carry.
inline constexpr char kShardContextKey[] = "benchprof_shard";
inline constexpr char kShardsContextKey[] = "benchprof_shards";

// A shard as its file's context names it ("2/4": the third of four).
struct ShardName {
  size_t index = 0;
  size_t total = 0;
};

// "I/N" with 0 <= I < N (decimal, at most 9 digits each), or nothing.
std::optional<ShardName> ParseShardName(std::string_view text);

// A parsed result file and its path, for messages. The document must have
// passed results::ParseGbenchJson: a "benchmarks" array of objects with a
// string "name".
struct NamedResults {
  std::string path;
  json::Value document;
};

struct ResultMergeOptions {
  // Merge files whose context names different executables.
  bool allow_different_binaries = false;
};

// The files as one run (see above). REQUIRES: `files` is not empty.
StatusOr<json::Value> MergeResults(std::span<const NamedResults> files,
                                   const ResultMergeOptions& options);

// `document` as Google Benchmark writes its JSON: an object per line
// member by member, two spaces deeper per level, the context's and each
// benchmark's members one per line (nested values such as "caches" on
// one line).
std::string FormatResults(const json::Value& document);

}  // namespace benchprof::merge

#endif  // BENCHPROF_TOOLS_MERGE_RESULT_MERGE_H_
