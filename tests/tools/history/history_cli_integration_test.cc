// `benchprof history record`, `show` and `export` as a user runs them: on a
// throwaway git repository, without git, with hostile names, killed in the
// middle of a record, several at once on one SQLite file and 16 at once on
// one PostgreSQL database, and at the scale (time printed).
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <link.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "common/json_value.h"
#include "support/postgres_cluster.h"
#include "support/subprocess.h"
#include "tools/history/database.h"
#include "tools/history/history_schema.h"
#include "tools/history/history_store.h"

extern char** environ;

namespace benchprof::history {
namespace {

using benchprof::testing::ProcessResult;
using benchprof::testing::ReadFile;
using benchprof::testing::RunProcess;
using benchprof::testing::TempDir;

// Google Benchmark JSON: `benchmarks` benchmarks x `repetitions`, cpu_time,
// real_time and allocs/op; values from `seed`; `context` added to the
// context (JSON members, e.g. "\"commit\": \"abc\"").
std::string ResultJson(int benchmarks, int repetitions, int seed, const std::string& context = "",
                       const std::vector<std::string>& names = {}, double mhz = 2600) {
  std::string out = "{\n  \"context\": {\"date\": \"2024-01-01T00:00:00+00:00\", "
                    "\"host_name\": \"vm\", \"num_cpus\": 2, \"mhz_per_cpu\": " +
                    std::to_string(mhz) +
                    ", \"library_build_type\": \"release\", \"library_version\": \"v1.9.1\", "
                    "\"json_schema_version\": 1" +
                    (context.empty() ? "" : ", " + context) + "},\n  \"benchmarks\": [\n";
  bool first = true;
  for (int b = 0; b < benchmarks; ++b) {
    std::string name;
    if (b < static_cast<int>(names.size())) {
      json::AppendQuoted(name, names[b]);
    } else {
      name = "\"BM_Cli/" + std::to_string(b) + "\"";
    }
    for (int r = 0; r < repetitions; ++r) {
      char row[512];
      std::snprintf(row, sizeof row,
                    "{\"name\": %s, \"run_name\": %s, \"run_type\": \"iteration\", "
                    "\"repetitions\": %d, \"repetition_index\": %d, \"threads\": 1, "
                    "\"iterations\": 1000, \"real_time\": %.17g, \"cpu_time\": %.17g, "
                    "\"time_unit\": \"ns\", \"allocs/op\": %d}",
                    name.c_str(), name.c_str(), repetitions, r, 100.0 + b + seed + r * 0.125,
                    99.0 + b + seed + r * 0.25, b % 4);
      out += std::string(first ? "    " : ",\n    ") + row;
      first = false;
    }
  }
  return out + "\n  ]\n}\n";
}

void WriteFile(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

ProcessResult History(const std::vector<std::string>& args, const std::string& cwd = "",
                      const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {BENCHPROF_PATH, "history"};
  argv.insert(argv.end(), args.begin(), args.end());
  // CI's variables and the database variable cleared, unless `env` sets them.
  std::vector<std::string> full_env;
  for (const std::string name :
       {"GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "BENCHPROF_HISTORY_DB"}) {
    bool given = false;
    for (const std::string& e : env) given = given || e.starts_with(name + "=");
    if (!given) full_env.push_back(name + "=");
  }
  full_env.insert(full_env.end(), env.begin(), env.end());
  return RunProcess(argv, full_env, cwd);
}

int Lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

int64_t CountRows(const std::string& db, const std::string& table) {
  StatusOr<std::unique_ptr<Database>> d = OpenDatabase(db, {});
  if (!d.ok()) return -1;
  StatusOr<SqlRows> rows = (*d)->Query("SELECT count(*) FROM " + table);
  return rows.ok() ? std::get<int64_t>(rows->front()[0]) : -1;
}

std::string Git(const std::string& dir, const std::vector<std::string>& args,
                const std::string& date = "1700000000 +0000") {
  std::vector<std::string> argv = {"/usr/bin/env", "git", "-C", dir};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult r = RunProcess(
      argv, {"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T",
             "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null",
             "GIT_CONFIG_NOSYSTEM=1", "GIT_COMMITTER_DATE=" + date, "GIT_AUTHOR_DATE=" + date});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  std::string out = r.stdout_text;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

TEST(HistoryCliTest, RecordShowAndExportAlongAGitRepository) {
  TempDir dir;
  const std::string repo = dir.File("repo"), db = dir.File("h.sqlite");
  ASSERT_EQ(::mkdir(repo.c_str(), 0755), 0);
  Git(repo, {"init", "-q", "-b", "main"});
  std::vector<std::string> hashes;
  for (int i = 0; i < 3; ++i) {
    Git(repo, {"commit", "-q", "--allow-empty", "-m", "change " + std::to_string(i)},
        std::to_string(1700000000 + i * 86400) + " +0000");
    hashes.push_back(Git(repo, {"rev-parse", "HEAD"}));
  }
  // Recorded newest first: the order shown is still the commits'.
  for (int i = 2; i >= 0; --i) {
    Git(repo, {"checkout", "-q", "--detach", hashes[i]});
    const std::string file = dir.File("r" + std::to_string(i) + ".json");
    WriteFile(file, ResultJson(2, 3, i * 10));
    ProcessResult r = History({"record", "--db=" + db, "--branch=main", file}, repo);
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_TRUE(std::regex_match(
        r.stdout_text,
        std::regex("recorded run " + std::to_string(3 - i) +
                   ": 2 benchmarks, 3 metrics, commit " + hashes[i].substr(0, 12) +
                   " on main, testbed [0-9]+c-[a-z0-9-]+-[0-9a-f]{8}\n")))
        << r.stdout_text;
  }
  ProcessResult again = History({"record", "--db=" + db, "--branch=main",
                                 dir.File("r1.json")}, repo);
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_EQ(again.stdout_text, "already recorded as run 2\n");
  EXPECT_EQ(CountRows(db, "runs"), 3);

  ProcessResult show = History({"show", "--db=" + db, "BM_Cli/1$", "--metric=allocs/op"});
  ASSERT_EQ(show.exit_code, 0) << show.stderr_text;
  // A header line, a column line, one row per run: oldest commit first.
  ASSERT_EQ(Lines(show.stdout_text), 5) << show.stdout_text;
  EXPECT_NE(show.stdout_text.find("BM_Cli/1  allocs/op  testbed "), std::string::npos);
  const size_t r0 = show.stdout_text.find(hashes[0].substr(0, 12)),
               r1 = show.stdout_text.find(hashes[1].substr(0, 12)),
               r2 = show.stdout_text.find(hashes[2].substr(0, 12));
  ASSERT_NE(r2, std::string::npos) << show.stdout_text;
  EXPECT_LT(r0, r1);
  EXPECT_LT(r1, r2);
  EXPECT_NE(show.stdout_text.find("2023-11-15  change 1"), std::string::npos) << show.stdout_text;

  ProcessResult csv = History({"export", "--db=" + db, "--format=csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.stderr_text;
  EXPECT_EQ(Lines(csv.stdout_text), 1 + 3 * 2 * 3);  // header + runs x benchmarks x metrics
  EXPECT_NE(csv.stdout_text.find("2023-11-14T22:13:20Z," + hashes[0] +
                                 ",main,"),
            std::string::npos)
      << csv.stdout_text;
  // Raw repetitions as recorded: BM_Cli/0 of run r0, cpu_time 99, 99.25, 99.5.
  EXPECT_NE(csv.stdout_text.find(",BM_Cli/0,cpu_time,ns/op,3,3,99.25,99 99.25 99.5\r\n"),
            std::string::npos)
      << csv.stdout_text;
  const std::string out = dir.File("all.json");
  ProcessResult json_out = History({"export", "--db=" + db, "--format=json", "-o", out});
  ASSERT_EQ(json_out.exit_code, 0) << json_out.stderr_text;
  EXPECT_EQ(json_out.stdout_text, "");
  StatusOr<json::Value> doc = json::Parse(ReadFile(out));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(doc->as_array().size(), 18u);

  // Reading needs a database: none there is one line, exit 3.
  ProcessResult missing = History({"show", "--db=" + dir.File("none.sqlite")});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_EQ(Lines(missing.stderr_text), 1) << missing.stderr_text;
  EXPECT_FALSE(benchprof::testing::FileExists(dir.File("none.sqlite")));
}

TEST(HistoryCliTest, WithoutGitTheFlagsOrTheContextSay) {
  TempDir dir;
  const std::string db = dir.File("h.sqlite"), file = dir.File("r.json");
  WriteFile(file, ResultJson(1, 2, 0));
  ProcessResult r = History({"record", "--db=" + db, file}, dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(Lines(r.stderr_text), 1) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("not a git repository"), std::string::npos) << r.stderr_text;
  EXPECT_FALSE(benchprof::testing::FileExists(db));

  WriteFile(file, ResultJson(1, 2, 0, "\"commit\": \"feedbeef\", \"branch\": \"ctx\""));
  r = History({"record", "--db=" + db, file}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("commit feedbeef on ctx,"), std::string::npos) << r.stdout_text;

  WriteFile(file, ResultJson(1, 2, 1));
  r = History({"record", "--db=" + db, "--commit=0123abcd", "--branch=given",
               "--parent=feedbeef", "--commit-time=2024-05-01T12:00:00Z", "--subject=by hand",
               "--testbed=ci-large", file},
              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text,
            "recorded run 2: 1 benchmarks, 3 metrics, commit 0123abcd on given, testbed "
            "ci-large\n");
  ProcessResult show = History({"show", "--db=" + db, "--branch=given", "--metric=cpu_time"});
  ASSERT_EQ(show.exit_code, 0) << show.stderr_text;
  EXPECT_NE(show.stdout_text.find("0123abcd  2024-05-01  by hand"), std::string::npos)
      << show.stdout_text;

  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--commit=nothex!", "--branch=b", file},
        {"--commit=abcd1234", "--branch=b", "--commit-time=soon", file},
        {"--commit=abcd1234", "--branch=b", dir.File("missing.json")},
        {"--commit=abcd1234", "--branch=b"}}) {
    std::vector<std::string> args = {"record", "--db=" + db};
    args.insert(args.end(), bad.begin(), bad.end());
    ProcessResult fail = History(args, dir.path());
    EXPECT_EQ(fail.exit_code, 3) << bad[0];
    EXPECT_EQ(Lines(fail.stderr_text), 1) << fail.stderr_text;
  }
}

TEST(HistoryCliTest, TheDefaultDatabaseAndTheVariable) {
  TempDir dir;
  const std::string file = dir.File("r.json");
  WriteFile(file, ResultJson(1, 2, 0));
  ProcessResult r = History({"record", "--commit=abcd1234", "--branch=b", file}, dir.path(),
                            {"XDG_DATA_HOME=" + dir.File("xdg")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(CountRows(dir.File("xdg/benchprof/history.sqlite"), "runs"), 1);
  r = History({"record", "--commit=abcd1234", "--branch=b", file}, dir.path(),
              {"XDG_DATA_HOME=" + dir.File("xdg"), "BENCHPROF_HISTORY_DB=" + dir.File("env.db")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(CountRows(dir.File("env.db"), "runs"), 1);
}

TEST(HistoryCliTest, BadDatabasesAreOneLine) {
  TempDir dir;
  const std::string file = dir.File("r.json"), db = dir.File("h.sqlite");
  WriteFile(file, ResultJson(1, 2, 0));
  const std::vector<std::string> flags = {"--commit=abcd1234", "--branch=b"};

  WriteFile(dir.File("text.sqlite"), std::string(5000, 'x'));
  ProcessResult r = History({"record", "--db=" + dir.File("text.sqlite"), flags[0], flags[1],
                             file});
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_EQ(Lines(r.stderr_text), 1) << r.stderr_text;
  EXPECT_EQ(ReadFile(dir.File("text.sqlite")), std::string(5000, 'x'));

  r = History({"record", "--db=" + dir.path(), flags[0], flags[1], file});
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_EQ(Lines(r.stderr_text), 1) << r.stderr_text;

  // A database of a newer schema: refused, naming both versions.
  ASSERT_EQ(History({"record", "--db=" + db, flags[0], flags[1], file}).exit_code, 0);
  {
    StatusOr<std::unique_ptr<Database>> d = OpenDatabase(db, {});
    ASSERT_TRUE(d.ok());
    ASSERT_TRUE((*d)->Execute("UPDATE schema_info SET schema_version = 99, "
                              "benchprof_version = '42.0.0'").ok());
  }
  for (const std::string command : {"record", "show", "export"}) {
    std::vector<std::string> args = {command, "--db=" + db};
    if (command == std::string("record")) args.insert(args.end(), {flags[0], flags[1], file});
    if (command == std::string("export")) args.push_back("--format=csv");
    r = History(args);
    EXPECT_EQ(r.exit_code, 3) << command << ": " << r.stderr_text;
    EXPECT_EQ(Lines(r.stderr_text), 1) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("schema 99"), std::string::npos) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("42.0.0"), std::string::npos) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("schema " + std::to_string(kSchemaVersion) + ")"), std::string::npos)
        << r.stderr_text;
  }

  if (::geteuid() != 0) {
    // A read-only database: unavailable, 4.
    const std::string ro_dir = dir.File("ro");
    ASSERT_EQ(::mkdir(ro_dir.c_str(), 0755), 0);
    ASSERT_EQ(History({"record", "--db=" + ro_dir + "/h.sqlite", flags[0], flags[1], file})
                  .exit_code, 0);
    WriteFile(file, ResultJson(1, 2, 7));
    ::chmod((ro_dir + "/h.sqlite").c_str(), 0444);
    ::chmod(ro_dir.c_str(), 0555);
    r = History({"record", "--db=" + ro_dir + "/h.sqlite", flags[0], flags[1], file});
    EXPECT_EQ(r.exit_code, 4) << r.stderr_text;
    EXPECT_EQ(Lines(r.stderr_text), 1) << r.stderr_text;
    ::chmod(ro_dir.c_str(), 0755);
  }
}

TEST(HistoryCliTest, HostileNamesAreStoredVerbatimAndShownSafely) {
  TempDir dir;
  const std::string db = dir.File("h.sqlite"), file = dir.File("r.json");
  const std::vector<std::string> names = {"BM_x'); DROP TABLE runs; --", "BM_\"q\",comma",
                                          "BM_new\nline\x1b[31m", "BM_\u202egnp.exe"};
  WriteFile(file, ResultJson(4, 2, 0, "", names));
  const std::string branch = "b'; DELETE FROM samples; --", testbed = "tb\"$1";
  ProcessResult r = History({"record", "--db=" + db, "--commit=abcd1234",
                             "--branch=" + branch, "--testbed=" + testbed, file});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(CountRows(db, "samples"), 12);
  ProcessResult show = History({"show", "--db=" + db, "--metric=cpu_time"});
  ASSERT_EQ(show.exit_code, 0) << show.stderr_text;
  EXPECT_EQ(show.stdout_text.find('\x1b'), std::string::npos);
  EXPECT_EQ(show.stdout_text.find("\u202e"), std::string::npos);
  EXPECT_NE(show.stdout_text.find("BM_x'); DROP TABLE runs; --  cpu_time"), std::string::npos)
      << show.stdout_text;
  EXPECT_NE(show.stdout_text.find("branch " + branch), std::string::npos);
  ProcessResult json_out = History({"export", "--db=" + db, "--format=json", "--metric=cpu_time"});
  ASSERT_EQ(json_out.exit_code, 0);
  StatusOr<json::Value> doc = json::Parse(json_out.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  std::set<std::string> seen;
  for (const json::Value& row : doc->as_array()) {
    seen.insert(row.Find("benchmark")->as_string());
    EXPECT_EQ(row.Find("branch")->as_string(), branch);
    EXPECT_EQ(row.Find("testbed")->as_string(), testbed);
  }
  EXPECT_EQ(seen, std::set<std::string>(names.begin(), names.end()));
  ProcessResult csv = History({"export", "--db=" + db, "--format=csv", "comma"});
  ASSERT_EQ(csv.exit_code, 0);
  EXPECT_NE(csv.stdout_text.find(",\"BM_\"\"q\"\",comma\",cpu_time,"), std::string::npos)
      << csv.stdout_text;
}

TEST(HistoryCliTest, TwoRecordersAtOnceOnOneSqliteFile) {
  TempDir dir;
  const std::string db = dir.File("h.sqlite");
  constexpr int kEach = 8;
  for (int t = 0; t < 2; ++t) {
    for (int i = 0; i < kEach; ++i) {
      WriteFile(dir.File("r" + std::to_string(t) + "-" + std::to_string(i) + ".json"),
                ResultJson(50, 5, t * 100 + i));
    }
  }
  WriteFile(dir.File("shared.json"), ResultJson(50, 5, 999));
  std::vector<std::string> failures(2);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        for (const std::string& f : {dir.File("r" + std::to_string(t) + "-" + std::to_string(i) +
                                              ".json"),
                                     dir.File("shared.json")}) {
          ProcessResult r = History({"record", "--db=" + db, "--commit=abcd" + std::to_string(i),
                                     "--branch=main", f});
          if (r.exit_code != 0) failures[t] += r.stderr_text;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures, std::vector<std::string>(2));
  EXPECT_EQ(CountRows(db, "runs"), 2 * kEach + 1);
  EXPECT_EQ(CountRows(db, "samples"), (2 * kEach + 1) * 50 * 3);
}

TEST(HistoryCliTest, TwoRecordersCreatingOneSqliteFileAtOnce) {
  // Both switch the new file to WAL mode at once (SQLite failed one of them
  // at once, without waiting, in about 1 of 8 pairs).
  TempDir dir;
  WriteFile(dir.File("a.json"), ResultJson(2, 2, 1));
  WriteFile(dir.File("b.json"), ResultJson(2, 2, 2));
  for (int trial = 0; trial < 24; ++trial) {
    const std::string db = dir.File("fresh" + std::to_string(trial) + ".sqlite");
    std::vector<ProcessResult> results(2);
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, t] {
        results[t] = History({"record", "--db=" + db, "--commit=abcd" + std::to_string(t),
                              "--branch=main", dir.File(t == 0 ? "a.json" : "b.json")});
      });
    }
    for (std::thread& t : threads) t.join();
    for (const ProcessResult& r : results) EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_EQ(CountRows(db, "runs"), 2);
  }
}

TEST(HistoryCliTest, SixteenRecordersAtOnceOnOnePostgresql) {
  BENCHPROF_SHARED_POSTGRES_OR_SKIP(cluster);
  ASSERT_TRUE(cluster->CreateDatabase("sixteen").ok());
  const std::string url = cluster->Url("sixteen");
  TempDir dir;
  constexpr int kRecorders = 16, kEach = 3;
  for (int t = 0; t < kRecorders; ++t) {
    for (int i = 0; i < kEach; ++i) {
      WriteFile(dir.File("r" + std::to_string(t) + "-" + std::to_string(i) + ".json"),
                ResultJson(30, 5, t * 100 + i));
    }
  }
  WriteFile(dir.File("shared.json"), ResultJson(30, 5, 9999));
  std::vector<std::string> failures(kRecorders);
  std::vector<std::thread> threads;
  for (int t = 0; t < kRecorders; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        ProcessResult r = History(
            {"record", "--db=" + url, "--commit=abcd" + std::to_string(t), "--branch=main",
             dir.File("r" + std::to_string(t) + "-" + std::to_string(i) + ".json")});
        if (r.exit_code != 0) failures[t] += r.stderr_text;
      }
      ProcessResult r = History({"record", "--db=" + url, "--commit=abcdffff", "--branch=main",
                                 dir.File("shared.json")});
      if (r.exit_code != 0) failures[t] += r.stderr_text;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures, std::vector<std::string>(kRecorders));
  EXPECT_EQ(CountRows(url, "runs"), kRecorders * kEach + 1);
  EXPECT_EQ(CountRows(url, "samples"), (kRecorders * kEach + 1) * 30 * 3);
  ProcessResult show = History({"show", "--db=" + url, "BM_Cli/0$", "--metric=allocs/op"});
  ASSERT_EQ(show.exit_code, 0) << show.stderr_text;
  EXPECT_EQ(Lines(show.stdout_text), 2 + kRecorders * kEach + 1);
}

TEST(HistoryCliTest, AnUnavailableServerIsExitCode4) {
  TempDir dir;
  const std::string file = dir.File("r.json");
  WriteFile(file, ResultJson(1, 2, 0));
  // No server at that socket.
  ProcessResult r = History({"record", "--db=postgresql:///bench?host=" + dir.path(),
                             "--commit=abcd1234", "--branch=b", file});
  EXPECT_EQ(r.exit_code, 4) << r.stderr_text;
  EXPECT_EQ(Lines(r.stderr_text), 1) << r.stderr_text;

  BENCHPROF_SHARED_POSTGRES_OR_SKIP(cluster);
  ASSERT_TRUE(cluster->CreateDatabase("guarded").ok());
  ASSERT_TRUE(cluster->CreatePasswordRole("recorder", "right").ok());
  r = History({"show", "--db=" + cluster->Url("guarded", "recorder", "wrong")});
  EXPECT_EQ(r.exit_code, 4) << r.stderr_text;
  EXPECT_EQ(Lines(r.stderr_text), 1) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.find("wrong"), std::string::npos) << "the password was printed";
}

// libpq is loaded when a PostgreSQL database is opened, not linked. Hidden
// (an empty file mounted over it, in a mount namespace of the test's own),
// a PostgreSQL URL is one line and exit code 4, and benchprof still starts
// and reads a SQLite file.
TEST(HistoryCliTest, WithoutLibpqPostgresqlIsOneLineAndTheRestWorks) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, for a mount namespace";
  void* libpq = ::dlopen(BENCHPROF_LIBPQ_SONAME, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(libpq, nullptr) << BENCHPROF_LIBPQ_SONAME;
  link_map* map = nullptr;
  char resolved[PATH_MAX];
  ASSERT_EQ(::dlinfo(libpq, RTLD_DI_LINKMAP, &map), 0);
  ASSERT_NE(::realpath(map->l_name, resolved), nullptr);
  const std::string library = resolved;
  ::dlclose(libpq);

  TempDir dir;
  const std::string db = dir.File("h.sqlite"), file = dir.File("r.json");
  WriteFile(file, ResultJson(1, 2, 0));
  ASSERT_EQ(History({"record", "--db=" + db, "--commit=abcd1234", "--branch=b", file}).exit_code, 0);
  const auto without_libpq = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"/usr/bin/unshare", "-m", "/bin/sh", "-c",
                                     "mount --bind /dev/null '" + library + "' && exec \"$@\"",
                                     "sh", BENCHPROF_PATH, "history"};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProcess(argv);
  };
  const ProcessResult server = without_libpq({"show", "--db=postgresql:///bench?host=/nowhere"});
  if (server.stderr_text.find("unshare") != std::string::npos) {
    GTEST_SKIP() << "no mount namespace here: " << server.stderr_text;
  }
  EXPECT_EQ(server.exit_code, 4) << server.stderr_text;
  EXPECT_EQ(Lines(server.stderr_text), 1) << server.stderr_text;
  EXPECT_NE(server.stderr_text.find("cannot load PostgreSQL's client library " +
                                    std::string(BENCHPROF_LIBPQ_SONAME)),
            std::string::npos)
      << server.stderr_text;
  const ProcessResult sqlite = without_libpq({"show", "--db=" + db});
  EXPECT_EQ(sqlite.exit_code, 0) << sqlite.stderr_text;
  EXPECT_NE(sqlite.stdout_text.find("BM_Cli/0"), std::string::npos) << sqlite.stdout_text;
}

TEST(HistoryCliTest, AttachedFilesAreStoredWithTheRun) {
  TempDir dir;
  const std::string db = dir.File("h.sqlite"), file = dir.File("r.json");
  WriteFile(file, ResultJson(1, 2, 0));
  std::string profile(70000, '\0');
  for (size_t i = 0; i < profile.size(); ++i) profile[i] = static_cast<char>(i % 253);
  WriteFile(dir.File("cpu.pprof"), profile);
  WriteFile(dir.File("trace.json"), "{\"traceEvents\": []}");
  ProcessResult r = History({"record", "--db=" + db, "--commit=abcd1234", "--branch=b",
                             "--attach", dir.File("cpu.pprof"), "--attach=" + dir.File("trace.json"),
                             file});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open(db, {});
  ASSERT_TRUE(store.ok()) << store.status().message();
  StatusOr<std::vector<Attachment>> got = (*store)->Attachments(1);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].name, "cpu.pprof");
  EXPECT_EQ((*got)[0].kind, "pprof");
  EXPECT_TRUE((*got)[0].bytes == profile);
  EXPECT_EQ((*got)[1].name, "trace.json");
  EXPECT_EQ((*got)[1].kind, "trace");
  r = History({"record", "--db=" + db, "--commit=abcd1234", "--branch=b",
               "--attach=" + dir.File("missing.pprof"), file});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(Lines(r.stderr_text), 1) << r.stderr_text;
}

TEST(HistoryCliTest, ARecordKilledMidTransactionLeavesNothing) {
  TempDir dir;
  const std::string db = dir.File("h.sqlite"), small = dir.File("small.json"),
                    big = dir.File("big.json");
  WriteFile(small, ResultJson(3, 2, 0));
  ASSERT_EQ(History({"record", "--db=" + db, "--commit=abcd0001", "--branch=main", small})
                .exit_code, 0);
  WriteFile(big, ResultJson(5000, 20, 1));
  const std::string wal = db + "-wal";
  // Killed as soon as the record has written into the database's log (its
  // transaction has begun and is not committed: the commit is the last
  // write). Retried a few times in case a run ends before it is caught.
  int caught = 0;
  for (int attempt = 0; attempt < 5 && caught == 0; ++attempt) {
    std::vector<std::string> args = {BENCHPROF_PATH, "history", "record", "--db=" + db,
                                     "--commit=abcd0002", "--branch=main", big};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    ASSERT_EQ(::posix_spawn(&pid, BENCHPROF_PATH, &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    bool ended = false;
    while (!ended) {
      struct stat st;
      if (::stat(wal.c_str(), &st) == 0 && st.st_size > 64 * 1024) {
        ::kill(pid, SIGKILL);
        break;
      }
      ended = ::waitpid(pid, &status, WNOHANG) == pid;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    if (!ended) {
      ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      ++caught;
    } else {
      // It finished first: take the run out again and retry.
      StatusOr<std::unique_ptr<Database>> d = OpenDatabase(db, {});
      ASSERT_TRUE(d.ok());
      ASSERT_TRUE((*d)->Execute("DELETE FROM samples WHERE run_id > 1; DELETE FROM runs "
                                "WHERE id > 1").ok());
    }
  }
  ASSERT_EQ(caught, 1) << "the record ended before it could be killed, 5 times";
  StatusOr<std::unique_ptr<Database>> d = OpenDatabase(db, {});
  ASSERT_TRUE(d.ok()) << d.status().message();
  StatusOr<SqlRows> check = (*d)->Query("PRAGMA integrity_check");
  ASSERT_TRUE(check.ok()) << check.status().message();
  EXPECT_EQ(std::get<std::string>(check->front()[0]), "ok");
  EXPECT_EQ(CountRows(db, "runs"), 1);
  EXPECT_EQ(CountRows(db, "samples"), 3 * 3);
  EXPECT_EQ(CountRows(db, "benchmarks"), 3);
  // And the same record, run to its end, stores it whole.
  ProcessResult r =
      History({"record", "--db=" + db, "--commit=abcd0002", "--branch=main", big});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(CountRows(db, "runs"), 2);
  EXPECT_EQ(CountRows(db, "samples"), 3 * 3 + 5000 * 3);
}

TEST(HistoryCliTest, ARecordKilledMidTransactionLeavesNothingInPostgresql) {
  BENCHPROF_SHARED_POSTGRES_OR_SKIP(cluster);
  ASSERT_TRUE(cluster->CreateDatabase("killed").ok());
  const std::string url = cluster->Url("killed");
  TempDir dir;
  const std::string small = dir.File("small.json"), big = dir.File("big.json");
  WriteFile(small, ResultJson(3, 2, 0));
  ASSERT_EQ(History({"record", "--db=" + url, "--commit=abcd0001", "--branch=main", small})
                .exit_code, 0);
  WriteFile(big, ResultJson(5000, 20, 1));
  StatusOr<std::unique_ptr<Database>> watcher = OpenDatabase(cluster->Url("postgres"), {});
  ASSERT_TRUE(watcher.ok()) << watcher.status().message();
  std::vector<std::string> args = {BENCHPROF_PATH, "history", "record", "--db=" + url,
                                   "--commit=abcd0002", "--branch=main", big};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  ASSERT_EQ(::posix_spawn(&pid, BENCHPROF_PATH, &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  // Killed once the server sees its transaction open and writing samples.
  int status = 0;
  bool ended = false;
  while (!ended) {
    StatusOr<SqlRows> open = (*watcher)->Query(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = 'killed' AND xact_start IS NOT "
        "NULL AND query LIKE 'INSERT INTO samples%'");
    if (open.ok() && std::get<int64_t>(open->front()[0]) > 0) {
      ::kill(pid, SIGKILL);
      break;
    }
    ended = ::waitpid(pid, &status, WNOHANG) == pid;
  }
  if (!ended) {
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  }
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the record ended before it was seen inserting samples";
  // The server rolls the dead client's transaction back when it notices the
  // connection gone; a writer's Begin waits for its lock until then.
  StatusOr<std::unique_ptr<Database>> d = OpenDatabase(url, {});
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE((*d)->Begin().ok());  // waits for the dead transaction's end
  ASSERT_TRUE((*d)->Rollback().ok());
  EXPECT_EQ(CountRows(url, "runs"), 1);
  EXPECT_EQ(CountRows(url, "samples"), 3 * 3);
  EXPECT_EQ(CountRows(url, "benchmarks"), 3);
}

TEST(HistoryCliTest, RecordingAThousandBenchmarksOfTwentyRepetitions) {
  TempDir dir;
  const std::string db = dir.File("h.sqlite"), file = dir.File("r.json");
  WriteFile(file, ResultJson(1000, 20, 0));
  // The database created first, so that the time is the record's.
  WriteFile(dir.File("small.json"), ResultJson(1, 1, 0));
  ASSERT_EQ(History({"record", "--db=" + db, "--commit=abcd0001", "--branch=main",
                     dir.File("small.json")})
                .exit_code, 0);
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r = History({"record", "--db=" + db, "--commit=abcd0002", "--branch=main", file});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::printf("benchprof history record of 1,000 benchmarks x 20 repetitions (%.1f MB of JSON) "
              "into SQLite: %.3f s\n",
              static_cast<double>(ReadFile(file).size()) / 1e6, seconds);
  EXPECT_LT(seconds, 5.0);  // the target is 1 s; the bound leaves room for a loaded machine
}

TEST(HistoryCliTest, RecordingAThousandBenchmarksOfTwentyRepetitionsIntoPostgresql) {
  BENCHPROF_SHARED_POSTGRES_OR_SKIP(cluster);
  ASSERT_TRUE(cluster->CreateDatabase("scale").ok());
  const std::string url = cluster->Url("scale");
  TempDir dir;
  const std::string file = dir.File("r.json");
  WriteFile(file, ResultJson(1000, 20, 0));
  WriteFile(dir.File("small.json"), ResultJson(1, 1, 0));
  ASSERT_EQ(History({"record", "--db=" + url, "--commit=abcd0001", "--branch=main",
                     dir.File("small.json")})
                .exit_code, 0);
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r = History({"record", "--db=" + url, "--commit=abcd0002", "--branch=main", file});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::printf("benchprof history record of 1,000 benchmarks x 20 repetitions into PostgreSQL "
              "(a local cluster, Unix socket): %.3f s\n",
              seconds);
  EXPECT_EQ(CountRows(url, "samples"), 1 * 3 + 1000 * 3);
}

}  // namespace
}  // namespace benchprof::history
