// cli/shard.h: the shard flag's syntax, the round-robin split, and the
// filter that selects exactly a shard's names.
#include "cli/shard.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

namespace benchprof::cli {
namespace {

TEST(ShardTest, ParsesIndexOfTotal) {
  StatusOr<Shard> shard = ParseShard("2/4");
  ASSERT_TRUE(shard.ok()) << shard.status().message();
  EXPECT_EQ(*shard, (Shard{2, 4}));
  EXPECT_EQ(shard->Name(), "2/4");
  EXPECT_TRUE(ParseShard("0/1").ok());
}

TEST(ShardTest, RefusesMalformedAndOutOfRangeShards) {
  for (const char* bad : {"x", "2", "/4", "2/", "0/0", "5/4", "4/4", "-1/4", "+1/4", " 1/4", "1/4 ",
                          "0x1/4", "1/2/3", "1.0/4", "0/100001"}) {
    EXPECT_FALSE(ParseShard(bad).ok()) << bad;
  }
  EXPECT_EQ(ParseShard("5/4").status().message(),
            "shard index 5 is out of range for 4 shards (0 to 3)");
}

TEST(ShardTest, NamesAreDealtOutInTurn) {
  const std::vector<std::string> listed = {"a", "b", "c", "d", "e"};
  EXPECT_EQ(NamesInShard(listed, {0, 2}), (std::vector<std::string>{"a", "c", "e"}));
  EXPECT_EQ(NamesInShard(listed, {1, 2}), (std::vector<std::string>{"b", "d"}));
  EXPECT_TRUE(NamesInShard(listed, {5, 6}).empty());
  EXPECT_EQ(NamesInShard(listed, {0, 1}), listed);
}

TEST(ShardTest, ANameListedTwiceIsOneInstanceForTheSplit) {
  const std::vector<std::string> listed = {"a", "b", "a", "c"};
  EXPECT_EQ(NamesInShard(listed, {0, 2}), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(NamesInShard(listed, {1, 2}), (std::vector<std::string>{"b"}));
}

// The filter as the library compiles and matches it: POSIX extended,
// found anywhere in the name.
bool Selects(const std::string& filter, const std::string& name) {
  return std::regex_search(name, std::regex(filter, std::regex::extended));
}

TEST(ShardTest, TheFilterSelectsExactlyTheNames) {
  const std::vector<std::string> names = {"BM_P",           "BM_P/8",       "BM_Meta.+*?",
                                          "BM_Meta()[]{}",  "BM_Meta|^$\\", "BM_Tmpl<int>",
                                          "BM_x/threads:2", "BM_Meta a,b=c"};
  const std::string filter = ExactNamesFilter(names);
  for (const std::string& name : names) EXPECT_TRUE(Selects(filter, name)) << name << " " << filter;
  for (const std::string other : {"BM_PX", "BM_P/", "BM_P/80", "xBM_P", "BM_Meta.+*", "BM_Meta",
                                  "BM_MetaX+*?", "BM_Tmpl<double>", "BM_x/threads:20", "BM_"}) {
    EXPECT_FALSE(Selects(filter, other)) << other << " " << filter;
  }
}

TEST(ShardTest, TheFilterSharesPrefixes) {
  EXPECT_EQ(ExactNamesFilter(std::vector<std::string>{"BM_A", "BM_B/8", "BM_B/64"}),
            "^BM_(A|B/(64|8))$");
  EXPECT_EQ(ExactNamesFilter(std::vector<std::string>{"BM_P", "BM_P/8"}), "^BM_P(/8)?$");
}

// The library's expressions hold at most 100,000 states (libstdc++'s
// _GLIBCXX_REGEX_STATE_LIMIT), about one per byte of the filter: 2,000
// names that share only their family's name fit, 4,000 do not (PlanShard
// then says to use more shards).
TEST(ShardTest, TwoThousandLongNamesMakeAFilterTheLibraryCanCompile) {
  std::vector<std::string> names;
  for (int i = 0; i < 2000; ++i) {
    names.push_back("BM_SomeRatherLongFamilyName/" + std::to_string(i * 7) +
                    "/real_time/threads:" + std::to_string(1 + i % 4));
  }
  const std::string filter = ExactNamesFilter(names);
  std::printf("2000 names of %zu bytes: a filter of %zu bytes\n", names[1000].size(),
              filter.size());
  const std::regex compiled(filter, std::regex::extended);
  EXPECT_TRUE(std::regex_search(names[1234], compiled));
  EXPECT_FALSE(std::regex_search("BM_SomeRatherLongFamilyName/1/real_time/threads:1", compiled));
}

}  // namespace
}  // namespace benchprof::cli
