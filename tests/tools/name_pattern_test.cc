// Benchmark-name patterns: POSIX extended syntax, searched anywhere.
#include "tools/compare/name_pattern.h"

#include <gtest/gtest.h>

namespace benchprof::compare {
namespace {

TEST(NamePatternTest, SearchesAnywhereInTheName) {
  const StatusOr<NamePattern> p = NamePattern::Compile("Alg.*/8");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->Search("BM_AlgorithmOne/8"));
  EXPECT_TRUE(p->Search("BM_AlgorithmOne/8/threads:2"));
  EXPECT_FALSE(p->Search("BM_AlgorithmOne/16"));
  EXPECT_EQ(p->expression(), "Alg.*/8");
  const StatusOr<NamePattern> anchored = NamePattern::Compile("^BM_A$|^BM_B(/|$)");
  ASSERT_TRUE(anchored.ok());
  EXPECT_TRUE(anchored->Search("BM_A"));
  EXPECT_TRUE(anchored->Search("BM_B/8"));
  EXPECT_FALSE(anchored->Search("BM_AB"));
  // Copies share the compiled expression and outlive the original.
  NamePattern copy = *anchored;
  EXPECT_TRUE(copy.Search("BM_B"));
}

TEST(NamePatternTest, InvalidExpressionsAreErrors) {
  for (const char* bad : {"BM_(", "BM_[", "a{2,1}", "*x"}) {
    const StatusOr<NamePattern> p = NamePattern::Compile(bad);
    EXPECT_FALSE(p.ok()) << bad;
    if (!p.ok()) {
      EXPECT_FALSE(p.status().message().empty());
    }
  }
  EXPECT_FALSE(NamePattern::Compile(std::string_view("a\0b", 3)).ok());
}

}  // namespace
}  // namespace benchprof::compare
