#include "tools/history/history_schema.h"

#include <string_view>
#include <vector>

namespace benchprof::history {
namespace {

// "<id_column>" with PRIMARY KEY, whether or not the dialect's type says it.
std::string IdColumn(const Dialect& d) {
  std::string column(d.id_column);
  if (column.find("PRIMARY KEY") == std::string::npos) column += " PRIMARY KEY";
  return column;
}

// Migration 1: the first schema. Why each table is shaped as it is:
//  - samples holds one row per run x benchmark x metric with the run's
//    repetitions packed in one blob (little-endian float64, in the order
//    they ran): a row per repetition would make 1,000 series x 1,000 runs
//    x 20 repetitions 20 million rows, and the database many times the
//    issue's 200 MB. Its key starts with (benchmark, metric) because a
//    series is read by those; is_time marks the metric the benchmark's
//    "time" means (cpu_time, or real_time for UseRealTime benchmarks).
//  - commits and commit_parents hold the git graph the runs were given
//    (each run's commit and its first-parent chain), so that runs are
//    ordered by ancestry even when commits between them were never run.
//  - runs.content_hash (of the result files' bytes) makes recording the same
//    files twice store one run.
//  - benchmarks.time_metric is the metric the benchmark's latest run
//    called its time, so a reader need not scan the samples for it.
//  - a testbed is found by its name (given or derived); its fingerprint and
//    facts are what it was first recorded with.
//  - integers are BIGINT (PostgreSQL's INTEGER is 32-bit); flags are 0/1.
std::vector<std::string> Migration1(const Dialect& d) {
  const std::string id = IdColumn(d);
  const std::string blob(d.blob_type);
  // SQLite stores a table keyed by a composite key twice (the rows by rowid
  // and the key's index) unless told not to; PostgreSQL has no such clause.
  const std::string clustered = d.name == "sqlite" ? " WITHOUT ROWID" : "";
  return {
      "CREATE TABLE testbeds ("
      " id " + id + ","
      " name TEXT NOT NULL UNIQUE,"
      " fingerprint TEXT NOT NULL,"
      " facts TEXT NOT NULL)",
      "CREATE TABLE commits ("
      " hash TEXT NOT NULL PRIMARY KEY,"
      " committer_time_ns BIGINT NOT NULL,"
      " subject TEXT NOT NULL)",
      "CREATE TABLE commit_parents ("
      " hash TEXT NOT NULL,"
      " position BIGINT NOT NULL,"
      " parent TEXT NOT NULL,"
      " PRIMARY KEY (hash, position))" + clustered,
      "CREATE TABLE runs ("
      " id " + id + ","
      " content_hash TEXT NOT NULL UNIQUE,"
      " commit_hash TEXT NOT NULL,"
      " branch TEXT NOT NULL,"
      " testbed_id BIGINT NOT NULL REFERENCES testbeds(id),"
      " recorded_at_ns BIGINT NOT NULL,"
      " benchprof_version TEXT NOT NULL,"
      " gbench_version TEXT NOT NULL,"
      " context TEXT NOT NULL)",
      "CREATE INDEX runs_by_commit ON runs (commit_hash)",
      "CREATE TABLE benchmarks ("
      " id " + id + ","
      " name TEXT NOT NULL UNIQUE,"
      " time_metric TEXT NOT NULL)",
      "CREATE TABLE metrics ("
      " id " + id + ","
      " name TEXT NOT NULL UNIQUE,"
      " unit TEXT NOT NULL,"
      " kind TEXT NOT NULL,"
      " higher_is_better BIGINT NOT NULL,"
      " exact_medians BIGINT NOT NULL)",
      "CREATE TABLE samples ("
      " benchmark_id BIGINT NOT NULL,"
      " metric_id BIGINT NOT NULL,"
      " run_id BIGINT NOT NULL,"
      " is_time BIGINT NOT NULL,"
      " repetitions BIGINT NOT NULL,"
      " values_blob " + blob + " NOT NULL,"
      " PRIMARY KEY (benchmark_id, metric_id, run_id))" + clustered,
      "CREATE INDEX samples_by_run ON samples (run_id)",
      "CREATE TABLE attachments ("
      " run_id BIGINT NOT NULL,"
      " name TEXT NOT NULL,"
      " kind TEXT NOT NULL,"
      " size BIGINT NOT NULL,"
      " gzip_bytes " + blob + " NOT NULL,"
      " PRIMARY KEY (run_id, name))",
  };
}

// Migration 2: the shards of a run recorded one by one (bench --shard=I/N,
// each CI job recording its own file). Such a run's runs.content_hash is
// "sharded:<run key>:<N>", the key the jobs share; run_shards holds each
// shard recorded, with its file's content hash, so that a shard recorded
// twice is stored once and another file for a recorded shard is refused.
std::vector<std::string> Migration2(const Dialect&) {
  return {
      "CREATE TABLE run_shards ("
      " run_id BIGINT NOT NULL REFERENCES runs(id),"
      " shard_index BIGINT NOT NULL,"
      " shard_count BIGINT NOT NULL,"
      " content_hash TEXT NOT NULL,"
      " recorded_at_ns BIGINT NOT NULL,"
      " PRIMARY KEY (run_id, shard_index))",
  };
}

// The migrations, in order: kMigrations[i] brings version i to i + 1.
using Migration = std::vector<std::string> (*)(const Dialect&);
constexpr Migration kMigrations[] = {Migration1, Migration2};
static_assert(std::size(kMigrations) == kSchemaVersion);

StatusOr<bool> HasSchemaInfo(Database& db) {
  const std::string_view sql =
      db.dialect().name == "sqlite"
          ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_info'"
          : "SELECT count(*) FROM information_schema.tables"
            " WHERE table_name = 'schema_info' AND table_schema = current_schema()";
  StatusOr<SqlRows> rows = db.Query(sql);
  if (!rows.ok()) return rows.status();
  if (rows->size() != 1 || rows->front().size() != 1 ||
      !std::holds_alternative<int64_t>(rows->front()[0])) {
    return Status::Error(db.display_name() + ": unexpected answer when looking for schema_info");
  }
  return std::get<int64_t>(rows->front()[0]) > 0;
}

std::string Describe(const SchemaState& s) {
  return "history schema " + std::to_string(s.version) +
         (s.benchprof_version.empty() ? "" : " (written by benchprof " + s.benchprof_version + ")");
}

Status NewerSchema(Database& db, const SchemaState& state, const std::string& ours) {
  return Status::Error(db.display_name() + ": " + Describe(state) +
                       " is newer than this benchprof (" + ours + ") reads (schema " +
                       std::to_string(kSchemaVersion) + "); use a newer benchprof");
}

}  // namespace

StatusOr<SchemaState> ReadSchemaState(Database& db) {
  StatusOr<bool> has = HasSchemaInfo(db);
  if (!has.ok()) return has.status();
  SchemaState state;
  if (!*has) return state;
  StatusOr<SqlRows> rows = db.Query("SELECT schema_version, benchprof_version FROM schema_info");
  if (!rows.ok()) return rows.status();
  if (rows->size() != 1 || rows->front().size() != 2 ||
      !std::holds_alternative<int64_t>(rows->front()[0]) ||
      !std::holds_alternative<std::string>(rows->front()[1])) {
    return Status::Error(db.display_name() +
                         ": schema_info is not one row of a version and a benchprof version; "
                         "not a benchprof history database");
  }
  state.version = std::get<int64_t>(rows->front()[0]);
  state.benchprof_version = std::get<std::string>(rows->front()[1]);
  return state;
}

StatusOr<SchemaState> MigrateSchema(Database& db, const std::string& benchprof_version,
                                    SchemaFailure* failure) {
  SchemaFailure ignored;
  SchemaFailure& why = failure != nullptr ? *failure : ignored;
  why = SchemaFailure::kDatabase;
  StatusOr<SchemaState> state = ReadSchemaState(db);
  if (!state.ok()) return state;
  if (state->version > kSchemaVersion) {
    why = SchemaFailure::kNewerSchema;
    return NewerSchema(db, *state, benchprof_version);
  }
  if (state->version == kSchemaVersion) {
    why = SchemaFailure::kNone;
    return state;
  }

  DatabaseTransaction tx(db);
  if (!tx.begun().ok()) return tx.begun();
  // Begin serialises writers (database.h), so two migrators cannot both
  // create the tables: the second reads the version again and finds it done.
  state = ReadSchemaState(db);
  if (!state.ok()) return state;
  if (state->version > kSchemaVersion) {
    why = SchemaFailure::kNewerSchema;
    return NewerSchema(db, *state, benchprof_version);
  }
  if (state->version == kSchemaVersion) {
    why = SchemaFailure::kNone;
    return state;
  }
  if (state->version == 0) {
    if (Status s = db.Execute(
            "CREATE TABLE schema_info (schema_version BIGINT NOT NULL,"
            " benchprof_version TEXT NOT NULL)");
        !s.ok()) {
      return s;
    }
    if (Status s = db.Execute(
            "INSERT INTO schema_info (schema_version, benchprof_version) VALUES (0, '')");
        !s.ok()) {
      return s;
    }
  }
  for (int64_t v = state->version; v < kSchemaVersion; ++v) {
    for (const std::string& statement : kMigrations[v](db.dialect())) {
      if (Status s = db.Execute(statement); !s.ok()) {
        return s.WithContext("migrating to history schema " + std::to_string(v + 1));
      }
    }
  }
  if (Status s = db.Execute("UPDATE schema_info SET schema_version = $1, benchprof_version = $2",
                            {SqlValue(kSchemaVersion), SqlValue(benchprof_version)});
      !s.ok()) {
    return s;
  }
  if (Status s = tx.Commit(); !s.ok()) return s;
  why = SchemaFailure::kNone;
  return SchemaState{kSchemaVersion, benchprof_version};
}

}  // namespace benchprof::history
