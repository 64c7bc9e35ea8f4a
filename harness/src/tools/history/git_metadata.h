// The commit a run measured, and the commits before it, as `benchprof
// history record` stores them: read from git in the run's checkout, given
// by flags (a CI job without .git), or taken from the result file's
// context (Google Benchmark's --benchmark_context=commit=...,branch=...).
//
// Precedence, field by field: a flag; else git; else the context. The
// branch, on a detached HEAD (as CI checks out), comes from CI's variables
// (GITHUB_HEAD_REF, GITHUB_REF_NAME, CI_COMMIT_REF_NAME), else the context;
// else it must be given. git runs as a child process (no shell), with the
// directory as its -C.
//
//   CommitFlags flags{.repo = "."};
//   StatusOr<RunCommit> c = ResolveRunCommit(flags, results.context, SystemEnvironment);
//   ... c->commit.hash, c->branch, c->ancestry ...
//
// Thread-safety: thread-compatible (runs processes, reads the environment
// through the given function).
#ifndef BENCHPROF_TOOLS_HISTORY_GIT_METADATA_H_
#define BENCHPROF_TOOLS_HISTORY_GIT_METADATA_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "tools/history/series.h"

namespace benchprof::history {

// How many first-parent ancestors of a run's commit are stored for ordering.
inline constexpr int kAncestryDepth = 1000;

// What the user gave; "" (or empty) for "not given".
struct CommitFlags {
  std::string commit = "";                // --commit: a hexadecimal object name
  std::vector<std::string> parents = {};  // --parent, repeatable, first parent first
  std::string branch = "";                // --branch
  std::string commit_time = "";  // --commit-time: seconds since the epoch, or RFC 3339
  std::string subject = "";      // --subject
  std::string repo = "";         // --repo: the git checkout; "" for the current directory
};

struct RunCommit {
  CommitInfo commit;
  std::string branch;
  std::vector<CommitInfo> ancestry;  // first-parent chain before `commit`, newest first
  std::string source;                // "git", "flags", "context", for messages
};

// Returns the value of an environment variable, or nullopt if it is unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;

// The process environment.
std::optional<std::string> SystemEnvironment(const std::string& name);

// Resolves the run's commit, branch and ancestry as described above.
// `context` is the result files' context. Fails with one line on: a bad
// --commit/--parent (not hexadecimal) or --commit-time; no --commit, no
// context "commit" and `repo` not a git repository ("not a git repository
// (DIR); give --commit=SHA and --branch=NAME"); no branch to be found
// ("detached HEAD ...; give --branch=NAME").
StatusOr<RunCommit> ResolveRunCommit(const CommitFlags& flags,
                                     const std::vector<std::pair<std::string, std::string>>& context,
                                     const EnvironmentLookup& env);

// Parses --commit-time: whole seconds since the epoch ("1700000000"), or
// RFC 3339 ("2024-05-01T12:00:00Z", "2024-05-01T14:00:00+02:00", fractions
// of a second allowed). Returns nanoseconds since the epoch.
StatusOr<int64_t> ParseCommitTime(const std::string& text);

// Runs `git -C dir args...` and returns its standard output; fails when git
// cannot run or exits non-zero ("git rev-parse: exit code 128").
StatusOr<std::string> RunGit(const std::string& dir, const std::vector<std::string>& args);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_GIT_METADATA_H_
