#include "tools/history/store_flags.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::history {
namespace {

// mkdir -p for the default location's directory.
Status MakeDirectories(const std::string& dir) {
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string prefix = dir.substr(0, slash);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      return Status::Error(prefix + ": cannot create the directory: " + std::strerror(errno));
    }
    if (slash == std::string::npos) return Status();
  }
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

void DeclareStoreFlags(FlagSet& flags, StoreFlags* settings) {
  flags.String("db", "LOCATION", &settings->db,
               "the history database: a SQLite file's path, or postgresql://USER@HOST/DB "
               "(default: $BENCHPROF_HISTORY_DB, else "
               "${XDG_DATA_HOME:-~/.local/share}/benchprof/history.sqlite)");
}

void DeclareSeriesFilterFlags(FlagSet& flags, SeriesFilterFlags* settings) {
  flags.String("metric", "NAME", &settings->metric,
               "only this metric (cpu_time, real_time, allocs/op, B/op, instructions/op, ...)");
  flags.String("branch", "NAME", &settings->branch, "only runs of this branch");
  flags.String("testbed", "NAME", &settings->testbed, "only runs on this testbed");
}

StatusOr<SeriesSelection> SelectSeries(std::string_view program, const CommandLine& cl,
                                       const SeriesFilterFlags& flags) {
  std::vector<std::string> operands = cl.operands;
  operands.insert(operands.end(), cl.after_separator.begin(), cl.after_separator.end());
  if (operands.size() > 1) {
    return Status::Error("expected at most one PATTERN (got " + std::to_string(operands.size()) +
                         "; see " + std::string(program) + " --help)");
  }
  SeriesSelection selection;
  if (!operands.empty()) selection.pattern = operands.front();
  if (!selection.pattern.empty()) {
    StatusOr<compare::NamePattern> compiled = compare::NamePattern::Compile(selection.pattern);
    if (!compiled.ok()) return compiled.status().WithContext(selection.pattern);
    selection.filter.benchmark = std::move(*compiled);
  }
  selection.filter.metric = flags.metric;
  selection.filter.branch = flags.branch;
  selection.filter.testbed = flags.testbed;
  return selection;
}

int LoadSelectedSeries(std::string_view program, const StoreFlags& flags,
                       const SeriesSelection& selection, bool required,
                       std::unique_ptr<HistoryStore>* store, SelectedSeries* selected,
                       std::string& err) {
  if (int code = OpenStoreForCommand(program, flags, StoreUse::kRead, store, err)) return code;
  StatusOr<std::vector<Series>> loaded = (*store)->LoadSeries(selection.filter);
  if (!loaded.ok()) return StoreFailure(program, **store, loaded.status(), err);
  if (loaded->empty() && required) {
    return tools::Fail(
        err, program,
        "no stored series matches" +
            (selection.pattern.empty() ? std::string() : " " + tools::OneLine(selection.pattern)) +
            " (the flags included)");
  }
  std::vector<std::string> hashes;
  for (const Series& s : *loaded) {
    for (const SeriesPoint& p : s.points) hashes.push_back(p.commit);
  }
  StatusOr<std::map<std::string, CommitInfo>> commits = (*store)->Commits(hashes);
  if (!commits.ok()) return StoreFailure(program, **store, commits.status(), err);
  selected->series = std::move(*loaded);
  selected->commits = std::move(*commits);
  return 0;
}

StatusOr<std::string> DefaultDatabaseLocation() {
  if (std::string env = Env(kHistoryDbEnv); !env.empty()) return env;
  std::string data = Env("XDG_DATA_HOME");
  if (data.empty()) {
    const std::string home = Env("HOME");
    if (home.empty()) {
      return Status::Error("no history database given: set --db, BENCHPROF_HISTORY_DB or HOME");
    }
    data = home + "/.local/share";
  }
  return data + "/benchprof/history.sqlite";
}

bool IsDatabaseUrl(std::string_view location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

int OpenStoreForCommand(std::string_view program, const StoreFlags& flags, StoreUse use,
                        std::unique_ptr<HistoryStore>* store, std::string& err) {
  std::string location = flags.db;
  if (location.empty()) {
    StatusOr<std::string> fallback = DefaultDatabaseLocation();
    if (!fallback.ok()) return tools::Fail(err, program, fallback.status().message());
    location = *fallback;
    // Only the default's directory is ours to create; a --db path's
    // directory missing is the user's mistake, said as such below.
    if (use == StoreUse::kWrite && Env(kHistoryDbEnv).empty() && !IsDatabaseUrl(location)) {
      if (Status s = MakeDirectories(location.substr(0, location.rfind('/'))); !s.ok()) {
        tools::Fail(err, program, s.message());
        return kExitDatabaseUnavailable;
      }
    }
  }
  OpenOptions options;
  if (!IsDatabaseUrl(location)) {
    struct stat st;
    if (::stat(location.c_str(), &st) != 0) {
      if (use == StoreUse::kRead) {
        return tools::Fail(err, program,
                           location +
                               ": no history database here (benchprof history record "
                               "creates one)");
      }
    } else if (!S_ISREG(st.st_mode)) {
      return tools::Fail(err, program, location + ": not a regular file, so not a database");
    }
    options.create = use == StoreUse::kWrite;
  }
  int code = 0;
  StatusOr<std::unique_ptr<HistoryStore>> opened = HistoryStore::Open(location, options, &code);
  if (!opened.ok()) {
    tools::Fail(err, program, opened.status().message());
    return code == 0 ? tools::kExitBadInput : code;
  }
  *store = std::move(*opened);
  return 0;
}

int StoreFailure(std::string_view program, HistoryStore& store, const Status& status,
                 std::string& err) {
  tools::Fail(err, program, status.message());
  const int code = store.last_failure_exit_code();
  return code == 0 ? tools::kExitBadInput : code;
}

}  // namespace benchprof::history
