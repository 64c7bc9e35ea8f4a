// The history's database in a SQLite file (Debian's libsqlite3), behind the
// Database interface of database.h. Use OpenDatabase; this header is for
// OpenDatabase and the tests.
//
// The file is opened in WAL mode with a busy timeout, so readers never wait
// and two recorders on one file take turns (Begin is BEGIN IMMEDIATE).
// Statements with parameters are prepared once per connection and kept, as
// recording a run inserts the same few statements thousands of times.
//
//   StatusOr<std::unique_ptr<Database>> db = OpenSqliteDatabase("runs.sqlite", {});
//
// Thread-safety: thread-compatible (one thread at a time per connection;
// connections to one file may be used from any threads or processes).
#ifndef BENCHPROF_TOOLS_HISTORY_SQLITE_DATABASE_H_
#define BENCHPROF_TOOLS_HISTORY_SQLITE_DATABASE_H_

#include <memory>
#include <string>

#include "common/status.h"
#include "tools/history/database.h"

namespace benchprof::history {

// Opens (and with options.create, creates) the SQLite database at `path`.
// Fails with one line naming the path: kNotADatabase for a file that is no
// SQLite database, a directory, a FIFO or a device (which are never opened,
// so nothing hangs); kReadOnly when it must be created in a directory that
// cannot be written; kBusy when another connection keeps it locked beyond
// the busy timeout. A file that can only be read opens (queries work) and
// fails at the first write with kReadOnly. On failure, sets *error_kind if
// given.
StatusOr<std::unique_ptr<Database>> OpenSqliteDatabase(const std::string& path,
                                                       const OpenOptions& options,
                                                       DatabaseErrorKind* error_kind = nullptr);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_SQLITE_DATABASE_H_
