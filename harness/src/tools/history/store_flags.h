// What every `benchprof history` subcommand shares about the store: the
// --db flag and where the database is by default, the series filter flags
// (--metric, --branch, --testbed), and opening the store with its failures
// turned into one line and an exit code.
//
// Where the database is: --db=LOCATION (a SQLite file's path, or a
// postgresql:// URL), else $BENCHPROF_HISTORY_DB, else
// ${XDG_DATA_HOME:-$HOME/.local/share}/benchprof/history.sqlite (its
// directory created when a run is recorded).
//
//   struct Settings { StoreFlags store; SeriesFilterFlags filter; };
//   void DeclareFlags(FlagSet& flags, Settings* s) {
//     DeclareStoreFlags(flags, &s->store);
//     DeclareSeriesFilterFlags(flags, &s->filter);
//   }
//   std::unique_ptr<HistoryStore> store;
//   if (int code = OpenStoreForCommand(kProgram, s.store, StoreUse::kRead, &store, err)) return
//   code;
//
// Thread-safety: thread-compatible (reads the environment).
#ifndef BENCHPROF_TOOLS_HISTORY_STORE_FLAGS_H_
#define BENCHPROF_TOOLS_HISTORY_STORE_FLAGS_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchprof/flags.h"
#include "common/status.h"
#include "tools/history/history_store.h"

namespace benchprof::history {

// The environment variable naming the database when --db is not given.
inline constexpr char kHistoryDbEnv[] = "BENCHPROF_HISTORY_DB";

// One line for a subcommand's exit-code list.
inline constexpr std::string_view kStoreUnavailableMeaning =
    "the database is unavailable: unreachable, wrong credentials, locked, read-only or full";

struct StoreFlags {
  std::string db;  // --db; "" when not given
};

// Declares --db, bound to `*flags`.
void DeclareStoreFlags(FlagSet& flags, StoreFlags* settings);

struct SeriesFilterFlags {
  std::string metric, branch, testbed;  // "" when not given: any
};

// Declares --metric, --branch and --testbed, bound to `*settings`.
void DeclareSeriesFilterFlags(FlagSet& flags, SeriesFilterFlags* settings);

// What a reading subcommand's operands and filter flags select.
struct SeriesSelection {
  std::string pattern;  // the PATTERN operand; "" for every benchmark
  SeriesFilter filter;
};

// The selection of `cl`'s operands (at most one PATTERN, before or after
// "--") and the filter flags. Fails, naming `program`'s --help, on more
// than one operand, and on a bad pattern ("PATTERN: <why>").
StatusOr<SeriesSelection> SelectSeries(std::string_view program, const CommandLine& cl,
                                       const SeriesFilterFlags& flags);

// The series a reading subcommand shows, and the commits of their points
// (by hash, for display).
struct SelectedSeries {
  std::vector<Series> series;
  std::map<std::string, CommitInfo> commits;
};

// Opens the store the flags name for reading (OpenStoreForCommand) and loads
// the series `selection` selects with their commits. Returns 0 with `*store`
// and `*selected` set, or the exit code with one line "`program`: <why>"
// appended to `err`: the store could not be opened or failed (3 or 4), or,
// when `required`, no series matches (3).
int LoadSelectedSeries(std::string_view program, const StoreFlags& flags,
                       const SeriesSelection& selection, bool required,
                       std::unique_ptr<HistoryStore>* store, SelectedSeries* selected,
                       std::string& err);

// The default location when --db is not given: $BENCHPROF_HISTORY_DB, else
// ${XDG_DATA_HOME:-$HOME/.local/share}/benchprof/history.sqlite. Fails when
// neither that variable nor HOME nor XDG_DATA_HOME is set.
StatusOr<std::string> DefaultDatabaseLocation();

// True if `location` names a PostgreSQL server rather than a SQLite file.
bool IsDatabaseUrl(std::string_view location);

// How a subcommand uses the store: a recorder creates the database (and
// the default location's directory); a reader fails on a SQLite file that
// does not exist instead of leaving an empty one behind.
enum class StoreUse { kRead, kWrite };

// Opens the store the flags name. Returns 0 with `*store` set, or the exit
// code (3: bad input, e.g. a file that is not a database or is of a newer
// schema, or no database where a reader looks; 4: the database is
// unavailable) with one line "`program`: <why>" appended to `err`.
int OpenStoreForCommand(std::string_view program, const StoreFlags& flags, StoreUse use,
                        std::unique_ptr<HistoryStore>* store, std::string& err);

// "`program`: <message>" as one line appended to `err`; returns the
// store's exit code for its last failure (3 or 4).
int StoreFailure(std::string_view program, HistoryStore& store, const Status& status,
                 std::string& err);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_STORE_FLAGS_H_
