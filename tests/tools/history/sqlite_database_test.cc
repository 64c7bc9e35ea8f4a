// The failures of the SQLite backend, each one line naming the file, with
// the kind the exit code comes from: files that are not databases (text, a
// truncated or corrupt database, a directory, a FIFO, a device), read-only
// files and directories (for root too: a read-only bind mount in a mount
// namespace of a child process, since permissions do not stop root), and a
// full disk (the file size limit, EFBIG; a full tmpfs, ENOSPC).
#include "tools/history/sqlite_database.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "support/subprocess.h"
#include "tools/history/database.h"

namespace benchprof::history {
namespace {

using benchprof::testing::TempDir;

const char* KindName(DatabaseErrorKind kind) {
  switch (kind) {
    case DatabaseErrorKind::kUnreachable:
      return "unreachable";
    case DatabaseErrorKind::kAuthentication:
      return "authentication";
    case DatabaseErrorKind::kNotADatabase:
      return "not-a-database";
    case DatabaseErrorKind::kReadOnly:
      return "read-only";
    case DatabaseErrorKind::kBusy:
      return "busy";
    case DatabaseErrorKind::kDiskFull:
      return "disk-full";
    case DatabaseErrorKind::kOther:
      return "other";
  }
  return "?";
}

// What a failed operation reported: its kind's name and its message.
struct Failure {
  std::string kind;
  std::string message;
};

Failure OpenFailure(const std::string& path, const OpenOptions& options = {}) {
  DatabaseErrorKind kind = DatabaseErrorKind::kOther;
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, options, &kind);
  if (db.ok()) return {"opened", ""};
  return {KindName(kind), db.status().message()};
}

// Also prints the message, so that the test's log shows what a user sees.
void ExpectOneLineNaming(const std::string& message, const std::string& path) {
  std::printf("message: %s\n", message.c_str());
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// Creates a database at `path` with a table `t (n INTEGER, payload BLOB)`
// holding `rows` rows of `payload_bytes` bytes each.
void CreateDatabase(const std::string& path, int rows, int payload_bytes = 100) {
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {});
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE((*db)->Execute("CREATE TABLE t (n INTEGER, payload BLOB)").ok());
  DatabaseTransaction tx(**db);
  ASSERT_TRUE(tx.begun().ok());
  for (int64_t n = 0; n < rows; ++n) {
    std::string payload(payload_bytes, static_cast<char>('a' + n % 26));
    ASSERT_TRUE(
        (*db)
            ->Execute("INSERT INTO t VALUES ($1, $2)", {SqlValue(n), SqlValue(SqlBlob{payload})})
            .ok());
  }
  ASSERT_TRUE(tx.Commit().ok());
}

// Opens `path`, writes one more row in a transaction and commits; the kind
// and message of the first step that fails.
Failure WriteFailure(const std::string& path) {
  DatabaseErrorKind kind = DatabaseErrorKind::kOther;
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {}, &kind);
  if (!db.ok()) return {KindName(kind), db.status().message()};
  Database& database = **db;
  Status s = database.Begin();
  if (s.ok()) {
    s = database.Execute("INSERT INTO t VALUES ($1, $2)",
                         {SqlValue(int64_t{-1}), SqlValue(SqlBlob{"x"})});
  }
  if (s.ok()) s = database.Commit();
  if (s.ok()) return {"written", ""};
  return {KindName(database.last_error_kind()), s.message()};
}

// Runs `body` in a child process and returns its Failure (what the child
// could not do is reported as kind "child: ...").
Failure InChild(const std::function<Failure()>& body) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return {"child: no pipe", ""};
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    Failure failure = body();
    std::string out = failure.kind + '\n' + failure.message;
    size_t written = 0;
    while (written < out.size()) {
      ssize_t n = write(fds[1], out.data() + written, out.size() - written);
      if (n <= 0) break;
      written += n;
    }
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) out.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status)) return {"child: died", out};
  size_t newline = out.find('\n');
  if (newline == std::string::npos) return {"child: no answer", out};
  return {out.substr(0, newline), out.substr(newline + 1)};
}

// In a child process: makes `path` (a file or a directory) read-only by a
// read-only bind mount in a mount namespace of the child's own, which stops
// root too. Returns "" or why it could not.
std::string MakeReadOnlyInThisProcess(const std::string& path) {
  if (unshare(CLONE_NEWNS) != 0) {
    return std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
  }
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      mount(path.c_str(), path.c_str(), nullptr, MS_BIND, nullptr) != 0 ||
      mount(nullptr, path.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0) {
    return std::string("read-only bind mount: ") + std::strerror(errno);
  }
  return "";
}

// A read-only mount needs CAP_SYS_ADMIN; as another user, permissions do.
bool CanMount() { return geteuid() == 0; }

TEST(SqliteNotADatabaseTest, ATextFile) {
  TempDir dir;
  std::string path = dir.File("notes.txt");
  std::ofstream(path) << "benchmark results, but as text\nline two\n";
  Failure failure = OpenFailure(path);
  EXPECT_EQ(failure.kind, "not-a-database");
  ExpectOneLineNaming(failure.message, path);
  EXPECT_NE(failure.message.find("not a SQLite database"), std::string::npos) << failure.message;
  EXPECT_EQ(benchprof::testing::ReadFile(path), "benchmark results, but as text\nline two\n");
}

TEST(SqliteNotADatabaseTest, ADatabaseWithAGarbledHeader) {
  TempDir dir;
  std::string path = dir.File("h.sqlite");
  CreateDatabase(path, 10);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.write("this is no SQLite header at all", 31);
  }
  Failure failure = OpenFailure(path);
  EXPECT_EQ(failure.kind, "not-a-database") << failure.message;
  ExpectOneLineNaming(failure.message, path);
}

TEST(SqliteNotADatabaseTest, ATruncatedDatabase) {
  TempDir dir;
  std::string path = dir.File("h.sqlite");
  CreateDatabase(path, 2000, 500);
  struct stat info;
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  ASSERT_GT(info.st_size, 500000);
  ASSERT_EQ(truncate(path.c_str(), info.st_size / 2), 0);
  DatabaseErrorKind kind = DatabaseErrorKind::kOther;
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {}, &kind);
  Failure failure;
  if (!db.ok()) {
    failure = {KindName(kind), db.status().message()};
  } else {
    // The header is intact: the damage shows where the missing pages are read.
    StatusOr<SqlRows> rows = (*db)->Query("SELECT count(*), sum(length(payload)) FROM t");
    ASSERT_FALSE(rows.ok()) << "a truncated database read as whole";
    failure = {KindName((*db)->last_error_kind()), rows.status().message()};
  }
  EXPECT_EQ(failure.kind, "not-a-database") << failure.message;
  ExpectOneLineNaming(failure.message, path);
}

TEST(SqliteNotADatabaseTest, ADirectoryAFifoAndADeviceAreRefusedWithoutHanging) {
  TempDir dir;
  std::string fifo = dir.File("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {dir.path(), fifo, std::string("/dev/null")}) {
    Failure failure = OpenFailure(path);
    EXPECT_EQ(failure.kind, "not-a-database") << path << ": " << failure.message;
    ExpectOneLineNaming(failure.message, path);
  }
  EXPECT_NE(OpenFailure(fifo).message.find("a FIFO"), std::string::npos);
  EXPECT_NE(OpenFailure(dir.path()).message.find("a directory"), std::string::npos);
}

TEST(SqliteOpenTest, AMissingFileWithoutCreateAndAMissingDirectory) {
  TempDir dir;
  OpenOptions no_create;
  no_create.create = false;
  std::string missing = dir.File("missing.sqlite");
  Failure failure = OpenFailure(missing, no_create);
  EXPECT_EQ(failure.kind, "other");
  ExpectOneLineNaming(failure.message, missing);
  EXPECT_FALSE(benchprof::testing::FileExists(missing));

  std::string nested = dir.File("no/such/dir/h.sqlite");
  failure = OpenFailure(nested);
  EXPECT_EQ(failure.kind, "other");
  ExpectOneLineNaming(failure.message, nested);
  EXPECT_NE(failure.message.find("no directory"), std::string::npos) << failure.message;
}

TEST(SqliteOpenTest, AnEmptyPathIsRefused) {
  Failure failure = OpenFailure("");
  EXPECT_EQ(failure.kind, "other");
  EXPECT_NE(failure.message.find("empty"), std::string::npos) << failure.message;
}

TEST(SqliteOpenTest, ANewFileIsADatabaseInWalMode) {
  TempDir dir;
  std::string path = dir.File("new.sqlite");
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {});
  ASSERT_TRUE(db.ok()) << db.status().message();
  StatusOr<SqlRows> mode = (*db)->Query("PRAGMA journal_mode");
  ASSERT_TRUE(mode.ok());
  EXPECT_EQ((*mode)[0][0], SqlValue(std::string("wal")));
  EXPECT_EQ((*db)->display_name(), path);
  EXPECT_EQ((*db)->dialect().name, "sqlite");
}

TEST(SqliteReadOnlyTest, AReadOnlyFileOpensForReadingAndRefusesWrites) {
  TempDir dir;
  std::string path = dir.File("h.sqlite");
  CreateDatabase(path, 5);
  auto read_then_write = [path]() -> Failure {
    StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {});
    if (!db.ok()) return {"cannot open: " + db.status().message(), ""};
    StatusOr<SqlRows> rows = (*db)->Query("SELECT count(*) FROM t");
    if (!rows.ok() || (*rows)[0][0] != SqlValue(int64_t{5})) {
      return {"cannot read: " + rows.status().message(), ""};
    }
    db->reset();
    return WriteFailure(path);
  };
  Failure failure;
  if (CanMount()) {
    failure = InChild([&]() -> Failure {
      if (std::string why = MakeReadOnlyInThisProcess(path); !why.empty()) {
        return {"child: " + why, ""};
      }
      return read_then_write();
    });
  } else {
    ASSERT_EQ(chmod(path.c_str(), 0444), 0);
    failure = read_then_write();
  }
  if (failure.kind.starts_with("child: ")) GTEST_SKIP() << failure.kind;
  EXPECT_EQ(failure.kind, "read-only") << failure.message;
  ExpectOneLineNaming(failure.message, path);
  EXPECT_EQ(ExitCodeFor(DatabaseErrorKind::kReadOnly), kExitDatabaseUnavailable);
}

TEST(SqliteReadOnlyTest, AReadOnlyDirectory) {
  TempDir dir;
  std::string existing = dir.File("h.sqlite");
  CreateDatabase(existing, 5);
  std::string fresh = dir.File("new.sqlite");
  auto both = [&]() -> Failure {
    Failure create = OpenFailure(fresh);
    Failure write = WriteFailure(existing);
    return {create.kind + "," + write.kind, create.message + "\n" + write.message};
  };
  Failure failure;
  if (CanMount()) {
    failure = InChild([&]() -> Failure {
      if (std::string why = MakeReadOnlyInThisProcess(dir.path()); !why.empty()) {
        return {"child: " + why, ""};
      }
      return both();
    });
  } else {
    ASSERT_EQ(chmod(dir.path().c_str(), 0555), 0);
    failure = both();
    chmod(dir.path().c_str(), 0755);
  }
  if (failure.kind.starts_with("child: ")) GTEST_SKIP() << failure.kind;
  EXPECT_EQ(failure.kind, "read-only,read-only") << failure.message;
  size_t newline = failure.message.find('\n');
  ASSERT_NE(newline, std::string::npos);
  ExpectOneLineNaming(failure.message.substr(0, newline), fresh);
  ExpectOneLineNaming(failure.message.substr(newline + 1), existing);
  EXPECT_FALSE(benchprof::testing::FileExists(fresh));
}

// Inserts 64 KiB rows in one transaction until a write fails; the kind and
// message of the failure.
Failure FillUntilFull(const std::string& path) {
  DatabaseErrorKind kind = DatabaseErrorKind::kOther;
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {}, &kind);
  if (!db.ok()) return {KindName(kind), db.status().message()};
  Database& database = **db;
  Status s = database.Begin();
  std::string payload(64 * 1024, 'x');
  for (int64_t n = 0; s.ok() && n < 10000; ++n) {
    payload[n % payload.size()] = static_cast<char>(n);
    s = database.Execute("INSERT INTO t VALUES ($1, $2)",
                         {SqlValue(n), SqlValue(SqlBlob{payload})});
  }
  if (s.ok()) s = database.Commit();
  if (s.ok()) return {"written", ""};
  Failure failure{KindName(database.last_error_kind()), s.message()};
  (void)database.Rollback();
  return failure;
}

TEST(SqliteDiskFullTest, TheFileSizeLimit) {
  TempDir dir;
  std::string path = dir.File("h.sqlite");
  CreateDatabase(path, 3);
  Failure failure = InChild([&]() -> Failure {
    // Past `ulimit -f` a write fails with EFBIG, as on a full disk (with
    // SIGXFSZ ignored; it would kill the process).
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = {512 * 1024, 512 * 1024};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return {"child: setrlimit failed", ""};
    return FillUntilFull(path);
  });
  EXPECT_EQ(failure.kind, "disk-full") << failure.message;
  ExpectOneLineNaming(failure.message, path);
  // Nothing of the failed transaction is left, and the database is whole.
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {});
  ASSERT_TRUE(db.ok()) << db.status().message();
  StatusOr<SqlRows> rows = (*db)->Query("SELECT count(*) FROM t");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0][0], SqlValue(int64_t{3}));
  StatusOr<SqlRows> check = (*db)->Query("PRAGMA integrity_check");
  ASSERT_TRUE(check.ok());
  EXPECT_EQ((*check)[0][0], SqlValue(std::string("ok")));
}

TEST(SqliteDiskFullTest, AFullFileSystem) {
  if (!CanMount()) GTEST_SKIP() << "mounting a small tmpfs needs root";
  TempDir dir;
  std::string path = dir.File("h.sqlite");
  Failure failure = InChild([&]() -> Failure {
    if (unshare(CLONE_NEWNS) != 0 ||
        mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        mount("tmpfs", dir.path().c_str(), "tmpfs", 0, "size=1m") != 0) {
      return {std::string("child: cannot mount a tmpfs: ") + std::strerror(errno), ""};
    }
    {
      StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {});
      if (!db.ok()) return {"child: " + db.status().message(), ""};
      if (!(*db)->Execute("CREATE TABLE t (n INTEGER, payload BLOB)").ok()) {
        return {"child: cannot create the table", ""};
      }
    }
    return FillUntilFull(path);
  });
  if (failure.kind.starts_with("child: ")) GTEST_SKIP() << failure.kind;
  EXPECT_EQ(failure.kind, "disk-full") << failure.message;
  ExpectOneLineNaming(failure.message, path);
}

// Two recorders are two processes (SQLite's locks between connections of
// one process are not the same code as between processes).
TEST(SqliteConcurrencyTest, TwoProcessesWritingOneFileLoseNoRow) {
  TempDir dir;
  std::string path = dir.File("h.sqlite");
  CreateDatabase(path, 0);
  constexpr int kTransactions = 200;
  std::vector<pid_t> children;
  for (int64_t writer = 0; writer < 2; ++writer) {
    pid_t child = fork();
    if (child == 0) {
      StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {});
      if (!db.ok()) _exit(2);
      for (int64_t n = 0; n < kTransactions; ++n) {
        DatabaseTransaction tx(**db);
        if (!tx.begun().ok()) _exit(3);
        for (int64_t row = 0; row < 5; ++row) {
          if (!(*db)
                   ->Execute("INSERT INTO t VALUES ($1, $2)",
                             {SqlValue(writer * 1000000 + n * 10 + row), SqlValue(SqlBlob{"x"})})
                   .ok()) {
            _exit(4);
          }
        }
        if (!tx.Commit().ok()) _exit(5);
      }
      _exit(0);
    }
    ASSERT_GT(child, 0);
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer exit status " << status;
  }
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(path, {});
  ASSERT_TRUE(db.ok()) << db.status().message();
  StatusOr<SqlRows> rows = (*db)->Query("SELECT count(*), count(DISTINCT n) FROM t");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0][0], SqlValue(int64_t{2 * kTransactions * 5}));
  EXPECT_EQ((*rows)[0][1], SqlValue(int64_t{2 * kTransactions * 5}));
}

}  // namespace
}  // namespace benchprof::history
