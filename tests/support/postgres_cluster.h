// A throwaway PostgreSQL cluster for tests: initdb in a fresh temporary
// directory, the server listening on a Unix socket in that directory only
// (no TCP), trust authentication for its superuser and password
// authentication for the roles made with CreatePasswordRole. Built for
// speed, not safety (initdb --no-sync, fsync=off): about a second to start.
//
// PostgreSQL refuses to run as root: as root the server runs as the
// `postgres` user Debian's package creates, otherwise as the current user.
// The binaries are Debian's newest /usr/lib/postgresql/<version>/bin, or
// initdb and pg_ctl from PATH.
//
//   std::string why_not;
//   std::unique_ptr<PostgresCluster> cluster = PostgresCluster::Start({}, &why_not);
//   if (!cluster) GTEST_SKIP() << why_not;
//   ASSERT_TRUE(cluster->CreateDatabase("runs").ok());
//   OpenDatabase(cluster->Url("runs"), {});   // postgresql:///runs?host=/tmp/...&user=benchprof
//
// or, in a test program that shares one cluster between its tests:
//
//   BENCHPROF_SHARED_POSTGRES_OR_SKIP(cluster);   // PostgresCluster* cluster
//
// The server is stopped (pg_ctl stop -m immediate) and the directory removed
// when the object is destroyed, and also when the test program dies without
// destroying it (a crash, kill -9): a watchdog process started with the
// cluster does it when the program's end of a pipe closes.
//
// Thread-safety: thread-compatible; the URLs may be used from any thread.
#ifndef BENCHPROF_TESTS_SUPPORT_POSTGRES_CLUSTER_H_
#define BENCHPROF_TESTS_SUPPORT_POSTGRES_CLUSTER_H_

#include <sys/types.h>

#include <cstddef>
#include <memory>
#include <string>

#include "common/status.h"

namespace benchprof::testing {

class PostgresCluster {
 public:
  struct Options {
    // If > 0, the server runs in a mount namespace of its own where
    // small_tablespace_directory() is a tmpfs of this many bytes, and the
    // tablespace "small" lives there: tables created in it fill up, for
    // tests of a full disk (SQLSTATE 53100). Needs root or user namespaces.
    size_t small_tablespace_bytes = 0;
  };

  // Starts a cluster. Returns null with *why_not set (one line: what is
  // missing or what failed, with the server's last log line) if it cannot.
  static std::unique_ptr<PostgresCluster> Start(const Options& options, std::string* why_not);

  // Stops the server at once and removes its directory.
  ~PostgresCluster();
  PostgresCluster(const PostgresCluster&) = delete;
  PostgresCluster& operator=(const PostgresCluster&) = delete;

  // The directory of the server's socket (and of its data and log).
  const std::string& socket_directory() const { return directory_; }
  // The superuser's name ("benchprof"), who needs no password.
  static const char* superuser() { return "benchprof"; }
  // PostgreSQL's major version, e.g. "15".
  const std::string& version() const { return version_; }
  // How long Start took, in seconds.
  double start_seconds() const { return start_seconds_; }

  // The libpq URL of `database` for `user` (default: the superuser), with
  // `password` if not empty: postgresql:///DB?host=DIR&user=USER[&password=P].
  std::string Url(const std::string& database = "postgres", const std::string& user = "",
                  const std::string& password = "") const;

  // Runs `sql` (any number of statements) as the superuser in `database`,
  // with psql. Fails with psql's message.
  Status RunSql(const std::string& sql, const std::string& database = "postgres") const;

  // Creates an empty database owned by the superuser.
  Status CreateDatabase(const std::string& name) const;

  // Creates a role that may log in only with `password` (scram-sha-256 over
  // the socket), for tests of wrong credentials. Names are SQL identifiers
  // of lower-case letters, digits and '_'.
  Status CreatePasswordRole(const std::string& role, const std::string& password) const;

  // Where the "small" tablespace's tmpfs is mounted (in the server's mount
  // namespace only), when Options::small_tablespace_bytes was given.
  std::string small_tablespace_directory() const { return directory_ + "/small"; }

 private:
  PostgresCluster() = default;

  std::string directory_;
  std::string bin_directory_;
  std::string version_;
  double start_seconds_ = 0;
  pid_t watchdog_ = -1;
  int watchdog_pipe_ = -1;
};

// True if BENCHPROF_REQUIRE_POSTGRES is set (non-empty): then a test that
// cannot start a cluster fails instead of skipping.
bool PostgresRequired();

// One cluster for the whole test program, started by the first call (which
// prints how long that took) and stopped at exit. Null with *why_not set if
// it cannot start (the same answer to every later call).
PostgresCluster* SharedPostgresCluster(std::string* why_not);

}  // namespace benchprof::testing

// Declares `PostgresCluster* var` as the shared cluster, or skips the test
// (fails it when BENCHPROF_REQUIRE_POSTGRES is set) with the reason.
#define BENCHPROF_SHARED_POSTGRES_OR_SKIP(var)                          \
  std::string var##_why_not;                                            \
  ::benchprof::testing::PostgresCluster* var =                          \
      ::benchprof::testing::SharedPostgresCluster(&var##_why_not);      \
  if (var == nullptr) {                                                 \
    if (::benchprof::testing::PostgresRequired()) {                     \
      FAIL() << "BENCHPROF_REQUIRE_POSTGRES is set: " << var##_why_not; \
    }                                                                   \
    GTEST_SKIP() << var##_why_not;                                      \
  }

#endif  // BENCHPROF_TESTS_SUPPORT_POSTGRES_CLUSTER_H_
