// The history's database on a PostgreSQL server (Debian's libpq), behind the
// Database interface of database.h, for a team that shares one store. Use
// OpenDatabase; this header is for OpenDatabase and the tests.
//
// Parameters travel in binary (int64 and double bit for bit, text and bytea
// as their bytes); results come back as text, which PostgreSQL 12 and later
// write shortest-exact for doubles (extra_float_digits is set for older
// servers), so values round-trip exactly. Begin also takes one advisory lock
// that every benchprof writer takes, so writers take turns as on SQLite.
//
//   StatusOr<std::unique_ptr<Database>> db =
//       OpenPostgresDatabase("postgresql://ci@perfdb/bench", {});
//
// Thread-safety: thread-compatible (one thread at a time per connection).
#ifndef BENCHPROF_TOOLS_HISTORY_POSTGRES_DATABASE_H_
#define BENCHPROF_TOOLS_HISTORY_POSTGRES_DATABASE_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "tools/history/database.h"

namespace benchprof::history {

// Connects to the server of libpq connection URI `url` (postgresql://...),
// with OpenOptions::busy_timeout_ms as the lock timeout and a 10 s connect
// timeout unless the URL gives one. Fails with one line naming the URL
// (without its password): kUnreachable when no server answers,
// kAuthentication for a wrong password, an unknown role or database, kOther
// for a URL libpq cannot parse. On failure, sets *error_kind if given.
StatusOr<std::unique_ptr<Database>> OpenPostgresDatabase(const std::string& url,
                                                         const OpenOptions& options,
                                                         DatabaseErrorKind* error_kind = nullptr);

// `url` without its password (user:PASSWORD@ or a password= parameter), for
// messages: "postgresql://ci:s3cret@db/bench" -> "postgresql://ci@db/bench".
std::string UrlWithoutPassword(std::string_view url);

// The kind of a server error by its SQLSTATE: 53100 kDiskFull, 25006
// kReadOnly, 55P03/40P01/40001 (lock timeout, deadlock, serialization)
// kBusy, 28000/28P01/3D000/42501 kAuthentication, class 08 and 57P0x
// kUnreachable, XX001/XX002 kNotADatabase, anything else kOther.
DatabaseErrorKind KindOfSqlState(std::string_view sqlstate);

// The kind of a failed connection by libpq's message (libpq 15 gives no
// SQLSTATE for it; its messages and the server's are English unless a
// locale says otherwise, when every failure counts as kUnreachable, which
// has the same exit code as kAuthentication): kAuthentication for a
// password refused or missing, a role or database that does not exist, no
// pg_hba.conf entry; kBusy for a server at its connection limit;
// kUnreachable otherwise.
DatabaseErrorKind KindOfConnectionFailure(std::string_view message);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_POSTGRES_DATABASE_H_
