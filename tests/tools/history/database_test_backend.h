// A fresh, empty database of either backend for the database tests: a new
// SQLite file in a temporary directory, or a new database in a throwaway
// PostgreSQL cluster started once per test program (support/postgres_cluster.h).
//
//   std::string why_not;
//   bool must_fail;
//   std::string location = FreshDatabase(BackendName::kPostgresql, &why_not, &must_fail);
//   if (location.empty() && must_fail) FAIL() << why_not;
//   if (location.empty()) GTEST_SKIP() << why_not;
//
// Thread-safety: call from the test's main thread.
#ifndef BENCHPROF_TESTS_TOOLS_HISTORY_DATABASE_TEST_BACKEND_H_
#define BENCHPROF_TESTS_TOOLS_HISTORY_DATABASE_TEST_BACKEND_H_

#include <ostream>
#include <string>

namespace benchprof::history::testing {

enum class BackendName { kSqlite, kPostgresql };

// For GoogleTest's messages ("GetParam() = postgresql").
inline void PrintTo(BackendName backend, std::ostream* out) {
  *out << (backend == BackendName::kSqlite ? "sqlite" : "postgresql");
}

// The location (path or URL) of a new empty database, for OpenDatabase; ""
// with *why_not set when there is none. *must_fail says whether the test
// must fail for it rather than skip: a cluster that started but refused a
// new database, or PostgreSQL missing where BENCHPROF_REQUIRE_POSTGRES is
// set.
std::string FreshDatabase(BackendName backend, std::string* why_not, bool* must_fail);

}  // namespace benchprof::history::testing

#endif  // BENCHPROF_TESTS_TOOLS_HISTORY_DATABASE_TEST_BACKEND_H_
