// Benchmark-name patterns: POSIX extended syntax, searched anywhere.
#include "tools/compare/name_pattern.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

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

TEST(NamePatternTest, RepetitionsThatExpandBeyondBoundsAreRefusedAtOnce) {
  // Found by fuzz_flags: glibc's regcomp doubles "e++...+" with every '+'
  // (30 took minutes and gigabytes) and copies "(a{999}){999}" a million
  // times.
  for (const std::string& bomb :
       {"e+" + std::string(30, '+'), std::string("(a{999}){999}"),
        std::string("((((((((((((((((((x*)*)*)*)*)*)*)*)*)*)*)*)*)*)*)*)*)*)*"),
        std::string("[]+]{9999}{99}"),
        // An unmatched ')' is an ordinary character to glibc (fuzz_flags).
        "b))" + std::string(30, '+')}) {
    const StatusOr<NamePattern> p = NamePattern::Compile(bomb);
    ASSERT_FALSE(p.ok()) << bomb;
    EXPECT_EQ(p.status().message(),
              "repetitions nested too deep or too large (over 100000 atoms once expanded)");
  }
  // Found by fuzz_flags: after a '?' or '*', each '+' makes glibc's closure
  // computation about 4.5 times slower ("a?" and 12 '+' took 8 s, with 8,192
  // atoms); an unbounded loop over anything that can match nothing is as
  // bad ("((a?)*){1000}" took 2.5 s).
  for (const std::string& bomb :
       {"a?" + std::string(12, '+'), "a*" + std::string(12, '+'), std::string("((a?)*){1000}"),
        std::string("((a?)+){500}"), "()" + std::string(18, '+'), std::string("(a|)*"),
        std::string("(b*c?){2,}"), "BM_.*:a?" + std::string(11, '+') + "#++;+"}) {
    const StatusOr<NamePattern> p = NamePattern::Compile(bomb);
    ASSERT_FALSE(p.ok()) << bomb;
    EXPECT_EQ(p.status().message(),
              "an unbounded repetition of something that can match nothing (like a?+ or (a*)*)");
  }
  // Patterns people write still compile and match.
  for (const auto& [pattern, name] :
       std::vector<std::pair<std::string, std::string>>{{"BM_(Alg|Rss).*/8", "BM_RssSearch/8"},
                                                        {"a{2,5}b+c?", "xaaabbc"},
                                                        {"[]+]+x", "]+]x"},
                                                        {"\\++", "+"},
                                                        {"(((a+)+)+)b", "aab"},
                                                        {"[[:digit:]]{1,3}$", "BM_A/512"},
                                                        {"BM_.*/threads:[0-9]+$", "BM_A/threads:2"},
                                                        {"(ab?)+c", "xabac"},
                                                        {"(a?b){2,}", "bab"},
                                                        {"(x|y?){3}z", "yz"},
                                                        {"a*b*$", "cab"}}) {
    const StatusOr<NamePattern> p = NamePattern::Compile(pattern);
    ASSERT_TRUE(p.ok()) << pattern << ": " << p.status().message();
    EXPECT_TRUE(p->Search(name)) << pattern;
  }
}

}  // namespace
}  // namespace benchprof::compare
