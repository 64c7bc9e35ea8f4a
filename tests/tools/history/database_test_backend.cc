#include "tools/history/database_test_backend.h"

#include <memory>

#include "support/subprocess.h"

namespace benchprof::history::testing {

std::string FreshDatabase(BackendName backend, std::string* why_not) {
  static int counter = 0;
  ++counter;
  if (backend == BackendName::kSqlite) {
    static auto* directory = new benchprof::testing::TempDir();
    return directory->File("history" + std::to_string(counter) + ".sqlite");
  }
  *why_not = "PostgreSQL backend not built yet";
  return "";
}

}  // namespace benchprof::history::testing
