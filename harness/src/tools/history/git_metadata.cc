#include "tools/history/git_metadata.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "common/child_process.h"

extern char** environ;

namespace benchprof::history {
namespace {

bool IsHexName(const std::string& s) {
  return s.size() >= 4 && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
         });
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string TrimEnd(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::optional<std::string> ContextValue(
    const std::vector<std::pair<std::string, std::string>>& context, std::string_view key) {
  for (const auto& [k, v] : context) {
    if (k == key && !v.empty()) return v;
  }
  return std::nullopt;
}

// The commits of `git log` from `start`, along first parents, at most
// `count`, as CommitInfo (hash, parents, time, subject).
StatusOr<std::vector<CommitInfo>> GitLog(const std::string& dir, const std::string& start,
                                         int count) {
  // NUL separates the fields and RS (0x1e) ends a record: a subject can
  // hold neither NUL nor, in practice, RS, and any other byte is kept.
  StatusOr<std::string> out =
      RunGit(dir, {"log", "--first-parent", "-n", std::to_string(count),
                   "--format=%H%x00%P%x00%ct%x00%s%x1e", start, "--"});
  if (!out.ok()) return out.status();
  std::vector<CommitInfo> commits;
  size_t pos = 0;
  while (true) {
    size_t end = out->find('\x1e', pos);
    if (end == std::string::npos) break;
    std::string record = out->substr(pos, end - pos);
    pos = end + 1;
    if (!record.empty() && record.front() == '\n') record.erase(0, 1);
    std::vector<std::string> fields;
    size_t f = 0;
    for (int i = 0; i < 3; ++i) {
      const size_t nul = record.find('\0', f);
      if (nul == std::string::npos) break;
      fields.push_back(record.substr(f, nul - f));
      f = nul + 1;
    }
    if (fields.size() != 3) return Status::Error("git log: unexpected output");
    fields.push_back(record.substr(f));
    CommitInfo c;
    c.hash = fields[0];
    for (size_t p = 0; p < fields[1].size();) {
      size_t space = fields[1].find(' ', p);
      if (space == std::string::npos) space = fields[1].size();
      if (space > p) c.parents.push_back(fields[1].substr(p, space - p));
      p = space + 1;
    }
    c.committer_time_ns = std::strtoll(fields[2].c_str(), nullptr, 10) * 1'000'000'000LL;
    c.subject = fields[3];
    commits.push_back(std::move(c));
  }
  return commits;
}

}  // namespace

std::optional<std::string> SystemEnvironment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

StatusOr<std::string> RunGit(const std::string& dir, const std::vector<std::string>& args) {
  const std::string what = "git " + (args.empty() ? std::string() : args.front());
  std::vector<std::string> argv = {"git", "-C", dir.empty() ? "." : dir};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return Status::Error(what + ": cannot make a pipe: " + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "git", &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    return Status::Error(what + ": cannot run git: " + std::strerror(spawned));
  }
  std::string out;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n > 0) {
      out.append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::Error(what + ": " + DescribeWaitStatus(status));
  }
  return out;
}

StatusOr<int64_t> ParseCommitTime(const std::string& text) {
  const auto bad = [&] {
    return Status::Error("--commit-time=" + text +
                         ": expected seconds since the epoch or an RFC 3339 time "
                         "(2024-05-01T12:00:00Z)");
  };
  if (!text.empty() && std::all_of(text.begin(), text.end(), ::isdigit)) {
    if (text.size() > 11) return bad();
    return std::strtoll(text.c_str(), nullptr, 10) * 1'000'000'000LL;
  }
  int year, month, day, hour, minute, second, consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%*1[Tt ]%2d:%2d:%2d%n", &year, &month, &day, &hour,
                  &minute, &second, &consumed) != 6 ||
      consumed != 19) {
    return bad();
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return bad();
  }
  std::string_view rest = std::string_view(text).substr(19);
  int64_t fraction_ns = 0;
  if (!rest.empty() && rest.front() == '.') {
    rest.remove_prefix(1);
    int64_t scale = 100'000'000;
    size_t digits = 0;
    while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front()))) {
      fraction_ns += (rest.front() - '0') * scale;
      scale /= 10;
      rest.remove_prefix(1);
      ++digits;
    }
    if (digits == 0) return bad();
  }
  int64_t offset_s = 0;
  if (rest == "Z" || rest == "z") {
    offset_s = 0;
  } else if (rest.size() == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':' &&
             std::isdigit(static_cast<unsigned char>(rest[1])) &&
             std::isdigit(static_cast<unsigned char>(rest[2])) &&
             std::isdigit(static_cast<unsigned char>(rest[4])) &&
             std::isdigit(static_cast<unsigned char>(rest[5]))) {
    offset_s = ((rest[1] - '0') * 10 + (rest[2] - '0')) * 3600 +
               ((rest[4] - '0') * 10 + (rest[5] - '0')) * 60;
    if (rest[0] == '-') offset_s = -offset_s;
  } else {
    return bad();
  }
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const int64_t seconds = static_cast<int64_t>(::timegm(&tm)) - offset_s;
  return seconds * 1'000'000'000LL + fraction_ns;
}

StatusOr<RunCommit> ResolveRunCommit(const CommitFlags& flags,
                                     const std::vector<std::pair<std::string, std::string>>& context,
                                     const EnvironmentLookup& env) {
  if (!flags.commit.empty() && !IsHexName(flags.commit)) {
    return Status::Error("--commit=" + flags.commit + ": expected a hexadecimal commit name");
  }
  for (const std::string& p : flags.parents) {
    if (!IsHexName(p)) return Status::Error("--parent=" + p + ": expected a hexadecimal commit name");
  }
  std::optional<int64_t> commit_time;
  if (!flags.commit_time.empty()) {
    StatusOr<int64_t> t = ParseCommitTime(flags.commit_time);
    if (!t.ok()) return t.status();
    commit_time = *t;
  }
  const std::string dir = flags.repo.empty() ? "." : flags.repo;

  RunCommit run;
  // Is there a git checkout that knows the commit? (git absent, or not a
  // repository: no, and the flags or the context must say.)
  StatusOr<std::string> top = RunGit(dir, {"rev-parse", "--git-dir"});
  const bool in_git = top.ok();
  std::string wanted = Lower(flags.commit);
  if (wanted.empty() && !in_git) {
    if (std::optional<std::string> c = ContextValue(context, "commit")) {
      if (!IsHexName(*c)) {
        return Status::Error("context commit=" + *c + ": expected a hexadecimal commit name");
      }
      wanted = Lower(*c);
      run.source = "context";
    } else {
      return Status::Error("not a git repository (" + dir +
                           "); give --commit=SHA and --branch=NAME, or run in the checkout "
                           "(--repo=DIR)");
    }
  }
  bool from_git = false;
  if (in_git) {
    StatusOr<std::string> full =
        RunGit(dir, {"rev-parse", "--verify", "--quiet", (wanted.empty() ? "HEAD" : wanted) +
                                                             "^{commit}"});
    if (full.ok()) {
      StatusOr<std::vector<CommitInfo>> log =
          GitLog(dir, TrimEnd(*full), kAncestryDepth + 1);
      if (!log.ok()) return log.status();
      if (!log->empty()) {
        run.commit = log->front();
        run.ancestry.assign(log->begin() + 1, log->end());
        from_git = true;
        run.source = "git";
      }
    } else if (wanted.empty()) {
      return Status::Error(dir + ": git has no HEAD commit (an empty repository?); give "
                                 "--commit=SHA");
    }
  }
  if (!from_git) {
    run.commit.hash = wanted;
    if (run.source.empty()) run.source = "flags";
  }
  if (!flags.parents.empty()) {
    run.commit.parents.clear();
    for (const std::string& p : flags.parents) run.commit.parents.push_back(Lower(p));
  }
  if (commit_time) run.commit.committer_time_ns = *commit_time;
  if (!flags.subject.empty()) run.commit.subject = flags.subject;

  // The branch.
  if (!flags.branch.empty()) {
    run.branch = flags.branch;
  } else if (in_git) {
    StatusOr<std::string> ref = RunGit(dir, {"symbolic-ref", "--quiet", "--short", "HEAD"});
    if (ref.ok()) run.branch = TrimEnd(*ref);
  }
  if (run.branch.empty()) {
    for (const char* name : {"GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"}) {
      std::optional<std::string> v = env(name);
      if (v && !v->empty()) {
        run.branch = *v;
        break;
      }
    }
  }
  if (run.branch.empty()) {
    if (std::optional<std::string> b = ContextValue(context, "branch")) run.branch = *b;
  }
  if (run.branch.empty()) {
    return Status::Error(in_git ? "detached HEAD in " + dir + " and no CI branch variable; give "
                                                              "--branch=NAME"
                                : "no branch known; give --branch=NAME");
  }
  return run;
}

}  // namespace benchprof::history
