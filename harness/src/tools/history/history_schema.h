// The history database's schema, as numbered migrations: a database is
// brought from the version it has to kSchemaVersion, one migration at a
// time, in one transaction, so a database is at one version or another and
// never between. The `schema_info` table holds the version and the benchprof
// that last wrote it; a database of a newer schema than this benchprof knows
// is refused (its meaning may have changed), not migrated down.
//
// The same statements run on SQLite and PostgreSQL: portable SQL, the
// column types that differ from the Dialect.
//
//   StatusOr<SchemaState> state = MigrateSchema(db, "0.9.0");
//   if (!state.ok()) ... // "runs.sqlite: written by benchprof 2.0 with history schema 99; this
//                        //  benchprof (0.9.0) reads schema 1 and older"
//
// Thread-safety: stateless functions; the Database is used by one thread.
#ifndef BENCHPROF_TOOLS_HISTORY_HISTORY_SCHEMA_H_
#define BENCHPROF_TOOLS_HISTORY_HISTORY_SCHEMA_H_

#include <cstdint>
#include <string>

#include "common/status.h"
#include "tools/history/database.h"

namespace benchprof::history {

// The schema this benchprof writes and reads.
inline constexpr int64_t kSchemaVersion = 2;

// What a database says about itself.
struct SchemaState {
  int64_t version = 0;            // 0: an empty database (no schema_info)
  std::string benchprof_version;  // of the benchprof that last migrated it; "" if none
};

// Why MigrateSchema failed: the database is newer than this benchprof (bad
// input, as a file of an unknown format is), or the database failed
// (db.last_error_kind() says how).
enum class SchemaFailure { kNone, kNewerSchema, kDatabase };

// Reads the schema state without writing (a read-only database can be
// read). Fails when the database cannot be read.
StatusOr<SchemaState> ReadSchemaState(Database& db);

// Brings `db` to kSchemaVersion, recording `benchprof_version` as the writer
// when it migrates. A database at kSchemaVersion already is not written
// (so a read-only one can be read). Fails, with `*failure` set (if given),
// on a newer schema (one line naming both versions and both benchprofs)
// and on a database error. Two processes migrating one database at once are
// serialised: the second finds it migrated.
StatusOr<SchemaState> MigrateSchema(Database& db, const std::string& benchprof_version,
                                    SchemaFailure* failure = nullptr);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_HISTORY_SCHEMA_H_
