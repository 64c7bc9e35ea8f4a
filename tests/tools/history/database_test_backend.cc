#include "tools/history/database_test_backend.h"

#include "support/postgres_cluster.h"
#include "support/subprocess.h"

namespace benchprof::history::testing {

std::string FreshDatabase(BackendName backend, std::string* why_not, bool* must_fail) {
  *must_fail = false;
  static int counter = 0;
  ++counter;
  if (backend == BackendName::kSqlite) {
    static auto* directory = new benchprof::testing::TempDir();
    return directory->File("history" + std::to_string(counter) + ".sqlite");
  }
  benchprof::testing::PostgresCluster* cluster = benchprof::testing::SharedPostgresCluster(why_not);
  if (cluster == nullptr) {
    if (benchprof::testing::PostgresRequired()) {
      *why_not = "BENCHPROF_REQUIRE_POSTGRES is set: " + *why_not;
      *must_fail = true;
    }
    return "";
  }
  std::string name = "test_" + std::to_string(counter);
  if (Status s = cluster->CreateDatabase(name); !s.ok()) {
    *why_not = s.message();
    *must_fail = true;
    return "";
  }
  return cluster->Url(name);
}

}  // namespace benchprof::history::testing
