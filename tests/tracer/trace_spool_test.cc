// TraceSpool: raw records go in and come back out in order, each run with
// the thread that wrote it, through the file system.
#include "tracer/trace_spool.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <memory>
#include <vector>

#include "support/subprocess.h"

namespace benchprof::tracer {
namespace {

std::vector<RecordSlot> MakeRecords(uint32_t count, uint64_t first_ticks) {
  std::vector<RecordSlot> slots(count);
  for (uint32_t i = 0; i < count; ++i) {
    slots[i].record = Record{first_ticks + i, i, 2 * i, Meta(RecordKind::kRegionBegin)};
  }
  return slots;
}

TEST(TraceSpoolTest, ReplaysEveryRunInOrderWithItsThread) {
  StatusOr<TraceSpool> spool = TraceSpool::Create();
  ASSERT_TRUE(spool.ok()) << spool.status().message();
  const std::vector<RecordSlot> first = MakeRecords(3, 100);
  const std::vector<RecordSlot> full = MakeRecords(kSlotsPerChunk, 1000);
  ASSERT_TRUE(spool->Append(11, first.data(), 3).ok());
  ASSERT_TRUE(spool->Append(22, full.data(), kSlotsPerChunk).ok());
  ASSERT_TRUE(spool->Append(11, first.data(), 0).ok());  // nothing to add
  EXPECT_GT(spool->size(), (3 + kSlotsPerChunk) * sizeof(RecordSlot));

  std::vector<std::pair<pid_t, uint64_t>> seen;  // (thread, ticks)
  ASSERT_TRUE(spool
                  ->Replay(0, [&](const Chunk& chunk, uint32_t count) {
                    for (uint32_t i = 0; i < count; ++i) {
                      seen.emplace_back(chunk.header.tid, chunk.slots[i].record.ticks);
                    }
                  })
                  .ok());
  ASSERT_EQ(seen.size(), 3 + kSlotsPerChunk);
  EXPECT_EQ(seen[0], (std::pair<pid_t, uint64_t>{11, 100}));
  EXPECT_EQ(seen[2], (std::pair<pid_t, uint64_t>{11, 102}));
  EXPECT_EQ(seen[3], (std::pair<pid_t, uint64_t>{22, 1000}));
  EXPECT_EQ(seen.back(), (std::pair<pid_t, uint64_t>{22, 1000 + kSlotsPerChunk - 1}));
}

TEST(TraceSpoolTest, LeavesNoFileBehind) {
  testing::TempDir dir;
  setenv("TMPDIR", dir.path().c_str(), 1);
  {
    StatusOr<TraceSpool> spool = TraceSpool::Create();
    ASSERT_TRUE(spool.ok()) << spool.status().message();
    const std::vector<RecordSlot> records = MakeRecords(5, 1);
    ASSERT_TRUE(spool->Append(1, records.data(), 5).ok());
    EXPECT_TRUE(testing::ListDirectory(dir.path()).empty());
  }
  EXPECT_TRUE(testing::ListDirectory(dir.path()).empty());
  unsetenv("TMPDIR");
}

TEST(TraceSpoolTest, AnUnusableDirectoryIsAnError) {
  setenv("TMPDIR", "/nonexistent-benchprof-dir", 1);
  StatusOr<TraceSpool> spool = TraceSpool::Create();
  unsetenv("TMPDIR");
  ASSERT_FALSE(spool.ok());
  EXPECT_NE(spool.status().message().find("/nonexistent-benchprof-dir"), std::string::npos);
}

}  // namespace
}  // namespace benchprof::tracer
