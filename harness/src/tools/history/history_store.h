// The history of runs: records a run's results with its commit, branch and
// testbed into the database (SQLite or PostgreSQL, database.h), and reads
// them back as series ordered by git ancestry (series.h).
//
// What a run stores: every raw repetition of every metric of every
// benchmark (exactly, as float64), the commit and the first-parent chain it
// was given (so runs of commits that were never recorded between them still
// order), the branch, the testbed, the benchprof and Google Benchmark
// versions, the context, and attached files (gzip-compressed). A run is
// identified by the hash of its result files' content: recording the same
// files twice stores one run. Record is one transaction: a recorder killed
// half-way leaves nothing.
//
// Ancestry order: the recorded runs' commits sorted topologically over the
// stored parent graph (ancestors first); commits not ordered by the graph
// (unrelated, or with their links unknown) by committer time, then hash;
// runs of one commit by recorded time, then id. The same database gives the
// same order, always.
//
//   StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open("runs.sqlite", {});
//   StatusOr<RecordOutcome> r = (*store)->Record(run);
//   StatusOr<std::vector<Series>> all = (*store)->LoadSeries({.metric = "allocs/op"});
//
// Thread-safety: thread-compatible (one Database connection).
#ifndef BENCHPROF_TOOLS_HISTORY_HISTORY_STORE_H_
#define BENCHPROF_TOOLS_HISTORY_HISTORY_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "tools/compare/name_pattern.h"
#include "tools/history/database.h"
#include "tools/history/series.h"
#include "tools/results/result_reader.h"

namespace benchprof::history {

// Which machine (or kind of machine) ran a run.
struct TestbedIdentity {
  std::string name;         // given (--testbed) or derived from the facts
  std::string fingerprint;  // hash of the sorted facts (testbed.h)
  std::vector<std::pair<std::string, std::string>> facts;  // sorted by key
};

// A file stored with a run (e.g. its CPU profile), for later explanations.
struct Attachment {
  std::string name;   // the file's base name, unique within the run
  std::string kind;   // "pprof", "trace", "file", ...
  std::string bytes;  // the file's content (stored compressed)
};

// One shard of a sharded run (bench --shard=I/N) recorded on its own: the
// shards recorded with one key and count are one run.
struct RunShard {
  std::string run_key;  // the same for every shard of the run (e.g. the CI pipeline's id)
  int64_t index = 0;    // I, from 0
  int64_t count = 0;    // N
};

// Everything Record stores.
struct RunToRecord {
  std::string content_hash;                   // of the result files' bytes (identifies the run)
  const results::ResultSet* results = nullptr;  // the run's samples; not owned
  CommitInfo commit;
  std::string branch;
  std::vector<CommitInfo> ancestry;  // commits before `commit` (its first-parent chain)
  TestbedIdentity testbed;
  std::string benchprof_version, gbench_version;
  std::vector<std::pair<std::string, std::string>> context;  // stored as a JSON object
  std::vector<Attachment> attachments;
  // Set for one shard of a run recorded on its own: the run is found (or
  // made) by the key and count, and this shard's results added to it.
  std::optional<RunShard> shard;
};

struct RecordOutcome {
  int64_t run_id = 0;
  bool already_recorded = false;  // the same content was recorded before as run_id
  int benchmarks = 0;             // stored (0 when already recorded)
  int metrics = 0;                // distinct metrics stored
  std::vector<std::string> warnings;  // e.g. a named testbed's facts differ from the stored ones
};

// Which series to load; an empty field matches any.
struct SeriesFilter {
  std::optional<compare::NamePattern> benchmark;  // searched in the benchmark's name
  std::string metric;                             // exact metric name
  std::string testbed;                            // exact testbed name
  std::string branch;                             // exact branch name
};

// A run as stored, without its samples.
struct RunInfo {
  int64_t id = 0;
  std::string content_hash;
  std::string commit;
  std::string branch;
  std::string testbed;
  int64_t recorded_at_ns = 0;
  std::string benchprof_version, gbench_version;
};

class HistoryStore {
 public:
  // Opens (creating a SQLite file if missing) and migrates the database at
  // `location` (OpenDatabase). On failure, `*exit_code` (if given) is the
  // tool's exit code for it: 3 for bad input (not a database, a newer
  // schema), 4 when the database is unavailable (unreachable, credentials,
  // locked, read-only, disk full).
  static StatusOr<std::unique_ptr<HistoryStore>> Open(const std::string& location,
                                                      const OpenOptions& options,
                                                      int* exit_code = nullptr);

  // Wraps an open database (migrating it as Open does).
  static StatusOr<std::unique_ptr<HistoryStore>> FromDatabase(std::unique_ptr<Database> db,
                                                              int* exit_code = nullptr);

  Database& database() { return *db_; }

  // The exit code for the last failure of a method below (3 or 4, as Open's).
  int last_failure_exit_code() const;

  // Stores `run` in one transaction. A run of the same content_hash stored
  // before is not stored again: already_recorded, with its id. Fails on an
  // empty content hash or commit hash, or no results. With `run.shard`, the
  // shard's results are added to the run of its key and count (made by the
  // first shard recorded): the same shard recorded again from the same file
  // is already_recorded; refused, with nothing stored, are another file for
  // a recorded shard, a shard whose commit, branch or testbed differ from
  // the run's, and a benchmark another shard of the run holds.
  StatusOr<RecordOutcome> Record(const RunToRecord& run);

  // Every series matching `filter`, sorted by key; points in ancestry order
  // (above), values the raw repetitions, median filled, info from the
  // metrics table.
  StatusOr<std::vector<Series>> LoadSeries(const SeriesFilter& filter);

  // The commits among `hashes` that the store knows, by hash.
  StatusOr<std::map<std::string, CommitInfo>> Commits(const std::vector<std::string>& hashes);

  // The commit whose hash is `hash_or_unique_prefix` or starts with it
  // (hexadecimal, at least 4 characters); none if unknown. Fails when the
  // prefix is ambiguous or not hexadecimal.
  StatusOr<std::optional<CommitInfo>> FindCommit(const std::string& hash_or_unique_prefix);

  // The files attached to run `run_id`, decompressed, by name.
  StatusOr<std::vector<Attachment>> Attachments(int64_t run_id);

  // The testbeds, by name.
  StatusOr<std::vector<TestbedIdentity>> Testbeds();

  // The runs, in ancestry order.
  StatusOr<std::vector<RunInfo>> Runs();

  // For each benchmark, the metric its "time" means in the run recorded last
  // ("cpu_time", or "real_time" for benchmarks that use real or manual
  // time); benchmarks with no time metric are absent.
  StatusOr<std::map<std::string, std::string>> TimeMetrics();

  // The position of each stored commit in ancestry order (0 first).
  StatusOr<std::map<std::string, size_t>> AncestryRanks();

  // The stored commits reachable from `hash` along stored parent links (all
  // parents, not only first ones), `hash` itself included if stored, at most
  // `limit` of them, nearest first (breadth-first; ties by hash). For a
  // baseline "at the fork point and before": the ancestors of a pull
  // request's base commit. Empty when `hash` is unknown.
  StatusOr<std::vector<std::string>> Ancestors(const std::string& hash, size_t limit = 100000);

 private:
  explicit HistoryStore(std::unique_ptr<Database> db) : db_(std::move(db)) {}
  Status Failed(const Status& s);

  std::unique_ptr<Database> db_;
  int last_failure_exit_code_ = 0;
};

// Encodes `values` as the samples table stores them (little-endian float64,
// in order), and back. Decoding fails on a length that is not a multiple of 8.
std::string EncodeValues(const std::vector<double>& values);
StatusOr<std::vector<double>> DecodeValues(std::string_view bytes);

// The median of `values` (the mean of the middle two for an even count); 0
// for none.
double MedianOf(std::vector<double> values);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_HISTORY_STORE_H_
