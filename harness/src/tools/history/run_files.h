// The result files of one run, read once for what `history record` stores
// and what `history gate` judges: the samples, each file's bytes, the
// content hash that identifies the run (the same files recorded twice are
// one run), and the context (Google Benchmark's, else Go text's
// configuration lines).
//
//   StatusOr<RunFiles> run = ReadRunFiles({"r.json"});
//   ... run->results, run->content_hash, run->context ...
//
// Thread-safety: thread-compatible (reads files).
#ifndef BENCHPROF_TOOLS_HISTORY_RUN_FILES_H_
#define BENCHPROF_TOOLS_HISTORY_RUN_FILES_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "tools/merge/result_merge.h"
#include "tools/results/result_reader.h"

namespace benchprof::history {

struct RunFiles {
  results::ResultSet results;
  std::string content_hash;  // ContentHash of the files' bytes
  std::vector<std::pair<std::string, std::string>> context;
  // Set when the files are one shard's file (its context names the shard):
  // recorded alone, it is part of a run its other shards complete.
  std::optional<merge::ShardName> shard;
};

// Reads `paths` as one run. Fails with one line naming the file: unreadable
// or malformed (results::ReadResultFiles), or no measured benchmark in any
// (all skipped). Several shard files of one run (bench --shard=I/N: their
// context names the shard) are read as `benchprof merge` joins them, and
// the run is identified by the merged file's content: recording the shards
// and recording their merged file store one run; a shard given twice is
// read once; what merge refuses (a benchmark in two files, shards of
// different splits or of different binaries) fails.
StatusOr<RunFiles> ReadRunFiles(const std::vector<std::string>& paths);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_RUN_FILES_H_
