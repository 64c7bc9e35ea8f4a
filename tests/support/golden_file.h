// Golden-file checks: compare an output with a file kept in the repository,
// or rewrite the file when BENCHPROF_UPDATE_GOLDEN is set (then review the
// diff before committing it).
//
//   ExpectMatchesGolden(std::string(GOLDEN_DIR) + "/compare.txt", output);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TESTS_SUPPORT_GOLDEN_FILE_H_
#define BENCHPROF_TESTS_SUPPORT_GOLDEN_FILE_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "support/subprocess.h"

namespace benchprof::testing {

// Expects `actual` to equal the content of the golden file `path`.
inline void ExpectMatchesGolden(const std::string& path, const std::string& actual) {
  if (std::getenv("BENCHPROF_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
    return;
  }
  const std::string expected = ReadFile(path);
  ASSERT_FALSE(expected.empty()) << "missing golden file " << path;
  EXPECT_EQ(actual, expected) << "differs from " << path
                              << " (BENCHPROF_UPDATE_GOLDEN=1 to accept)";
}

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_GOLDEN_FILE_H_
