// merge/profile_merge.h: profiles of shards as one — samples summed by
// concatenation with their labels, shared mappings, functions and
// locations kept once across the shards' different load addresses, and
// profiles of different kinds refused.
#include "tools/merge/profile_merge.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "encode/pprof_reader.h"
#include "encode/pprof_writer.h"

namespace benchprof::merge {
namespace {

using encode::ProfileData;

// A shard's CPU profile: the executable loaded at `base`, two functions,
// samples of `benchmark`: main -> Work `work` times, main -> Other once.
ProfileData Shard(uint64_t base, const std::string& benchmark, int64_t work) {
  ProfileData p;
  p.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  p.period_type = {"cpu", "nanoseconds"};
  p.period = 10'000'000;
  p.time_nanos = static_cast<int64_t>(base);
  p.duration_nanos = 1'000'000'000;
  p.comments = {"benchprof: 100 Hz"};
  encode::ProfileMapping& exe = p.mappings.emplace_back();
  exe.start = base;
  exe.limit = base + 0x10000;
  exe.file_offset = 0x1000;
  exe.filename = "/build/bench";
  exe.build_id = "abc123";
  exe.has_functions = exe.has_filenames = exe.has_line_numbers = true;
  p.functions = {{"main", "main", "/src/main.cc", 1},
                 {"Work", "_Z4Workv", "/src/work.cc", 10},
                 {"Other", "_Z5Otherv", "/src/work.cc", 20}};
  p.locations = {
      {base + 0x100, 0, {{0, 5}}}, {base + 0x200, 0, {{1, 12}}}, {base + 0x300, 0, {{2, 22}}}};
  p.samples.push_back({{1, 0}, {work, work * p.period}, {{"benchmark", benchmark, 0, ""}}});
  p.samples.push_back({{2, 0}, {1, p.period}, {{"benchmark", benchmark, 0, ""}}});
  return p;
}

int64_t Total(const ProfileData& p, size_t value) {
  int64_t total = 0;
  for (const encode::ProfileSample& s : p.samples) total += s.values[value];
  return total;
}

TEST(ProfileMergeTest, ShardsLoadedAtDifferentAddressesShareTheirLocations) {
  const std::vector<NamedProfile> shards = {{"cpu.0.pprof", Shard(0x555500000000, "BM_A", 3)},
                                            {"cpu.1.pprof", Shard(0x7f0000000000, "BM_B", 5)}};
  StatusOr<ProfileData> merged = MergeProfiles(shards);
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(merged->mappings.size(), 1u);
  EXPECT_EQ(merged->mappings[0].start, 0x555500000000u);
  EXPECT_EQ(merged->functions.size(), 3u);
  EXPECT_EQ(merged->locations.size(), 3u);
  ASSERT_EQ(merged->samples.size(), 4u);
  EXPECT_EQ(Total(*merged, 0), 3 + 1 + 5 + 1);
  EXPECT_EQ(Total(*merged, 1), Total(shards[0].profile, 1) + Total(shards[1].profile, 1));
  // The second shard's samples point at the first's locations, labels kept.
  EXPECT_EQ(merged->samples[2].location_indexes, merged->samples[0].location_indexes);
  EXPECT_EQ(merged->samples[2].labels[0].str, "BM_B");
  EXPECT_EQ(merged->samples[0].labels[0].str, "BM_A");
  EXPECT_EQ(merged->comments, std::vector<std::string>{"benchprof: 100 Hz"});
  EXPECT_EQ(merged->time_nanos, 0x555500000000);
  EXPECT_EQ(merged->duration_nanos, 2'000'000'000);
  // It is a profile pprof reads.
  EXPECT_TRUE(encode::ValidateProfile(*merged).ok());
  StatusOr<ProfileData> read = encode::ReadProfile(encode::SerializeProfile(*merged));
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, *merged);
}

TEST(ProfileMergeTest, DifferentExecutablesStayApart) {
  ProfileData other = Shard(0x7f0000000000, "BM_B", 5);
  other.mappings[0].build_id = "def456";
  other.mappings[0].filename = "/build/other_bench";
  const std::vector<NamedProfile> shards = {{"a", Shard(0x555500000000, "BM_A", 3)}, {"b", other}};
  StatusOr<ProfileData> merged = MergeProfiles(shards);
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(merged->mappings.size(), 2u);
  EXPECT_EQ(merged->functions.size(), 3u);  // same names, files and lines: one function
  EXPECT_EQ(merged->locations.size(), 6u);
  EXPECT_EQ(merged->locations[3].mapping_index, 1u);
  EXPECT_EQ(merged->locations[3].address, 0x7f0000000100u);
}

TEST(ProfileMergeTest, ProfilesOfDifferentKindsAreRefused) {
  ProfileData heap = Shard(0x1000, "BM_A", 1);
  heap.sample_types = {{"alloc_objects", "count"}, {"alloc_space", "bytes"}};
  heap.period_type = {"space", "bytes"};
  const std::vector<NamedProfile> shards = {{"cpu.pprof", Shard(0x1000, "BM_A", 1)},
                                            {"mem.pprof", heap}};
  StatusOr<ProfileData> merged = MergeProfiles(shards);
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.status().message(),
            "cpu.pprof (samples/count, cpu/nanoseconds) and mem.pprof (alloc_objects/count, "
            "alloc_space/bytes) are different kinds of profile");

  ProfileData wall = Shard(0x1000, "BM_A", 1);
  wall.period_type = {"wall", "nanoseconds"};
  const std::vector<NamedProfile> periods = {{"cpu.pprof", Shard(0x1000, "BM_A", 1)},
                                             {"wall.pprof", wall}};
  EXPECT_FALSE(MergeProfiles(periods).ok());
}

TEST(ProfileMergeTest, OneProfileMergesIntoItself) {
  const std::vector<NamedProfile> one = {{"cpu.pprof", Shard(0x1000, "BM_A", 2)}};
  StatusOr<ProfileData> merged = MergeProfiles(one);
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(*merged, one[0].profile);
}

}  // namespace
}  // namespace benchprof::merge
