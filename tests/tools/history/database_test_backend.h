// A fresh, empty database of either backend for the database tests: a new
// SQLite file in a temporary directory, or a new database in a throwaway
// PostgreSQL cluster started once per test program (support/postgres_cluster.h).
//
//   std::string why_not;
//   std::string location = FreshDatabase(BackendName::kPostgresql, &why_not);
//   if (location.empty()) GTEST_SKIP() << why_not;
//
// Thread-safety: call from the test's main thread.
#ifndef BENCHPROF_TESTS_TOOLS_HISTORY_DATABASE_TEST_BACKEND_H_
#define BENCHPROF_TESTS_TOOLS_HISTORY_DATABASE_TEST_BACKEND_H_

#include <string>

namespace benchprof::history::testing {

enum class BackendName { kSqlite, kPostgresql };

// The location (path or URL) of a new empty database, for OpenDatabase; ""
// with *why_not set when the backend is not available here. Fails the test
// instead (ADD_FAILURE) when PostgreSQL is missing and
// BENCHPROF_REQUIRE_POSTGRES is set.
std::string FreshDatabase(BackendName backend, std::string* why_not);

}  // namespace benchprof::history::testing

#endif  // BENCHPROF_TESTS_TOOLS_HISTORY_DATABASE_TEST_BACKEND_H_
