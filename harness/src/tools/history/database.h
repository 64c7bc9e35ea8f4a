// One connection to the history's database, SQLite or PostgreSQL, behind one
// interface, so that the store above it (history_store.h) is one code path.
//
// Statements are written once for both: parameters are $1, $2, ... (both
// backends bind them by number; a value is never spliced into SQL text), and
// the few type names that differ come from Dialect. Every failure carries a
// kind (last_error_kind), as the tool's exit code depends on it.
//
//   StatusOr<std::unique_ptr<Database>> db = OpenDatabase("runs.sqlite", {});
//   DatabaseTransaction tx(**db);
//   (*db)->Execute("INSERT INTO benchmarks(name) VALUES ($1)", {SqlValue("BM_x")});
//   auto rows = (*db)->Query("SELECT id FROM benchmarks WHERE name = $1", {SqlValue("BM_x")});
//   tx.Commit();
//
// Thread-safety: a Database is used by one thread at a time.
#ifndef BENCHPROF_TOOLS_HISTORY_DATABASE_H_
#define BENCHPROF_TOOLS_HISTORY_DATABASE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/status.h"

namespace benchprof::history {

// Bytes stored as a BLOB (SQLite) or BYTEA (PostgreSQL).
struct SqlBlob {
  std::string bytes;
  friend bool operator==(const SqlBlob&, const SqlBlob&) = default;
};

// A parameter or a column's value. NULL is std::monostate.
using SqlValue = std::variant<std::monostate, int64_t, double, std::string, SqlBlob>;

// The rows of a query, each as many values as the query has columns. An
// integer column reads as int64_t, a real one as double, text as
// std::string, a blob as SqlBlob, whichever the backend.
using SqlRows = std::vector<std::vector<SqlValue>>;

// What went wrong, for the exit code and the message.
enum class DatabaseErrorKind {
  kUnreachable,   // no server at the address, or it refused the connection
  kAuthentication,  // wrong user, password or database name
  kNotADatabase,  // the file is not a database, or is corrupt
  kReadOnly,      // the file or its directory cannot be written
  kBusy,          // locked by another writer beyond the busy timeout
  kDiskFull,
  kOther,
};

// The type names and clauses that differ between the backends.
struct Dialect {
  std::string_view name;        // "sqlite", "postgresql"
  std::string_view id_column;   // an auto-numbered 64-bit primary key column type
  std::string_view blob_type;   // "BLOB", "BYTEA"
  std::string_view double_type; // "REAL", "DOUBLE PRECISION"
};

class Database {
 public:
  virtual ~Database() = default;

  // What the database is, for messages: the file's path, or the URL without
  // its password.
  virtual const std::string& display_name() const = 0;
  virtual const Dialect& dialect() const = 0;

  // Runs one statement (or, with no parameters, several separated by ';').
  virtual Status Execute(std::string_view sql, const std::vector<SqlValue>& params = {}) = 0;

  // Runs one query and returns all its rows.
  virtual StatusOr<SqlRows> Query(std::string_view sql,
                                  const std::vector<SqlValue>& params = {}) = 0;

  // Transactions: Begin takes the write lock at once (SQLite: BEGIN
  // IMMEDIATE), so two writers wait for each other instead of failing late.
  virtual Status Begin() = 0;
  // A Commit that fails rolls the transaction back.
  virtual Status Commit() = 0;
  virtual Status Rollback() = 0;

  // The kind of the last failure (kOther when the last call succeeded).
  virtual DatabaseErrorKind last_error_kind() const = 0;
};

struct OpenOptions {
  // How long a writer waits for another's lock before failing with kBusy.
  int busy_timeout_ms = 30000;
  // Create the SQLite file (and not its directory) if missing.
  bool create = true;
};

// Opens `location`: a URL starting "postgresql://" or "postgres://" (libpq's
// connection URI) is a PostgreSQL server; anything else is a SQLite file's
// path (opened in WAL mode with the busy timeout). Fails with one line
// naming the database and the problem.
StatusOr<std::unique_ptr<Database>> OpenDatabase(const std::string& location,
                                                 const OpenOptions& options);

// Rolls back on destruction unless committed: a run killed or failing
// mid-record leaves nothing half-stored.
class DatabaseTransaction {
 public:
  explicit DatabaseTransaction(Database& db) : db_(db) { begun_ = db_.Begin(); }
  ~DatabaseTransaction() {
    if (begun_.ok() && !done_) (void)db_.Rollback();
  }
  DatabaseTransaction(const DatabaseTransaction&) = delete;
  DatabaseTransaction& operator=(const DatabaseTransaction&) = delete;

  const Status& begun() const { return begun_; }
  Status Commit() {
    done_ = true;
    return db_.Commit();
  }

 private:
  Database& db_;
  Status begun_;
  bool done_ = false;
};

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_DATABASE_H_
