#include "tools/history/sqlite_database.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace benchprof::history {
namespace {

constexpr Dialect kSqliteDialect{"sqlite", "INTEGER PRIMARY KEY", "BLOB", "REAL"};

// More distinct statements than a store uses; past it the cache starts over
// rather than growing with statements built from data.
constexpr size_t kMaxCachedStatements = 256;

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n;") == std::string_view::npos;
}

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Why `path` (an existing file or one to be created) cannot be written,
// or "" if it can. SQLite's errno is no guide here: after a read-write open
// fails it tries read-only, and keeps that attempt's errno (ENOENT for a
// WAL file not there yet). access() sees a read-only mount for root too.
std::string WhyNotWritable(const std::string& path) {
  if (access(path.c_str(), W_OK) != 0 && errno != ENOENT) {
    return std::string("the file: ") + std::strerror(errno);
  }
  std::string directory = DirectoryOf(path);
  if (access(directory.c_str(), W_OK) != 0) {
    return "its directory " + directory + ": " + std::strerror(errno);
  }
  return "";
}

DatabaseErrorKind KindOf(int code, int system_errno) {
  switch (code & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return DatabaseErrorKind::kNotADatabase;
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return DatabaseErrorKind::kReadOnly;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return DatabaseErrorKind::kBusy;
    case SQLITE_FULL:
      return DatabaseErrorKind::kDiskFull;
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
      // SQLite reports a write cut short by ENOSPC as SQLITE_FULL, but one
      // refused outright (EFBIG past the file size limit, EDQUOT) as an I/O
      // error; the errno tells them apart.
      if (system_errno == ENOSPC || system_errno == EFBIG || system_errno == EDQUOT) {
        return DatabaseErrorKind::kDiskFull;
      }
      if (system_errno == EROFS || system_errno == EACCES || system_errno == EPERM) {
        return DatabaseErrorKind::kReadOnly;
      }
      return DatabaseErrorKind::kOther;
    default:
      return DatabaseErrorKind::kOther;
  }
}

std::string ProblemOf(DatabaseErrorKind kind) {
  switch (kind) {
    case DatabaseErrorKind::kNotADatabase:
      return "not a SQLite database, or corrupt";
    case DatabaseErrorKind::kReadOnly:
      return "cannot be written";
    case DatabaseErrorKind::kBusy:
      return "locked by another writer";
    case DatabaseErrorKind::kDiskFull:
      return "disk full or file size limit reached";
    default:
      return "";
  }
}

const char* FileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

class SqliteDatabase final : public Database {
 public:
  SqliteDatabase(std::string path, sqlite3* db, int busy_timeout_ms)
      : path_(std::move(path)), db_(db), busy_timeout_ms_(busy_timeout_ms) {}

  ~SqliteDatabase() override {
    ClearCache();
    sqlite3_close_v2(db_);
  }

  const std::string& display_name() const override { return path_; }
  const Dialect& dialect() const override { return kSqliteDialect; }
  DatabaseErrorKind last_error_kind() const override { return last_kind_; }

  Status Execute(std::string_view sql, const std::vector<SqlValue>& params) override {
    return Run(sql, params, nullptr);
  }

  StatusOr<SqlRows> Query(std::string_view sql, const std::vector<SqlValue>& params) override {
    SqlRows rows;
    if (Status s = Run(sql, params, &rows); !s.ok()) return s;
    return rows;
  }

  Status Begin() override { return Run("BEGIN IMMEDIATE", {}, nullptr); }

  Status Commit() override {
    Status s = Run("COMMIT", {}, nullptr);
    if (!s.ok() && !sqlite3_get_autocommit(db_)) {
      DatabaseErrorKind kind = last_kind_;
      (void)Run("ROLLBACK", {}, nullptr);
      last_kind_ = kind;
    }
    return s;
  }

  Status Rollback() override {
    // SQLite has already rolled back after some errors (a full disk, an
    // interrupted statement); there is nothing left to undo then.
    if (sqlite3_get_autocommit(db_)) {
      last_kind_ = DatabaseErrorKind::kOther;
      return Status();
    }
    return Run("ROLLBACK", {}, nullptr);
  }

  // Checks that the file is a database (a text file fails here, not at the
  // first real statement) and sets the connection up.
  Status Initialize() {
    if (sqlite3_db_readonly(db_, "main") == 1) {
      // A file that can only be read stays in its journal mode: switching to
      // WAL is a write. Reading it works; writing fails with kReadOnly.
      return Run("SELECT count(*) FROM sqlite_master", {}, nullptr);
    }
    if (Status s = Run("PRAGMA journal_mode=WAL", {}, nullptr); !s.ok()) return s;
    return Run("PRAGMA foreign_keys=ON", {}, nullptr);
  }

 private:
  Status Fail(int code) {
    int system_errno = sqlite3_system_errno(db_);
    last_kind_ = KindOf(code, system_errno);
    std::string message = path_ + ": ";
    std::string problem = ProblemOf(last_kind_);
    if (last_kind_ == DatabaseErrorKind::kBusy) {
      problem += " for more than " + std::to_string(busy_timeout_ms_) + " ms";
    }
    std::string reason = sqlite3_errmsg(db_);
    if ((code & 0xff) == SQLITE_CANTOPEN || (code & 0xff) == SQLITE_READONLY) {
      if (std::string why = WhyNotWritable(path_); !why.empty()) {
        last_kind_ = DatabaseErrorKind::kReadOnly;
        problem = ProblemOf(last_kind_);
        reason = why;
      }
    } else if ((code & 0xff) == SQLITE_IOERR || last_kind_ == DatabaseErrorKind::kDiskFull) {
      if (system_errno != 0) reason += std::string(": ") + std::strerror(system_errno);
    }
    message += problem.empty() ? reason : problem + " (" + reason + ")";
    for (char& c : message) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    return Status::Error(message);
  }

  Status Misuse(std::string problem) {
    last_kind_ = DatabaseErrorKind::kOther;
    return Status::Error(path_ + ": " + problem);
  }

  void ClearCache() {
    for (auto& [sql, statement] : cache_) sqlite3_finalize(statement);
    cache_.clear();
  }

  Status Bind(sqlite3_stmt* statement, const std::vector<SqlValue>& params) {
    int count = sqlite3_bind_parameter_count(statement);
    for (int index = 1; index <= count; ++index) {
      const char* name = sqlite3_bind_parameter_name(statement, index);
      std::string_view text = name ? name : "?";
      size_t number = 0;
      bool numbered = text.size() > 1 && text[0] == '$';
      for (size_t i = 1; numbered && i < text.size(); ++i) {
        numbered = text[i] >= '0' && text[i] <= '9';
        number = number * 10 + (text[i] - '0');
        if (number > params.size()) numbered = false;
      }
      if (!numbered || number == 0) {
        return Misuse("the statement uses parameter " + std::string(text) + " but " +
                      std::to_string(params.size()) + " were given");
      }
    }
    for (size_t i = 0; i < params.size(); ++i) {
      std::string name = "$" + std::to_string(i + 1);
      int index = sqlite3_bind_parameter_index(statement, name.c_str());
      if (index == 0) return Misuse("parameter " + name + " is not used by the statement");
      const SqlValue& value = params[i];
      int rc = SQLITE_OK;
      if (const auto* integer = std::get_if<int64_t>(&value)) {
        rc = sqlite3_bind_int64(statement, index, *integer);
      } else if (const auto* real = std::get_if<double>(&value)) {
        rc = std::isnan(*real) ? sqlite3_bind_null(statement, index)
                               : sqlite3_bind_double(statement, index, *real);
      } else if (const auto* text = std::get_if<std::string>(&value)) {
        if (text->find('\0') != std::string::npos) {
          return Misuse("text parameter " + name + " contains a NUL byte (store it as a blob)");
        }
        rc = sqlite3_bind_text64(statement, index, text->data(), text->size(), SQLITE_STATIC,
                                 SQLITE_UTF8);
      } else if (const auto* blob = std::get_if<SqlBlob>(&value)) {
        rc = sqlite3_bind_blob64(statement, index, blob->bytes.data(), blob->bytes.size(),
                                 SQLITE_STATIC);
      } else {
        rc = sqlite3_bind_null(statement, index);
      }
      if (rc != SQLITE_OK) return Fail(rc);
    }
    return Status();
  }

  static SqlValue ColumnValue(sqlite3_stmt* statement, int column) {
    switch (sqlite3_column_type(statement, column)) {
      case SQLITE_INTEGER:
        return static_cast<int64_t>(sqlite3_column_int64(statement, column));
      case SQLITE_FLOAT:
        return sqlite3_column_double(statement, column);
      case SQLITE_TEXT: {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
        return std::string(text, sqlite3_column_bytes(statement, column));
      }
      case SQLITE_BLOB: {
        const auto* bytes = static_cast<const char*>(sqlite3_column_blob(statement, column));
        int size = sqlite3_column_bytes(statement, column);
        return SqlBlob{size == 0 ? std::string() : std::string(bytes, size)};
      }
      default:
        return std::monostate();
    }
  }

  // Steps `statement` to its end, appending its rows to `rows` if given.
  Status Step(sqlite3_stmt* statement, SqlRows* rows) {
    while (true) {
      int rc = sqlite3_step(statement);
      if (rc == SQLITE_DONE) return Status();
      if (rc != SQLITE_ROW) {
        Status failure = Fail(rc);
        sqlite3_reset(statement);
        return failure;
      }
      if (rows == nullptr) continue;
      int columns = sqlite3_column_count(statement);
      std::vector<SqlValue>& row = rows->emplace_back();
      row.reserve(columns);
      for (int column = 0; column < columns; ++column) {
        row.push_back(ColumnValue(statement, column));
      }
    }
  }

  Status Run(std::string_view sql, const std::vector<SqlValue>& params, SqlRows* rows) {
    last_kind_ = DatabaseErrorKind::kOther;
    std::string key(sql);
    if (auto found = cache_.find(key); found != cache_.end()) {
      return RunPrepared(found->second, params, rows);
    }
    sqlite3_stmt* statement = nullptr;
    const char* tail = nullptr;
    int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                SQLITE_PREPARE_PERSISTENT, &statement, &tail);
    if (rc != SQLITE_OK) return Fail(rc);
    std::string_view rest = sql.substr(tail - sql.data());
    if (IsBlank(rest)) {
      if (statement == nullptr) return Status();  // only blanks or comments
      if (cache_.size() >= kMaxCachedStatements) ClearCache();
      cache_.emplace(std::move(key), statement);
      return RunPrepared(statement, params, rows);
    }
    // Several statements: a schema or a migration, run once; not cached.
    if (!params.empty()) {
      sqlite3_finalize(statement);
      return Misuse("parameters given to several statements");
    }
    while (true) {
      if (statement != nullptr) {
        Status s = Step(statement, rows);
        sqlite3_finalize(statement);
        if (!s.ok()) return s;
      }
      if (IsBlank(rest)) return Status();
      statement = nullptr;
      rc = sqlite3_prepare_v2(db_, rest.data(), static_cast<int>(rest.size()), &statement, &tail);
      if (rc != SQLITE_OK) return Fail(rc);
      rest = rest.substr(tail - rest.data());
    }
  }

  Status RunPrepared(sqlite3_stmt* statement, const std::vector<SqlValue>& params, SqlRows* rows) {
    Status s = Bind(statement, params);
    if (s.ok()) s = Step(statement, rows);
    sqlite3_reset(statement);
    // The bindings point into `params` (SQLITE_STATIC), which the caller
    // owns; none may outlive this call.
    sqlite3_clear_bindings(statement);
    return s;
  }

  std::string path_;
  sqlite3* db_;
  int busy_timeout_ms_;
  std::unordered_map<std::string, sqlite3_stmt*> cache_;
  DatabaseErrorKind last_kind_ = DatabaseErrorKind::kOther;
};

Status OpenError(const std::string& path, DatabaseErrorKind kind, const std::string& problem,
                 DatabaseErrorKind* error_kind) {
  if (error_kind != nullptr) *error_kind = kind;
  return Status::Error(path + ": " + problem);
}

}  // namespace

StatusOr<std::unique_ptr<Database>> OpenSqliteDatabase(const std::string& path,
                                                       const OpenOptions& options,
                                                       DatabaseErrorKind* error_kind) {
  // Opening a FIFO would block until a writer appears, a device would be
  // read as a database: only regular files (or a new one) are opened.
  struct stat info;
  if (stat(path.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode)) {
      return OpenError(path, DatabaseErrorKind::kNotADatabase,
                       std::string("not a SQLite database (") + FileTypeName(info.st_mode) + ")",
                       error_kind);
    }
  } else if (errno == ENOENT) {
    if (!options.create) {
      return OpenError(path, DatabaseErrorKind::kOther, "no such database file", error_kind);
    }
    std::string directory = DirectoryOf(path);
    struct stat directory_info;
    if (stat(directory.c_str(), &directory_info) != 0 || !S_ISDIR(directory_info.st_mode)) {
      return OpenError(path, DatabaseErrorKind::kOther,
                       "cannot create it: no directory " + directory, error_kind);
    }
    if (access(directory.c_str(), W_OK) != 0) {
      return OpenError(
          path, DatabaseErrorKind::kReadOnly,
          "cannot be created (its directory " + directory + ": " + std::strerror(errno) + ")",
          error_kind);
    }
  } else {
    return OpenError(path,
                     errno == EACCES ? DatabaseErrorKind::kReadOnly : DatabaseErrorKind::kOther,
                     std::string("cannot open: ") + std::strerror(errno), error_kind);
  }

  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  if (options.create) flags |= SQLITE_OPEN_CREATE;
  sqlite3* handle = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &handle, flags, nullptr);
  if (handle != nullptr) sqlite3_extended_result_codes(handle, 1);
  if (rc != SQLITE_OK) {
    int system_errno = handle ? sqlite3_system_errno(handle) : 0;
    DatabaseErrorKind kind = KindOf(rc, system_errno);
    std::string reason = handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc);
    if (system_errno != 0) reason += std::string(": ") + std::strerror(system_errno);
    sqlite3_close_v2(handle);
    if ((rc & 0xff) == SQLITE_CANTOPEN) {
      if (std::string why = WhyNotWritable(path); !why.empty()) {
        kind = DatabaseErrorKind::kReadOnly;
        reason = why;
      }
    }
    std::string problem =
        kind == DatabaseErrorKind::kReadOnly ? "cannot be written (" + reason + ")" : reason;
    return OpenError(path, kind, problem, error_kind);
  }
  sqlite3_busy_timeout(handle, options.busy_timeout_ms);
  auto database = std::make_unique<SqliteDatabase>(path, handle, options.busy_timeout_ms);
  if (Status s = database->Initialize(); !s.ok()) {
    if (error_kind != nullptr) *error_kind = database->last_error_kind();
    return s;
  }
  return std::unique_ptr<Database>(std::move(database));
}

}  // namespace benchprof::history
