#include "tools/history/history_store.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <queue>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "common/json_value.h"
#include "encode/gzip.h"
#include "tools/history/history_schema.h"

#ifndef BENCHPROF_VERSION
#error "BENCHPROF_VERSION must be defined (the project's version)"
#endif

namespace benchprof::history {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the samples' blobs are little-endian float64, written as in memory");

constexpr int kExitBadInput = 3;  // as every benchprof subcommand's

// Rows per multi-row INSERT of samples: one statement per 100 rows instead
// of one per row (a round trip each on PostgreSQL), well under SQLite's
// limit of bound parameters.
constexpr size_t kSamplesPerInsert = 100;

std::string_view KindName(results::MetricKind kind) {
  switch (kind) {
    case results::MetricKind::kTime:
      return "time";
    case results::MetricKind::kExact:
      return "exact";
    case results::MetricKind::kCounter:
      return "counter";
  }
  return "counter";
}

results::MetricKind KindFromName(std::string_view name) {
  if (name == "time") return results::MetricKind::kTime;
  if (name == "exact") return results::MetricKind::kExact;
  return results::MetricKind::kCounter;
}

std::string JsonObject(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out += ',';
    json::AppendQuoted(out, members[i].first);
    out += ':';
    json::AppendQuoted(out, members[i].second);
  }
  return out + "}";
}

std::vector<std::pair<std::string, std::string>> JsonMembers(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  StatusOr<json::Value> v = json::Parse(text);
  if (!v.ok()) return out;
  for (const auto& [key, value] : v->members()) {
    out.emplace_back(key, value.is_string() ? value.as_string() : json::Serialize(value));
  }
  return out;
}

// Column accessors: a stored value of another type reads as empty, which
// only a database edited by hand can cause.
int64_t Int(const SqlValue& v) {
  if (const int64_t* i = std::get_if<int64_t>(&v)) return *i;
  if (const double* d = std::get_if<double>(&v)) return static_cast<int64_t>(*d);
  return 0;
}
std::string Text(const SqlValue& v) {
  if (const std::string* s = std::get_if<std::string>(&v)) return *s;
  if (const SqlBlob* b = std::get_if<SqlBlob>(&v)) return b->bytes;
  return {};
}

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool IsHex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

// The id of the row of `table` whose `column` is `value`, inserting it
// (with `extra` columns) if missing. Works when another writer inserts the
// same row at once: ON CONFLICT DO NOTHING, then read it.
StatusOr<int64_t> IdOf(Database& db, const std::string& table, const std::string& column,
                       const std::string& value, const std::string& extra_columns = "",
                       std::vector<SqlValue> extra_values = {}) {
  const std::string select = "SELECT id FROM " + table + " WHERE " + column + " = $1";
  StatusOr<SqlRows> rows = db.Query(select, {SqlValue(value)});
  if (!rows.ok()) return rows.status();
  if (!rows->empty()) return Int(rows->front()[0]);
  std::vector<SqlValue> params = {SqlValue(value)};
  std::string placeholders = "$1";
  for (SqlValue& v : extra_values) {
    params.push_back(std::move(v));
    placeholders += ", $" + std::to_string(params.size());
  }
  rows = db.Query("INSERT INTO " + table + " (" + column + extra_columns + ") VALUES (" +
                      placeholders + ") ON CONFLICT (" + column + ") DO NOTHING RETURNING id",
                  params);
  if (!rows.ok()) return rows.status();
  if (!rows->empty()) return Int(rows->front()[0]);
  rows = db.Query(select, {SqlValue(value)});
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return Status::Error(db.display_name() + ": " + table + " row vanished");
  return Int(rows->front()[0]);
}

// Stores `c` and its parents; a commit known before with no time or
// subject gets them.
Status StoreCommit(Database& db, const CommitInfo& c) {
  if (Status s =
          db.Execute("INSERT INTO commits (hash, committer_time_ns, subject) VALUES ($1, $2, $3)"
                     " ON CONFLICT (hash) DO UPDATE SET"
                     " committer_time_ns = CASE WHEN commits.committer_time_ns = 0"
                     " THEN excluded.committer_time_ns ELSE commits.committer_time_ns END,"
                     " subject = CASE WHEN commits.subject = '' THEN excluded.subject"
                     " ELSE commits.subject END",
                     {SqlValue(c.hash), SqlValue(c.committer_time_ns), SqlValue(c.subject)});
      !s.ok()) {
    return s;
  }
  for (size_t i = 0; i < c.parents.size(); ++i) {
    if (Status s = db.Execute(
            "INSERT INTO commit_parents (hash, position, parent) VALUES ($1, $2, $3)"
            " ON CONFLICT (hash, position) DO NOTHING",
            {SqlValue(c.hash), SqlValue(static_cast<int64_t>(i)), SqlValue(c.parents[i])});
        !s.ok()) {
      return s;
    }
  }
  return Status();
}

struct SampleRow {
  int64_t benchmark_id, metric_id;
  bool is_time;
  const std::vector<double>* values;
};

Status InsertSamples(Database& db, int64_t run_id, const std::vector<SampleRow>& rows) {
  for (size_t start = 0; start < rows.size(); start += kSamplesPerInsert) {
    const size_t end = std::min(rows.size(), start + kSamplesPerInsert);
    std::string sql =
        "INSERT INTO samples (benchmark_id, metric_id, run_id, is_time, repetitions, values_blob)"
        " VALUES ";
    std::vector<SqlValue> params;
    params.reserve((end - start) * 6);
    for (size_t i = start; i < end; ++i) {
      if (i > start) sql += ", ";
      sql += "(";
      for (int c = 0; c < 6; ++c) {
        sql += (c > 0 ? ", $" : "$") + std::to_string(params.size() + c + 1);
      }
      sql += ")";
      const SampleRow& r = rows[i];
      params.emplace_back(r.benchmark_id);
      params.emplace_back(r.metric_id);
      params.emplace_back(run_id);
      params.emplace_back(int64_t{r.is_time ? 1 : 0});
      params.emplace_back(static_cast<int64_t>(r.values->size()));
      params.emplace_back(SqlBlob{EncodeValues(*r.values)});
    }
    if (Status s = db.Execute(sql, params); !s.ok()) return s;
  }
  return Status();
}

}  // namespace

std::string EncodeValues(const std::vector<double>& values) {
  std::string bytes(values.size() * sizeof(double), '\0');
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

StatusOr<std::vector<double>> DecodeValues(std::string_view bytes) {
  if (bytes.size() % sizeof(double) != 0) {
    return Status::Error("a samples blob of " + std::to_string(bytes.size()) +
                         " bytes, not a whole number of float64 values");
  }
  std::vector<double> values(bytes.size() / sizeof(double));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

double MedianOf(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return lower + (upper - lower) / 2;
}

StatusOr<std::unique_ptr<HistoryStore>> HistoryStore::Open(const std::string& location,
                                                           const OpenOptions& options,
                                                           int* exit_code) {
  int ignored = 0;
  int& code = exit_code != nullptr ? *exit_code : ignored;
  // Two processes opening a new SQLite file at once both switch it to WAL
  // mode, and SQLite fails the second at once with "database is locked"
  // instead of calling the busy handler (seen in 1 of 8 pairs). So a busy
  // open is tried again until the busy timeout.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options.busy_timeout_ms);
  DatabaseErrorKind kind = DatabaseErrorKind::kOther;
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(location, options, &kind);
  for (int attempt = 1;
       !db.ok() && kind == DatabaseErrorKind::kBusy && std::chrono::steady_clock::now() < deadline;
       ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt * 5, 100)));
    db = OpenDatabase(location, options, &kind);
  }
  if (!db.ok()) {
    code = ExitCodeFor(kind);
    return db.status();
  }
  return FromDatabase(std::move(*db), exit_code);
}

StatusOr<std::unique_ptr<HistoryStore>> HistoryStore::FromDatabase(std::unique_ptr<Database> db,
                                                                   int* exit_code) {
  int ignored = 0;
  int& code = exit_code != nullptr ? *exit_code : ignored;
  SchemaFailure failure = SchemaFailure::kNone;
  StatusOr<SchemaState> state = MigrateSchema(*db, BENCHPROF_VERSION, &failure);
  if (!state.ok()) {
    code =
        failure == SchemaFailure::kNewerSchema ? kExitBadInput : ExitCodeFor(db->last_error_kind());
    return state.status();
  }
  code = 0;
  return std::unique_ptr<HistoryStore>(new HistoryStore(std::move(db)));
}

int HistoryStore::last_failure_exit_code() const { return last_failure_exit_code_; }

Status HistoryStore::Failed(const Status& s) {
  last_failure_exit_code_ = ExitCodeFor(db_->last_error_kind());
  return s;
}

StatusOr<RecordOutcome> HistoryStore::Record(const RunToRecord& run) {
  last_failure_exit_code_ = kExitBadInput;
  if (run.content_hash.empty()) return Status::Error("a run to record needs a content hash");
  if (run.commit.hash.empty()) return Status::Error("a run to record needs a commit");
  if (run.results == nullptr || run.results->benchmarks.empty()) {
    return Status::Error("a run to record needs results");
  }
  if (run.testbed.name.empty()) return Status::Error("a run to record needs a testbed name");
  // Text columns cannot hold a NUL byte on PostgreSQL (and the SQLite
  // backend refuses one as well): said here, naming what holds it.
  const auto nul = [](const std::string& text) { return text.find('\0') != std::string::npos; };
  const auto refuse = [](const std::string& what, const std::string& text) {
    std::string shown = text;
    for (char& c : shown) c = c == '\0' ? '?' : c;
    return Status::Error(what + " \"" + shown + "\" holds a NUL byte, which cannot be stored");
  };
  for (const results::BenchmarkSamples& b : run.results->benchmarks) {
    if (nul(b.name)) return refuse("benchmark name", b.name);
    for (const auto& [metric, values] : b.metrics) {
      if (nul(metric)) return refuse("metric name", metric);
    }
  }
  if (nul(run.branch)) return refuse("branch", run.branch);
  if (nul(run.testbed.name)) return refuse("testbed", run.testbed.name);
  Database& db = *db_;
  RecordOutcome outcome;

  DatabaseTransaction tx(db);
  if (!tx.begun().ok()) return Failed(tx.begun());

  // A run recorded whole is known by its files' content; the shards of a
  // run recorded one by one by their shared key and count.
  const std::string shard_name =
      run.shard ? std::to_string(run.shard->index) + "/" + std::to_string(run.shard->count) : "";
  const std::string identity =
      run.shard ? "sharded:" + run.shard->run_key + ":" + std::to_string(run.shard->count)
                : run.content_hash;
  StatusOr<SqlRows> existing =
      db.Query("SELECT id, commit_hash, branch, testbed_id FROM runs WHERE content_hash = $1",
               {SqlValue(identity)});
  if (!existing.ok()) return Failed(existing.status());
  // Adding a shard to a run an earlier shard made: that run's testbed.
  std::optional<int64_t> run_testbed;
  if (!existing->empty()) {
    outcome.run_id = Int(existing->front()[0]);
    if (!run.shard) {
      outcome.already_recorded = true;
      return outcome;  // the transaction rolls back: nothing was written
    }
    StatusOr<SqlRows> shard =
        db.Query("SELECT content_hash FROM run_shards WHERE run_id = $1 AND shard_index = $2",
                 {SqlValue(outcome.run_id), SqlValue(run.shard->index)});
    if (!shard.ok()) return Failed(shard.status());
    if (!shard->empty()) {
      if (Text(shard->front()[0]) == run.content_hash) {
        outcome.already_recorded = true;
        return outcome;
      }
      return Status::Error("shard " + shard_name + " of run " + run.shard->run_key +
                           " was recorded before from other results");
    }
    if (Text(existing->front()[1]) != run.commit.hash || Text(existing->front()[2]) != run.branch) {
      return Status::Error("shard " + shard_name + " of run " + run.shard->run_key +
                           " is of commit " + run.commit.hash + " on " + run.branch +
                           ", the run's other shards of " + Text(existing->front()[1]) + " on " +
                           Text(existing->front()[2]));
    }
    run_testbed = Int(existing->front()[3]);
  }

  // Testbed: found by name. Its stored facts are those it was first
  // recorded with; other facts under the same name are worth a warning.
  StatusOr<SqlRows> testbed = db.Query("SELECT id, fingerprint FROM testbeds WHERE name = $1",
                                       {SqlValue(run.testbed.name)});
  if (!testbed.ok()) return Failed(testbed.status());
  if (!testbed->empty() && Text(testbed->front()[1]) != run.testbed.fingerprint) {
    outcome.warnings.push_back("testbed " + run.testbed.name + " was first recorded on a machine " +
                               "of fingerprint " + Text(testbed->front()[1]) + "; this one is " +
                               run.testbed.fingerprint);
  }
  StatusOr<int64_t> testbed_id =
      IdOf(db, "testbeds", "name", run.testbed.name, ", fingerprint, facts",
           {SqlValue(run.testbed.fingerprint), SqlValue(JsonObject(run.testbed.facts))});
  if (!testbed_id.ok()) return Failed(testbed_id.status());

  // Commits in hash order, so that concurrent recorders of overlapping
  // ancestry lock rows in one order (PostgreSQL would otherwise deadlock).
  std::vector<const CommitInfo*> commits = {&run.commit};
  for (const CommitInfo& c : run.ancestry) {
    if (!c.hash.empty()) commits.push_back(&c);
  }
  std::sort(commits.begin(), commits.end(),
            [](const CommitInfo* a, const CommitInfo* b) { return a->hash < b->hash; });
  for (size_t i = 0; i < commits.size(); ++i) {
    if (i > 0 && commits[i]->hash == commits[i - 1]->hash) continue;
    if (Status s = StoreCommit(db, *commits[i]); !s.ok()) return Failed(s);
  }

  if (run_testbed && *run_testbed != *testbed_id) {
    return Status::Error("shard " + shard_name + " of run " + run.shard->run_key +
                         " ran on testbed " + run.testbed.name +
                         ", not on the testbed of the run's other shards");
  }
  if (!run_testbed) {
    StatusOr<SqlRows> inserted = db.Query(
        "INSERT INTO runs (content_hash, commit_hash, branch, testbed_id, recorded_at_ns,"
        " benchprof_version, gbench_version, context)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (content_hash) DO NOTHING RETURNING "
        "id",
        {SqlValue(identity), SqlValue(run.commit.hash), SqlValue(run.branch), SqlValue(*testbed_id),
         SqlValue(NowNs()), SqlValue(run.benchprof_version), SqlValue(run.gbench_version),
         SqlValue(JsonObject(run.context))});
    if (!inserted.ok()) return Failed(inserted.status());
    if (inserted->empty()) {
      // Another recorder stored the same content meanwhile (PostgreSQL: it
      // committed while this one waited on the key; the next statement sees
      // its row). Returning rolls this transaction back.
      existing = db.Query("SELECT id FROM runs WHERE content_hash = $1", {SqlValue(identity)});
      if (!existing.ok()) return Failed(existing.status());
      if (existing->empty()) return Failed(Status::Error(db.display_name() + ": run vanished"));
      outcome.run_id = Int(existing->front()[0]);
      outcome.already_recorded = true;
      return outcome;
    }
    outcome.run_id = Int(inserted->front()[0]);
  }

  // Metrics and benchmarks, each name once, in name order (lock order, as above).
  const results::ResultSet& set = *run.results;
  std::map<std::string, int64_t> metric_ids;
  for (const results::BenchmarkSamples& b : set.benchmarks) {
    for (const auto& [metric, values] : b.metrics) metric_ids.emplace(metric, 0);
  }
  for (auto& [metric, id] : metric_ids) {
    const auto found = set.metrics.find(metric);
    const results::MetricInfo info =
        found != set.metrics.end() ? found->second : results::MetricInfo{metric};
    StatusOr<int64_t> got =
        IdOf(db, "metrics", "name", metric, ", unit, kind, higher_is_better, exact_medians",
             {SqlValue(info.unit), SqlValue(std::string(KindName(info.kind))),
              SqlValue(int64_t{info.higher_is_better}), SqlValue(int64_t{info.exact_medians})});
    if (!got.ok()) return Failed(got.status());
    id = *got;
  }
  std::map<std::string, int64_t> benchmark_ids;
  std::map<std::string, std::string> time_metrics;
  for (const results::BenchmarkSamples& b : set.benchmarks) {
    benchmark_ids.emplace(b.name, 0);
    time_metrics[b.name] = b.time_metric;
  }
  // The known ones in one query (a run repeats the last one's benchmarks),
  // the new ones one by one; a time metric that changed is updated (the
  // latest run's wins).
  StatusOr<SqlRows> known = db.Query("SELECT id, name, time_metric FROM benchmarks");
  if (!known.ok()) return Failed(known.status());
  for (const auto& row : *known) {
    const std::string name = Text(row[1]);
    const auto it = benchmark_ids.find(name);
    if (it == benchmark_ids.end()) continue;
    it->second = Int(row[0]);
    if (Text(row[2]) != time_metrics[name]) {
      if (Status s = db.Execute("UPDATE benchmarks SET time_metric = $1 WHERE id = $2",
                                {SqlValue(time_metrics[name]), SqlValue(it->second)});
          !s.ok()) {
        return Failed(s);
      }
    }
  }
  for (auto& [name, id] : benchmark_ids) {
    if (id != 0) continue;
    StatusOr<int64_t> got =
        IdOf(db, "benchmarks", "name", name, ", time_metric", {SqlValue(time_metrics[name])});
    if (!got.ok()) return Failed(got.status());
    id = *got;
  }

  std::vector<SampleRow> rows;
  for (const results::BenchmarkSamples& b : set.benchmarks) {
    for (const auto& [metric, values] : b.metrics) {
      rows.push_back({benchmark_ids[b.name], metric_ids[metric], metric == b.time_metric, &values});
    }
  }
  if (run_testbed) {
    // The shards of a run split its benchmarks: one that another shard
    // holds means a different split, or a different run under one key.
    StatusOr<SqlRows> held = db.Query(
        "SELECT DISTINCT b.name FROM samples s JOIN benchmarks b ON b.id = s.benchmark_id"
        " WHERE s.run_id = $1 ORDER BY b.name",
        {SqlValue(outcome.run_id)});
    if (!held.ok()) return Failed(held.status());
    for (const auto& row : *held) {
      if (benchmark_ids.contains(Text(row[0]))) {
        return Status::Error("shard " + shard_name + " of run " + run.shard->run_key + ": " +
                             Text(row[0]) + " is in another recorded shard of the run");
      }
    }
    StatusOr<SqlRows> attached =
        db.Query("SELECT name FROM attachments WHERE run_id = $1", {SqlValue(outcome.run_id)});
    if (!attached.ok()) return Failed(attached.status());
    for (const auto& row : *attached) {
      for (const Attachment& a : run.attachments) {
        if (a.name == Text(row[0])) {
          return Status::Error("--attach: " + a.name + ": another shard of run " +
                               run.shard->run_key + " attached a file of that name");
        }
      }
    }
  }
  if (Status s = InsertSamples(db, outcome.run_id, rows); !s.ok()) return Failed(s);
  if (run.shard) {
    if (Status s =
            db.Execute("INSERT INTO run_shards (run_id, shard_index, shard_count, content_hash,"
                       " recorded_at_ns) VALUES ($1, $2, $3, $4, $5)",
                       {SqlValue(outcome.run_id), SqlValue(run.shard->index),
                        SqlValue(run.shard->count), SqlValue(run.content_hash), SqlValue(NowNs())});
        !s.ok()) {
      return Failed(s);
    }
  }

  for (const Attachment& a : run.attachments) {
    StatusOr<std::string> compressed = encode::GzipCompress(a.bytes);
    if (!compressed.ok()) return compressed.status().WithContext(a.name);
    if (Status s = db.Execute(
            "INSERT INTO attachments (run_id, name, kind, size, gzip_bytes)"
            " VALUES ($1, $2, $3, $4, $5)",
            {SqlValue(outcome.run_id), SqlValue(a.name), SqlValue(a.kind),
             SqlValue(static_cast<int64_t>(a.bytes.size())), SqlValue(SqlBlob{*compressed})});
        !s.ok()) {
      return Failed(s.WithContext("attachment " + a.name));
    }
  }

  if (Status s = tx.Commit(); !s.ok()) return Failed(s);
  outcome.benchmarks = static_cast<int>(benchmark_ids.size());
  outcome.metrics = static_cast<int>(metric_ids.size());
  return outcome;
}

StatusOr<std::map<std::string, size_t>> HistoryStore::AncestryRanks() {
  Database& db = *db_;
  StatusOr<SqlRows> commits = db.Query("SELECT hash, committer_time_ns FROM commits");
  if (!commits.ok()) return Failed(commits.status());
  StatusOr<SqlRows> parents = db.Query("SELECT hash, parent FROM commit_parents");
  if (!parents.ok()) return Failed(parents.status());

  // Kahn's algorithm, taking among the commits whose known parents are all
  // placed the oldest (committer time, then hash): ancestors come first,
  // and what the graph leaves unordered is ordered by time, deterministically.
  std::unordered_map<std::string, size_t> index;
  std::vector<std::pair<int64_t, std::string>> nodes;
  for (const auto& row : *commits) {
    index.emplace(Text(row[0]), nodes.size());
    nodes.emplace_back(Int(row[1]), Text(row[0]));
  }
  std::vector<std::vector<size_t>> children(nodes.size());
  std::vector<size_t> waiting(nodes.size(), 0);
  for (const auto& row : *parents) {
    const auto child = index.find(Text(row[0]));
    const auto parent = index.find(Text(row[1]));
    if (child == index.end() || parent == index.end() || child->second == parent->second) continue;
    children[parent->second].push_back(child->second);
    ++waiting[child->second];
  }
  using Ready = std::pair<std::pair<int64_t, std::string>, size_t>;
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (waiting[i] == 0) ready.push({nodes[i], i});
  }
  std::map<std::string, size_t> rank;
  std::vector<bool> placed(nodes.size(), false);
  while (!ready.empty()) {
    const size_t i = ready.top().second;
    ready.pop();
    placed[i] = true;
    rank.emplace(nodes[i].second, rank.size());
    for (size_t c : children[i]) {
      if (--waiting[c] == 0) ready.push({nodes[c], c});
    }
  }
  // A cycle (parents given by hand can make one) leaves commits unplaced:
  // they go last, by time.
  std::vector<size_t> rest;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!placed[i]) rest.push_back(i);
  }
  std::sort(rest.begin(), rest.end(), [&](size_t a, size_t b) { return nodes[a] < nodes[b]; });
  for (size_t i : rest) rank.emplace(nodes[i].second, rank.size());
  return rank;
}

StatusOr<std::vector<std::string>> HistoryStore::Ancestors(const std::string& hash, size_t limit) {
  StatusOr<SqlRows> known =
      db_->Query("SELECT count(*) FROM commits WHERE hash = $1", {SqlValue(hash)});
  if (!known.ok()) return Failed(known.status());
  std::vector<std::string> out;
  if (Int(known->front()[0]) == 0 || limit == 0) return out;
  StatusOr<SqlRows> links = db_->Query("SELECT hash, parent FROM commit_parents");
  if (!links.ok()) return Failed(links.status());
  StatusOr<SqlRows> commits = db_->Query("SELECT hash FROM commits");
  if (!commits.ok()) return Failed(commits.status());
  std::set<std::string> stored;
  for (const auto& row : *commits) stored.insert(Text(row[0]));
  std::unordered_map<std::string, std::vector<std::string>> parents;
  for (const auto& row : *links) parents[Text(row[0])].push_back(Text(row[1]));
  for (auto& [child, list] : parents) std::sort(list.begin(), list.end());
  std::set<std::string> seen = {hash};
  std::vector<std::string> level = {hash};
  while (!level.empty() && out.size() < limit) {
    std::vector<std::string> next;
    for (const std::string& c : level) {
      if (stored.count(c) != 0 && out.size() < limit) out.push_back(c);
      const auto it = parents.find(c);
      if (it == parents.end()) continue;
      for (const std::string& p : it->second) {
        if (seen.insert(p).second) next.push_back(p);
      }
    }
    std::sort(next.begin(), next.end());
    level = std::move(next);
  }
  return out;
}

StatusOr<std::vector<Series>> HistoryStore::LoadSeries(const SeriesFilter& filter) {
  // The small tables are read whole and the samples without a join: a join
  // looks up four tables per sample row, which for a million rows costs
  // seconds; maps by id in memory cost nothing.
  Database& db = *db_;
  StatusOr<std::map<std::string, size_t>> ranks = AncestryRanks();
  if (!ranks.ok()) return ranks.status();

  StatusOr<SqlRows> testbed_rows = db.Query("SELECT id, name FROM testbeds");
  if (!testbed_rows.ok()) return Failed(testbed_rows.status());
  std::unordered_map<int64_t, std::string> testbeds;
  for (const auto& row : *testbed_rows) {
    if (filter.testbed.empty() || Text(row[1]) == filter.testbed) {
      testbeds.emplace(Int(row[0]), Text(row[1]));
    }
  }

  struct RunRow {
    std::string commit;
    int64_t recorded_at_ns = 0;
    size_t rank = 0;
    int64_t testbed_id = 0;
    size_t branch = 0;  // index into `branches`
  };
  StatusOr<SqlRows> run_rows =
      db.Query("SELECT id, commit_hash, recorded_at_ns, testbed_id, branch FROM runs");
  if (!run_rows.ok()) return Failed(run_rows.status());
  std::vector<std::string> branches;
  std::unordered_map<std::string, size_t> branch_index;
  std::unordered_map<int64_t, RunRow> runs;
  for (auto& row : *run_rows) {
    const std::string branch = Text(row[4]);
    if (!filter.branch.empty() && branch != filter.branch) continue;
    if (testbeds.count(Int(row[3])) == 0) continue;
    auto [it, fresh] = branch_index.try_emplace(branch, branches.size());
    if (fresh) branches.push_back(branch);
    RunRow r;
    r.commit = Text(row[1]);
    r.recorded_at_ns = Int(row[2]);
    const auto rank = ranks->find(r.commit);
    r.rank = rank == ranks->end() ? ranks->size() : rank->second;
    r.testbed_id = Int(row[3]);
    r.branch = it->second;
    runs.emplace(Int(row[0]), std::move(r));
  }

  StatusOr<SqlRows> metric_rows =
      db.Query("SELECT id, name, unit, kind, higher_is_better, exact_medians FROM metrics");
  if (!metric_rows.ok()) return Failed(metric_rows.status());
  std::unordered_map<int64_t, std::pair<std::string, results::MetricInfo>> metrics;
  for (const auto& row : *metric_rows) {
    if (!filter.metric.empty() && Text(row[1]) != filter.metric) continue;
    results::MetricInfo info;
    info.unit = Text(row[2]);
    info.kind = KindFromName(Text(row[3]));
    info.higher_is_better = Int(row[4]) != 0;
    info.exact_medians = Int(row[5]) != 0;
    metrics.emplace(Int(row[0]), std::make_pair(Text(row[1]), info));
  }

  StatusOr<SqlRows> benchmark_rows = db.Query("SELECT id, name FROM benchmarks");
  if (!benchmark_rows.ok()) return Failed(benchmark_rows.status());
  std::unordered_map<int64_t, std::string> benchmarks;
  for (const auto& row : *benchmark_rows) {
    if (!filter.benchmark || filter.benchmark->Search(Text(row[1]))) {
      benchmarks.emplace(Int(row[0]), Text(row[1]));
    }
  }
  if (benchmarks.empty() || metrics.empty() || runs.empty()) return std::vector<Series>{};

  // All samples at once when every benchmark is wanted; else one query per
  // benchmark, which reads only its rows (the key starts with it).
  std::vector<std::optional<int64_t>> queries;
  if (benchmarks.size() == benchmark_rows->size()) {
    queries.push_back(std::nullopt);
  } else {
    for (const auto& [id, name] : benchmarks) queries.push_back(id);
    std::sort(queries.begin(), queries.end());
  }
  std::optional<int64_t> only_metric;
  if (metrics.size() == 1) only_metric = metrics.begin()->first;

  struct Point {
    const RunRow* run;
    int64_t run_id;
    std::string blob;
  };
  using Key = std::tuple<int64_t, int64_t, int64_t, size_t>;  // benchmark, metric, testbed, branch
  std::map<Key, std::vector<Point>> grouped;
  for (const std::optional<int64_t>& benchmark : queries) {
    std::string sql = "SELECT benchmark_id, metric_id, run_id, values_blob FROM samples";
    std::vector<SqlValue> params;
    if (benchmark) {
      params.emplace_back(*benchmark);
      sql += " WHERE benchmark_id = $1";
    }
    if (only_metric) {
      params.emplace_back(*only_metric);
      sql += std::string(benchmark ? " AND" : " WHERE") + " metric_id = $" +
             std::to_string(params.size());
    }
    StatusOr<SqlRows> rows = db.Query(sql, params);
    if (!rows.ok()) return Failed(rows.status());
    std::vector<Point>* current = nullptr;
    Key current_key{-1, -1, -1, 0};
    for (auto& row : *rows) {
      const int64_t b = Int(row[0]), m = Int(row[1]), r = Int(row[2]);
      if (!benchmark && benchmarks.count(b) == 0) continue;
      if (metrics.count(m) == 0) continue;
      const auto run = runs.find(r);
      if (run == runs.end()) continue;
      const Key key{b, m, run->second.testbed_id, run->second.branch};
      if (current == nullptr || key != current_key) {
        current = &grouped[key];
        current_key = key;
      }
      std::string* blob = std::get_if<std::string>(&row[3]);
      SqlBlob* sql_blob = std::get_if<SqlBlob>(&row[3]);
      current->push_back({&run->second, r,
                          sql_blob != nullptr ? std::move(sql_blob->bytes)
                                              : (blob != nullptr ? std::move(*blob) : "")});
    }
  }

  std::vector<Series> out;
  out.reserve(grouped.size());
  for (auto& [key, points] : grouped) {
    const auto& [b, m, t, branch] = key;
    Series series;
    series.key = {benchmarks.at(b), metrics.at(m).first, testbeds.at(t), branches[branch]};
    series.info = metrics.at(m).second;
    std::sort(points.begin(), points.end(), [](const Point& x, const Point& y) {
      return std::make_tuple(x.run->rank, x.run->recorded_at_ns, x.run_id) <
             std::make_tuple(y.run->rank, y.run->recorded_at_ns, y.run_id);
    });
    series.points.reserve(points.size());
    for (Point& p : points) {
      SeriesPoint point;
      point.run_id = p.run_id;
      point.commit = p.run->commit;
      point.recorded_at_ns = p.run->recorded_at_ns;
      StatusOr<std::vector<double>> values = DecodeValues(p.blob);
      if (!values.ok()) {
        last_failure_exit_code_ = kExitBadInput;
        return Status::Error(db.display_name() + ": run " + std::to_string(p.run_id) + ": " +
                             values.status().message());
      }
      point.values = std::move(*values);
      point.median = MedianOf(point.values);
      series.points.push_back(std::move(point));
    }
    out.push_back(std::move(series));
  }
  // By key (names), as the grouping was by ids.
  std::sort(out.begin(), out.end(), [](const Series& x, const Series& y) { return x.key < y.key; });
  return out;
}

StatusOr<std::map<std::string, CommitInfo>> HistoryStore::Commits(
    const std::vector<std::string>& hashes) {
  std::map<std::string, CommitInfo> out;
  for (const std::string& hash : std::set<std::string>(hashes.begin(), hashes.end())) {
    StatusOr<SqlRows> rows = db_->Query(
        "SELECT committer_time_ns, subject FROM commits WHERE hash = $1", {SqlValue(hash)});
    if (!rows.ok()) return Failed(rows.status());
    if (rows->empty()) continue;
    CommitInfo c;
    c.hash = hash;
    c.committer_time_ns = Int(rows->front()[0]);
    c.subject = Text(rows->front()[1]);
    StatusOr<SqlRows> parents = db_->Query(
        "SELECT parent FROM commit_parents WHERE hash = $1 ORDER BY position", {SqlValue(hash)});
    if (!parents.ok()) return Failed(parents.status());
    for (const auto& p : *parents) c.parents.push_back(Text(p[0]));
    out.emplace(hash, std::move(c));
  }
  return out;
}

StatusOr<std::optional<CommitInfo>> HistoryStore::FindCommit(
    const std::string& hash_or_unique_prefix) {
  last_failure_exit_code_ = kExitBadInput;
  const std::string& prefix = hash_or_unique_prefix;
  if (prefix.size() < 4 || !IsHex(prefix)) {
    return Status::Error("commit " + prefix + ": expected at least 4 hexadecimal digits");
  }
  std::string lower = prefix;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // A range instead of LIKE: the prefix is hexadecimal, and a range uses
  // the primary key on both backends whatever their collation.
  StatusOr<SqlRows> rows =
      db_->Query("SELECT hash FROM commits WHERE hash >= $1 AND hash < $2 ORDER BY hash LIMIT 2",
                 {SqlValue(lower), SqlValue(lower + "g")});
  if (!rows.ok()) return Failed(rows.status());
  if (rows->empty()) return std::optional<CommitInfo>();
  if (rows->size() > 1) {
    return Status::Error("commit " + prefix + " is ambiguous: " + Text((*rows)[0][0]) + ", " +
                         Text((*rows)[1][0]) + ", ...");
  }
  StatusOr<std::map<std::string, CommitInfo>> c = Commits({Text(rows->front()[0])});
  if (!c.ok()) return c.status();
  if (c->empty()) return std::optional<CommitInfo>();
  return std::optional<CommitInfo>(c->begin()->second);
}

StatusOr<std::vector<Attachment>> HistoryStore::Attachments(int64_t run_id) {
  StatusOr<SqlRows> rows =
      db_->Query("SELECT name, kind, gzip_bytes FROM attachments WHERE run_id = $1 ORDER BY name",
                 {SqlValue(run_id)});
  if (!rows.ok()) return Failed(rows.status());
  std::vector<Attachment> out;
  for (const auto& row : *rows) {
    StatusOr<std::string> bytes = encode::GzipDecompress(Text(row[2]), size_t{1} << 34);
    if (!bytes.ok()) {
      last_failure_exit_code_ = kExitBadInput;
      return bytes.status().WithContext(db_->display_name() + ": attachment " + Text(row[0]));
    }
    out.push_back({Text(row[0]), Text(row[1]), std::move(*bytes)});
  }
  return out;
}

StatusOr<std::vector<TestbedIdentity>> HistoryStore::Testbeds() {
  StatusOr<SqlRows> rows =
      db_->Query("SELECT name, fingerprint, facts FROM testbeds ORDER BY name");
  if (!rows.ok()) return Failed(rows.status());
  std::vector<TestbedIdentity> out;
  for (const auto& row : *rows)
    out.push_back({Text(row[0]), Text(row[1]), JsonMembers(Text(row[2]))});
  return out;
}

StatusOr<std::vector<RunInfo>> HistoryStore::Runs() {
  StatusOr<std::map<std::string, size_t>> ranks = AncestryRanks();
  if (!ranks.ok()) return ranks.status();
  StatusOr<SqlRows> rows = db_->Query(
      "SELECT r.id, r.content_hash, r.commit_hash, r.branch, t.name, r.recorded_at_ns,"
      " r.benchprof_version, r.gbench_version FROM runs r JOIN testbeds t ON t.id = r.testbed_id");
  if (!rows.ok()) return Failed(rows.status());
  std::vector<RunInfo> out;
  for (const auto& row : *rows) {
    out.push_back({Int(row[0]), Text(row[1]), Text(row[2]), Text(row[3]), Text(row[4]), Int(row[5]),
                   Text(row[6]), Text(row[7])});
  }
  const auto rank_of = [&](const std::string& hash) {
    const auto it = ranks->find(hash);
    return it == ranks->end() ? ranks->size() : it->second;
  };
  std::sort(out.begin(), out.end(), [&](const RunInfo& a, const RunInfo& b) {
    return std::make_tuple(rank_of(a.commit), a.recorded_at_ns, a.id) <
           std::make_tuple(rank_of(b.commit), b.recorded_at_ns, b.id);
  });
  return out;
}

StatusOr<std::map<std::string, std::string>> HistoryStore::TimeMetrics() {
  StatusOr<SqlRows> rows =
      db_->Query("SELECT name, time_metric FROM benchmarks WHERE time_metric <> ''");
  if (!rows.ok()) return Failed(rows.status());
  std::map<std::string, std::string> out;
  for (const auto& row : *rows) out.emplace(Text(row[0]), Text(row[1]));
  return out;
}

}  // namespace benchprof::history
