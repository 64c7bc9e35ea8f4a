#include "tools/history/database.h"

#include <string_view>

#include "tools/history/postgres_database.h"
#include "tools/history/sqlite_database.h"

namespace benchprof::history {

StatusOr<std::unique_ptr<Database>> OpenDatabase(const std::string& location,
                                                 const OpenOptions& options,
                                                 DatabaseErrorKind* error_kind) {
  std::string_view text = location;
  if (text.empty()) {
    // SQLite would open a temporary database for "", and forget it.
    if (error_kind != nullptr) *error_kind = DatabaseErrorKind::kOther;
    return Status::Error("no database given: the path or URL is empty");
  }
  if (text.starts_with("postgresql://") || text.starts_with("postgres://")) {
    return OpenPostgresDatabase(location, options, error_kind);
  }
  return OpenSqliteDatabase(location, options, error_kind);
}

int ExitCodeFor(DatabaseErrorKind kind) {
  switch (kind) {
    case DatabaseErrorKind::kUnreachable:
    case DatabaseErrorKind::kAuthentication:
    case DatabaseErrorKind::kBusy:
    case DatabaseErrorKind::kReadOnly:
    case DatabaseErrorKind::kDiskFull:
      return kExitDatabaseUnavailable;
    case DatabaseErrorKind::kNotADatabase:
    case DatabaseErrorKind::kOther:
      return 3;
  }
  return 3;
}

}  // namespace benchprof::history
