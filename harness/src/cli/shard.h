// `bench --shard=I/N`: which slice of the benchmarks one process of a
// sharded run takes, as a CI matrix job asks for it (docs/sharding.md).
//
// The split is round-robin over the benchmark instances the filter selects,
// in registration order: instance k (0-based) belongs to shard k mod N.
// Round-robin rather than contiguous blocks because a family's instances
// usually grow with their arguments (BM_Sort/8 ... BM_Sort/65536): blocks
// would give one shard all the large ones. Every shard is given the same
// filter, so every instance is in exactly one shard.
//
// Bazel's sharding variables are honoured (TEST_TOTAL_SHARDS,
// TEST_SHARD_INDEX, and TEST_SHARD_STATUS_FILE touched): Bazel sets them
// only for a test target that asks for shards (shard_count), runs each
// shard as its own process, and since Bazel 7 fails a sharded test that
// does not touch the status file. GoogleTest's GTEST_TOTAL_SHARDS and
// GTEST_SHARD_INDEX are not: the runners that set them (gtest-parallel, a
// sharded unit-test job whose environment reaches a benchmark step) run the
// shards side by side on one machine, which falsifies timings, and a
// benchmark binary silently running a quarter of its benchmarks would be
// worse than one that runs them all.
//
//   StatusOr<Shard> shard = ParseShard("2/4");     // the third of four
//   if (shard.ok() && shard->Contains(instance_number)) ...
//
// Thread-safety: thread-safe (pure functions; ShardFromEnvironment reads
// the environment).
#ifndef BENCHPROF_CLI_SHARD_H_
#define BENCHPROF_CLI_SHARD_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace benchprof::cli {

// One slice of N: 0 <= index < total.
struct Shard {
  size_t index = 0;
  size_t total = 1;

  // "2/4", as the flag spells it and the result file's context names it.
  std::string Name() const;

  // Whether the instance numbered `instance` (0-based, among those the
  // filter selects, in registration order) runs in this shard.
  bool Contains(size_t instance) const { return instance % total == index; }

  bool operator==(const Shard&) const = default;
};

// The largest N accepted; far more shards than a CI matrix has jobs (GitHub
// Actions allows 256 per matrix), small enough that no count overflows.
inline constexpr size_t kMaxShards = 100'000;

// Parses "I/N" (decimal digits only). Fails, with a message for
// "--shard=VALUE: " to precede, on anything else: "x", "2", "0/0",
// "5/4" ("shard index 5 is out of range for 4 shards (0 to 3)").
StatusOr<Shard> ParseShard(std::string_view text);

// Where a shard came from, for the line bench prints when it is not the
// command line.
struct EnvironmentShard {
  Shard shard;
  std::string status_file;  // TEST_SHARD_STATUS_FILE, or "" if unset
};

// Bazel's TEST_TOTAL_SHARDS and TEST_SHARD_INDEX, when TEST_TOTAL_SHARDS is
// set and not empty; nothing otherwise. Fails, naming the variable, when
// either is malformed, the index is missing or out of range.
StatusOr<std::optional<EnvironmentShard>> ShardFromEnvironment();

// The names of `listed` (every instance the filter selects, in
// registration order, as --benchmark_list_tests prints them) that run in
// `shard`. Instances are counted by distinct name, so two instances that
// share a name (a family registered twice) run in the same shard: a
// filter can only select them together.
std::vector<std::string> NamesInShard(std::span<const std::string> listed, const Shard& shard);

// A --benchmark_filter value that matches exactly the names in `names` and
// nothing else (the library matches a filter anywhere in a name, as a POSIX
// extended regular expression): "^BM_(A|B/(8|64))$" for BM_A, BM_B/8 and
// BM_B/64. The names form a trie, so the expression is about as long as
// their distinct prefixes and nests no deeper than the longest name; the
// library compiles it by recursion, and a flat alternation of a thousand
// names would be as deep as it is long. REQUIRES: `names` is not empty.
std::string ExactNamesFilter(std::span<const std::string> names);

// Creates the file `path` (or updates its time) to tell Bazel that this
// binary shards. Fails naming the path.
Status TouchShardStatusFile(const std::string& path);

}  // namespace benchprof::cli

#endif  // BENCHPROF_CLI_SHARD_H_
