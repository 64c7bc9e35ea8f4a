// The run's commit from a throwaway git repository, from flags and from the
// result file's context (git_metadata.h).
#include "tools/history/git_metadata.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "support/subprocess.h"

namespace benchprof::history {
namespace {

using benchprof::testing::RunProcess;
using benchprof::testing::TempDir;

class GitRepo {
 public:
  GitRepo() {
    ok_ = Git({"init", "-q", "-b", "main"}).empty();
  }
  // Runs git in the repository with a fixed identity and dates; "" or the error.
  std::string Git(const std::vector<std::string>& args, const std::string& date = "") {
    std::vector<std::string> argv = {"/usr/bin/env", "git", "-C", dir_.path()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> env = {"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
                                    "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
                                    "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"};
    if (!date.empty()) {
      env.push_back("GIT_COMMITTER_DATE=" + date);
      env.push_back("GIT_AUTHOR_DATE=" + date);
    }
    benchprof::testing::ProcessResult r = RunProcess(argv, env);
    last_out_ = r.stdout_text;
    return r.exit_code == 0 ? "" : "git " + args.front() + ": " + r.stderr_text;
  }
  std::string Commit(const std::string& subject, const std::string& date) {
    EXPECT_EQ(Git({"commit", "-q", "--allow-empty", "-m", subject + "\n\nbody"}, date), "");
    EXPECT_EQ(Git({"rev-parse", "HEAD"}), "");
    std::string hash = last_out_;
    while (!hash.empty() && hash.back() == '\n') hash.pop_back();
    return hash;
  }
  const std::string& path() const { return dir_.path(); }
  bool ok() const { return ok_; }

 private:
  TempDir dir_;
  std::string last_out_;
  bool ok_ = false;
};

std::optional<std::string> NoEnvironment(const std::string&) { return std::nullopt; }

TEST(GitMetadataTest, ReadsHeadItsParentsTimeSubjectBranchAndAncestry) {
  GitRepo repo;
  if (!repo.ok()) GTEST_SKIP() << "git is not available";
  const std::string c1 = repo.Commit("first", "1700000000 +0000");
  const std::string c2 = repo.Commit("second, with \"quotes\"", "1700000100 +0200");
  ASSERT_EQ(repo.Git({"checkout", "-q", "-b", "side", c1}), "");
  const std::string s1 = repo.Commit("side work", "1700000050 +0000");
  ASSERT_EQ(repo.Git({"checkout", "-q", "main"}), "");
  ASSERT_EQ(repo.Git({"merge", "-q", "--no-ff", "-m", "merge side", "side"},
                     "1700000200 +0000"),
            "");
  StatusOr<RunCommit> run = ResolveRunCommit({.repo = repo.path()}, {}, NoEnvironment);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->source, "git");
  EXPECT_EQ(run->branch, "main");
  EXPECT_EQ(run->commit.hash.size(), 40u);
  EXPECT_EQ(run->commit.parents, (std::vector<std::string>{c2, s1}));
  EXPECT_EQ(run->commit.committer_time_ns, 1700000200LL * 1'000'000'000);
  EXPECT_EQ(run->commit.subject, "merge side");
  ASSERT_EQ(run->ancestry.size(), 2u);  // the first-parent chain: c2, c1
  EXPECT_EQ(run->ancestry[0].hash, c2);
  EXPECT_EQ(run->ancestry[0].subject, "second, with \"quotes\"");
  EXPECT_EQ(run->ancestry[0].committer_time_ns, 1700000100LL * 1'000'000'000);
  EXPECT_EQ(run->ancestry[1].hash, c1);
  EXPECT_TRUE(run->ancestry[1].parents.empty());
}

TEST(GitMetadataTest, FlagsOverrideEachField) {
  GitRepo repo;
  if (!repo.ok()) GTEST_SKIP() << "git is not available";
  const std::string c1 = repo.Commit("first", "1700000000 +0000");
  CommitFlags flags{.commit = "", .parents = {"ABCDEF01"}, .branch = "release/1.0",
                    .commit_time = "2024-05-01T12:00:00Z", .subject = "given", .repo = repo.path()};
  StatusOr<RunCommit> run = ResolveRunCommit(flags, {}, NoEnvironment);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->commit.hash, c1);
  EXPECT_EQ(run->commit.parents, (std::vector<std::string>{"abcdef01"}));
  EXPECT_EQ(run->commit.committer_time_ns, 1714564800LL * 1'000'000'000);
  EXPECT_EQ(run->commit.subject, "given");
  EXPECT_EQ(run->branch, "release/1.0");

  // A --commit git knows is read from git; one it does not is taken as given.
  flags = CommitFlags{.commit = c1.substr(0, 10), .repo = repo.path()};
  run = ResolveRunCommit(flags, {}, NoEnvironment);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->commit.hash, c1);
  EXPECT_EQ(run->commit.subject, "first");
  flags.commit = "1234567890abcdef";
  run = ResolveRunCommit(flags, {}, NoEnvironment);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->commit.hash, "1234567890abcdef");
  EXPECT_EQ(run->commit.subject, "");
  EXPECT_EQ(run->branch, "main");
}

TEST(GitMetadataTest, DetachedHeadTakesCiVariablesOrRefuses) {
  GitRepo repo;
  if (!repo.ok()) GTEST_SKIP() << "git is not available";
  const std::string c1 = repo.Commit("first", "1700000000 +0000");
  ASSERT_EQ(repo.Git({"checkout", "-q", "--detach", c1}), "");
  StatusOr<RunCommit> run = ResolveRunCommit({.repo = repo.path()}, {}, NoEnvironment);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("--branch=NAME"), std::string::npos);
  std::map<std::string, std::string> env = {{"GITHUB_REF_NAME", "42/merge"},
                                            {"GITHUB_HEAD_REF", "topic"}};
  const auto lookup = [&](const std::string& name) -> std::optional<std::string> {
    const auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  run = ResolveRunCommit({.repo = repo.path()}, {}, lookup);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->branch, "topic");
  env = {{"GITHUB_HEAD_REF", ""}, {"CI_COMMIT_REF_NAME", "gitlab-branch"}};
  run = ResolveRunCommit({.repo = repo.path()}, {}, lookup);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->branch, "gitlab-branch");
  env.clear();
  run = ResolveRunCommit({.repo = repo.path()}, {{"branch", "from-context"}}, lookup);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->branch, "from-context");
}

TEST(GitMetadataTest, WithoutGitTheContextOrTheFlagsMustSay) {
  TempDir not_a_repo;
  StatusOr<RunCommit> run = ResolveRunCommit({.repo = not_a_repo.path()}, {}, NoEnvironment);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("not a git repository"), std::string::npos)
      << run.status().message();
  EXPECT_NE(run.status().message().find("--commit=SHA"), std::string::npos);

  run = ResolveRunCommit({.repo = not_a_repo.path()},
                         {{"commit", "C0FFEE12"}, {"branch", "ctx-branch"}}, NoEnvironment);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->commit.hash, "c0ffee12");
  EXPECT_EQ(run->branch, "ctx-branch");
  EXPECT_EQ(run->source, "context");

  // The flags win over the context.
  run = ResolveRunCommit({.commit = "abcdabcd", .branch = "flag-branch", .repo = not_a_repo.path()},
                         {{"commit", "c0ffee12"}, {"branch", "ctx-branch"}}, NoEnvironment);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->commit.hash, "abcdabcd");
  EXPECT_EQ(run->branch, "flag-branch");

  run = ResolveRunCommit({.commit = "abcdabcd", .repo = not_a_repo.path()}, {}, NoEnvironment);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("--branch=NAME"), std::string::npos);

  EXPECT_FALSE(ResolveRunCommit({.commit = "HEAD~1; rm -rf /", .branch = "b",
                                 .repo = not_a_repo.path()},
                                {}, NoEnvironment)
                   .ok());
  EXPECT_FALSE(ResolveRunCommit({.commit = "abcdabcd", .parents = {"xyz"}, .branch = "b",
                                 .repo = not_a_repo.path()},
                                {}, NoEnvironment)
                   .ok());
}

TEST(GitMetadataTest, CommitTimes) {
  EXPECT_EQ(*ParseCommitTime("1700000000"), 1700000000LL * 1'000'000'000);
  EXPECT_EQ(*ParseCommitTime("2024-05-01T12:00:00Z"), 1714564800LL * 1'000'000'000);
  EXPECT_EQ(*ParseCommitTime("2024-05-01T14:00:00+02:00"), 1714564800LL * 1'000'000'000);
  EXPECT_EQ(*ParseCommitTime("2024-05-01T12:00:00.25Z"), 1714564800LL * 1'000'000'000 + 250'000'000);
  for (const char* bad : {"", "yesterday", "2024-05-01", "2024-13-01T00:00:00Z",
                          "2024-05-01T12:00:00", "2024-05-01T12:00:00+2", "-5"}) {
    EXPECT_FALSE(ParseCommitTime(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace benchprof::history
