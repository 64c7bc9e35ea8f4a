// ExactFilter, as Google Benchmark compiles its --benchmark_filter
// (std::regex, POSIX extended): it matches the one name it was made from,
// whatever the name's characters, and no other.
#include "tools/gate/side_runner.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace benchprof::gate {
namespace {

TEST(ExactFilterTest, MatchesItsNameAloneWhateverItsCharacters) {
  for (const std::string name :
       {"BM_Plain", "BM_Tmpl<std::array<int, 2>>/8/threads:2", "BM_x[0]", "BM_f{1}",
        "BM_a]b}c", "BM_regex.*+?|^$()\\d", "BM_x/real_time"}) {
    const std::string filter = ExactFilter(name);
    std::regex compiled;
    ASSERT_NO_THROW(compiled = std::regex(filter, std::regex::extended)) << filter;
    EXPECT_TRUE(std::regex_search(name, compiled)) << filter;
    EXPECT_FALSE(std::regex_search(name + "x", compiled)) << filter;
    EXPECT_FALSE(std::regex_search("x" + name, compiled)) << filter;
  }
}

}  // namespace
}  // namespace benchprof::gate
