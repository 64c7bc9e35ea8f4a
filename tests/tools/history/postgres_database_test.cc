// The failures of the PostgreSQL backend, each one line naming the URL
// without its password, with the kind the exit code comes from: no server
// (a socket directory with none, a closed TCP port), wrong credentials (a
// wrong or missing password, an unknown role or database), a read-only
// transaction, a full disk (a tablespace on a tiny tmpfs); and the
// throwaway cluster itself (gone after its destructor, or after its test
// program is killed).
#include "tools/history/postgres_database.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>

#include "support/postgres_cluster.h"
#include "support/subprocess.h"
#include "tools/history/database.h"

namespace benchprof::history {
namespace {

using benchprof::testing::PostgresCluster;

struct Failure {
  DatabaseErrorKind kind = DatabaseErrorKind::kOther;
  std::string message;  // "" if it opened
};

Failure OpenFailure(const std::string& url, const OpenOptions& options = {}) {
  Failure failure;
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(url, options, &failure.kind);
  if (!db.ok()) failure.message = db.status().message();
  return failure;
}

// Also prints the message, so that the test's log shows what a user sees.
void ExpectOneLineNaming(const std::string& message, const std::string& name) {
  std::printf("message: %s\n", message.c_str());
  EXPECT_EQ(message.rfind(name + ": ", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(PostgresUrlTest, MessagesNameTheUrlWithoutItsPassword) {
  EXPECT_EQ(UrlWithoutPassword("postgresql://ci:s3cret@perfdb/bench"),
            "postgresql://ci@perfdb/bench");
  EXPECT_EQ(UrlWithoutPassword("postgresql://ci@perfdb:5433/bench?sslmode=require"),
            "postgresql://ci@perfdb:5433/bench?sslmode=require");
  EXPECT_EQ(UrlWithoutPassword("postgres://u:p%40ss@h/db?password=x&user=u&sslmode=disable"),
            "postgres://u@h/db?user=u&sslmode=disable");
  EXPECT_EQ(UrlWithoutPassword("postgresql:///bench?host=/tmp/s&password=s3cret"),
            "postgresql:///bench?host=/tmp/s");
  EXPECT_EQ(UrlWithoutPassword("postgresql://perfdb"), "postgresql://perfdb");
  EXPECT_EQ(UrlWithoutPassword("postgresql://:pw@perfdb/x"), "postgresql://@perfdb/x");
}

TEST(PostgresKindTest, SqlStates) {
  EXPECT_EQ(KindOfSqlState("53100"), DatabaseErrorKind::kDiskFull);
  EXPECT_EQ(KindOfSqlState("25006"), DatabaseErrorKind::kReadOnly);
  EXPECT_EQ(KindOfSqlState("55P03"), DatabaseErrorKind::kBusy);
  EXPECT_EQ(KindOfSqlState("40P01"), DatabaseErrorKind::kBusy);
  EXPECT_EQ(KindOfSqlState("28P01"), DatabaseErrorKind::kAuthentication);
  EXPECT_EQ(KindOfSqlState("28000"), DatabaseErrorKind::kAuthentication);
  EXPECT_EQ(KindOfSqlState("3D000"), DatabaseErrorKind::kAuthentication);
  EXPECT_EQ(KindOfSqlState("08006"), DatabaseErrorKind::kUnreachable);
  EXPECT_EQ(KindOfSqlState("57P01"), DatabaseErrorKind::kUnreachable);
  EXPECT_EQ(KindOfSqlState("XX001"), DatabaseErrorKind::kNotADatabase);
  EXPECT_EQ(KindOfSqlState("42P01"), DatabaseErrorKind::kOther);  // no such table
  EXPECT_EQ(KindOfSqlState(""), DatabaseErrorKind::kOther);
}

TEST(PostgresUnreachableTest, ASocketDirectoryWithNoServer) {
  benchprof::testing::TempDir empty;
  std::string url = "postgresql:///bench?host=" + empty.path() + "&user=ci";
  Failure failure = OpenFailure(url);
  EXPECT_EQ(failure.kind, DatabaseErrorKind::kUnreachable) << failure.message;
  ExpectOneLineNaming(failure.message, url);
  EXPECT_EQ(ExitCodeFor(failure.kind), kExitDatabaseUnavailable);
}

TEST(PostgresUnreachableTest, AClosedTcpPort) {
  // A port that was free a moment ago: bound, then closed.
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  close(fd);
  std::string url = "postgresql://ci:s3cret@127.0.0.1:" + std::to_string(ntohs(address.sin_port)) +
                    "/bench?connect_timeout=5";
  Failure failure = OpenFailure(url);
  EXPECT_EQ(failure.kind, DatabaseErrorKind::kUnreachable) << failure.message;
  ExpectOneLineNaming(failure.message, UrlWithoutPassword(url));
  EXPECT_EQ(failure.message.find("s3cret"), std::string::npos) << failure.message;
}

TEST(PostgresUnreachableTest, AnUnparsableUrlIsBadInput) {
  std::string url = "postgresql://perfdb/bench?no_such_option=1";
  Failure failure = OpenFailure(url);
  EXPECT_EQ(failure.kind, DatabaseErrorKind::kOther) << failure.message;
  ExpectOneLineNaming(failure.message, url);
  EXPECT_EQ(ExitCodeFor(failure.kind), 3);
  // "postgres://" is PostgreSQL too, not a SQLite file of that name.
  std::string short_scheme = "postgres://perfdb/bench?no_such_option=1";
  failure = OpenFailure(short_scheme);
  EXPECT_NE(failure.message.find("not a valid PostgreSQL URL"), std::string::npos)
      << failure.message;
}

TEST(PostgresCredentialsTest, WrongPasswordUnknownRoleUnknownDatabase) {
  BENCHPROF_SHARED_POSTGRES_OR_SKIP(cluster);
  ASSERT_TRUE(cluster->CreateDatabase("credentials").ok());
  Status role = cluster->CreatePasswordRole("bp_writer", "right-password");
  ASSERT_TRUE(role.ok()) << role.message();

  // The right password opens: the role and its pg_hba.conf line work.
  Failure right = OpenFailure(cluster->Url("credentials", "bp_writer", "right-password"));
  EXPECT_EQ(right.message, "");

  std::string wrong_url = cluster->Url("credentials", "bp_writer", "s3cret-wrong");
  Failure wrong = OpenFailure(wrong_url);
  EXPECT_EQ(wrong.kind, DatabaseErrorKind::kAuthentication) << wrong.message;
  ExpectOneLineNaming(wrong.message, UrlWithoutPassword(wrong_url));
  EXPECT_EQ(wrong.message.find("s3cret-wrong"), std::string::npos) << wrong.message;

  Failure none = OpenFailure(cluster->Url("credentials", "bp_writer"));
  EXPECT_EQ(none.kind, DatabaseErrorKind::kAuthentication) << none.message;

  std::string no_role = cluster->Url("credentials", "no_such_role");
  Failure role_failure = OpenFailure(no_role);
  EXPECT_EQ(role_failure.kind, DatabaseErrorKind::kAuthentication) << role_failure.message;
  ExpectOneLineNaming(role_failure.message, no_role);

  std::string no_database = cluster->Url("no_such_database");
  Failure database_failure = OpenFailure(no_database);
  EXPECT_EQ(database_failure.kind, DatabaseErrorKind::kAuthentication) << database_failure.message;
  ExpectOneLineNaming(database_failure.message, no_database);
  EXPECT_EQ(ExitCodeFor(database_failure.kind), kExitDatabaseUnavailable);
}

TEST(PostgresReadOnlyTest, AReadOnlyTransactionRefusesWrites) {
  BENCHPROF_SHARED_POSTGRES_OR_SKIP(cluster);
  ASSERT_TRUE(cluster->CreateDatabase("read_only").ok());
  ASSERT_TRUE(cluster->RunSql("CREATE TABLE t (n BIGINT)", "read_only").ok());
  // As on a hot standby, or for a role whose transactions are read-only.
  std::string url = cluster->Url("read_only") + "&options=-c%20default_transaction_read_only%3Don";
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(url, {});
  ASSERT_TRUE(db.ok()) << db.status().message();
  StatusOr<SqlRows> rows = (*db)->Query("SELECT count(*) FROM t");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  Status s = (*db)->Begin();
  if (s.ok()) s = (*db)->Execute("INSERT INTO t VALUES ($1)", {SqlValue(int64_t{1})});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ((*db)->last_error_kind(), DatabaseErrorKind::kReadOnly) << s.message();
  ExpectOneLineNaming(s.message(), url);
  EXPECT_TRUE((*db)->Rollback().ok());
}

TEST(PostgresDiskFullTest, ATablespaceOnAFullDisk) {
  if (geteuid() != 0) GTEST_SKIP() << "a cluster with a small tmpfs tablespace needs root";
  PostgresCluster::Options options;
  options.small_tablespace_bytes = 1 << 20;
  std::string why_not;
  std::unique_ptr<PostgresCluster> cluster = PostgresCluster::Start(options, &why_not);
  if (!cluster) {
    if (benchprof::testing::PostgresRequired()) FAIL() << why_not;
    GTEST_SKIP() << why_not;
  }
  std::printf("postgres_cluster: a cluster with a small tablespace started in %.2f s\n",
              cluster->start_seconds());
  StatusOr<std::unique_ptr<Database>> db = OpenDatabase(cluster->Url(), {});
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE((*db)->Execute("CREATE TABLE t (n BIGINT, payload BYTEA) TABLESPACE small").ok());
  ASSERT_TRUE((*db)->Begin().ok());
  std::mt19937_64 random(1);
  Status s;
  for (int64_t n = 0; s.ok() && n < 1000; ++n) {
    // Incompressible, so that TOAST cannot shrink it.
    std::string payload(64 * 1024, '\0');
    for (char& c : payload) c = static_cast<char>(random());
    s = (*db)->Execute("INSERT INTO t VALUES ($1, $2)", {SqlValue(n), SqlValue(SqlBlob{payload})});
  }
  ASSERT_FALSE(s.ok()) << "64 MB went into a 1 MB tablespace";
  EXPECT_EQ((*db)->last_error_kind(), DatabaseErrorKind::kDiskFull) << s.message();
  ExpectOneLineNaming(s.message(), cluster->Url());
  EXPECT_TRUE((*db)->Rollback().ok());
}

TEST(PostgresClusterTest, TheDestructorStopsTheServerAndRemovesItsDirectory) {
  std::string why_not;
  std::unique_ptr<PostgresCluster> cluster = PostgresCluster::Start({}, &why_not);
  if (!cluster) {
    if (benchprof::testing::PostgresRequired()) FAIL() << why_not;
    GTEST_SKIP() << why_not;
  }
  std::printf("postgres_cluster: started in %.2f s\n", cluster->start_seconds());
  std::string directory = cluster->socket_directory();
  std::string url = cluster->Url();
  ASSERT_TRUE(OpenDatabase(url, {}).ok());
  cluster.reset();
  EXPECT_FALSE(benchprof::testing::FileExists(directory));
  EXPECT_EQ(OpenFailure(url).kind, DatabaseErrorKind::kUnreachable);
}

TEST(PostgresClusterTest, AKilledTestProgramLeavesNoClusterBehind) {
  int fds[2];
  // Close-on-exec: the server the child starts must not keep the pipe open.
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    std::string why_not;
    std::unique_ptr<PostgresCluster> cluster = PostgresCluster::Start({}, &why_not);
    std::string answer = cluster ? cluster->socket_directory() : "!" + why_not;
    (void)!write(fds[1], answer.data(), answer.size());
    close(fds[1]);
    pause();  // until killed, with the cluster still running
    _exit(0);
  }
  close(fds[1]);
  std::string answer;
  char buffer[512];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) answer.append(buffer, n);
  close(fds[0]);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  if (answer.empty() || answer[0] == '!') {
    if (benchprof::testing::PostgresRequired()) FAIL() << answer;
    GTEST_SKIP() << answer;
  }
  // The watchdog stops the server and removes the directory.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (benchprof::testing::FileExists(answer) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(benchprof::testing::FileExists(answer)) << answer;
}

}  // namespace
}  // namespace benchprof::history
