// The flight recorder's store: records packed losslessly (record_packer.h),
// and the window (trace_window.h) keeping the newest of them, within its
// memory bound, with the names of the threads it still holds.
#include "tracer/trace_window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "tracer/event_emitter.h"
#include "tracer/record_packer.h"

namespace benchprof::tracer {
namespace {

const char kRegionName[] = "Unmarshal";

// One record per slot, region begins at the given ticks.
std::vector<RecordSlot> Regions(uint64_t first_ticks, uint32_t count, uint64_t step = 1) {
  std::vector<RecordSlot> slots(count);
  for (uint32_t i = 0; i < count; ++i) {
    slots[i].record = Record{first_ticks + i * step, i % 7, reinterpret_cast<uint64_t>(kRegionName),
                             Meta(RecordKind::kRegionBegin)};
  }
  return slots;
}

// A thread name record as the thread table writes it: `named` 0 names the
// recording thread.
std::vector<RecordSlot> NameRecord(pid_t named, const std::string& name, NameRank rank,
                                   uint64_t ticks) {
  std::vector<RecordSlot> slots(1 + kThreadNameSlots);
  slots[0].record =
      Record{ticks, static_cast<uint64_t>(named), static_cast<uint64_t>(rank),
             Meta(RecordKind::kThreadName, static_cast<uint32_t>(name.size()), kThreadNameSlots)};
  std::memcpy(slots[1].bytes, name.data(), name.size());
  return slots;
}

struct Replayed {
  pid_t tid;
  Record record;
  std::string payload;
};

std::vector<Replayed> ReplayAll(TraceWindow& window, uint64_t end_ticks) {
  std::vector<Replayed> seen;
  const Status replayed = window.Replay(end_ticks, [&](const Chunk& chunk, uint32_t count) {
    for (uint32_t i = 0; i < count;) {
      const Record& r = chunk.slots[i].record;
      const uint32_t payload = r.payload();
      seen.push_back({chunk.header.tid, r,
                      std::string(chunk.slots[i + 1].bytes, payload * sizeof(RecordSlot))});
      i += 1 + payload;
    }
  });
  EXPECT_TRUE(replayed.ok()) << replayed.message();
  return seen;
}

TEST(RecordPackerTest, EveryKindRoundTripsExactlyFromAFreshState) {
  std::vector<RecordSlot> slots;
  auto add = [&](Record r, const std::string& payload = {}) {
    slots.push_back(RecordSlot{r});
    const uint32_t payload_slots = r.payload();
    for (uint32_t i = 0; i < payload_slots; ++i) {
      RecordSlot extra{};
      const size_t at = i * sizeof(RecordSlot);
      if (at < payload.size()) {
        std::memcpy(extra.bytes, payload.data() + at,
                    std::min(sizeof(RecordSlot), payload.size() - at));
      }
      slots.push_back(extra);
    }
  };
  const std::string message = "a log message with a trailing zero\0", name = "rss-pool";
  add(Record{1'000'000'000'000, 0, 0, Meta(RecordKind::kThreadStart)});
  add(Record{1'000'000'000'100, 3, reinterpret_cast<uint64_t>(kRegionName),
             Meta(RecordKind::kRegionBegin)});
  add(Record{999'999'999'000, ~uint64_t{0}, 0x8000'0000'0000'0000, Meta(RecordKind::kRun, 7, 1)},
      std::string("\x01\x02\x03\x04\x05\x06\x07\x08\0\0\0\0\0\0\0\x09", 16));
  add(Record{1'000'000'000'200, 12, 0x3fe0'0000'0000'0000,
             Meta(RecordKind::kCpuUsage, static_cast<uint32_t>(name.size()), 1)},
      name);
  add(Record{1'000'000'000'300, 3, 0x1234,
             Meta(RecordKind::kLog, static_cast<uint32_t>(message.size()),
                  PayloadSlots(message.size()))},
      message);
  add(Record{1'000'000'000'400, 3, reinterpret_cast<uint64_t>(kRegionName),
             Meta(RecordKind::kRegionEnd)});
  add(Record{0, 0, 0, Meta(RecordKind::kInvalid, UINT32_MAX, 0)});

  std::vector<uint8_t> packed(slots.size() * MaxPackedBytes(255));
  PackState state;
  size_t used = 0;
  for (size_t i = 0; i < slots.size(); i += 1 + slots[i].record.payload()) {
    used += PackRecord(&slots[i], state, packed.data() + used);
  }
  std::vector<RecordSlot> unpacked(slots.size());
  PackState read_state;
  size_t read = 0;
  uint32_t filled = 0;
  while (read < used) {
    const size_t n =
        UnpackRecord(packed.data() + read, packed.data() + used, read_state,
                     unpacked.data() + filled, static_cast<uint32_t>(unpacked.size() - filled));
    ASSERT_GT(n, 0u) << "at byte " << read;
    filled += 1 + unpacked[filled].record.payload();
    read += n;
  }
  ASSERT_EQ(filled, slots.size());
  EXPECT_EQ(std::memcmp(unpacked.data(), slots.data(), slots.size() * sizeof(RecordSlot)), 0);
}

TEST(RecordPackerTest, ARegionTakesAQuarterOfItsSlotAndCutInputIsRefused) {
  const std::vector<RecordSlot> regions = Regions(5'000'000'000, 1000, 7'000);
  std::vector<uint8_t> packed(regions.size() * MaxPackedBytes(0));
  PackState state;
  size_t used = 0;
  for (const RecordSlot& slot : regions) used += PackRecord(&slot, state, packed.data() + used);
  // The first record carries the full time; the rest differences.
  EXPECT_LE(used, regions.size() * sizeof(RecordSlot) / 4);
  RecordSlot out[2];
  PackState read_state;
  const size_t first = UnpackRecord(packed.data(), packed.data() + used, read_state, out, 2);
  ASSERT_GT(first, 2u);
  PackState cut_state;
  EXPECT_EQ(UnpackRecord(packed.data(), packed.data() + first - 1, cut_state, out, 2), 0u);
  EXPECT_EQ(UnpackRecord(packed.data(), packed.data(), cut_state, out, 2), 0u);
}

TEST(TraceWindowTest, KeepsEverythingWhileTheRunIsShorterThanTheWindow) {
  TraceWindow window(/*window_ticks=*/1'000'000, /*max_bytes=*/8 * TraceWindow::kBlockBytes);
  const std::vector<RecordSlot> a = Regions(100, 3), b = Regions(200, kSlotsPerChunk);
  ASSERT_TRUE(window.Append(11, a.data(), 3).ok());
  ASSERT_TRUE(window.Append(22, b.data(), kSlotsPerChunk).ok());
  ASSERT_TRUE(window.Append(11, a.data(), 0).ok());
  const std::vector<Replayed> seen = ReplayAll(window, 5000);
  ASSERT_EQ(seen.size(), 3 + kSlotsPerChunk);
  EXPECT_EQ(seen[0].tid, 11);
  EXPECT_EQ(seen[2].record.ticks, 102u);
  EXPECT_EQ(seen[3].tid, 22);
  EXPECT_EQ(seen.back().record.ticks, 200u + kSlotsPerChunk - 1);
  EXPECT_EQ(std::memcmp(&seen.back().record, &b.back().record, sizeof(Record)), 0);
  EXPECT_EQ(window.discarded_records(), 0u);
  EXPECT_EQ(window.kept_since_ticks(), 0u);
}

// Two threads record for ten windows' time: what is written at the end is
// every record of the last window and nothing older than the window plus
// one block's worth of records.
TEST(TraceWindowTest, KeepsTheLastWindowAndDropsWhatIsOlder) {
  constexpr uint64_t kWindow = 1'000'000;
  TraceWindow window(kWindow, 64 * TraceWindow::kBlockBytes);
  uint64_t ticks = 0, appended = 0;
  for (int run = 0; run < 500; ++run) {
    const std::vector<RecordSlot> records = Regions(ticks, kSlotsPerChunk, 10);
    ASSERT_TRUE(window.Append(run % 2 == 0 ? 1 : 2, records.data(), kSlotsPerChunk).ok());
    ticks += kSlotsPerChunk * 10;
    appended += kSlotsPerChunk;
  }
  const uint64_t end = ticks;
  const std::vector<Replayed> seen = ReplayAll(window, end);
  ASSERT_FALSE(seen.empty());
  uint64_t oldest = UINT64_MAX, in_window = 0;
  for (const Replayed& r : seen) {
    oldest = std::min(oldest, r.record.ticks);
    if (r.record.ticks >= end - kWindow) ++in_window;
  }
  EXPECT_EQ(in_window, kWindow / 10);  // every record of the window
  // A block holds about 30,000 packed regions (300,000 ticks here).
  EXPECT_GE(oldest, end - kWindow - 400'000);
  EXPECT_EQ(window.discarded_records() + seen.size(), appended);
  EXPECT_GT(window.kept_since_ticks(), 0u);
  EXPECT_LE(window.kept_since_ticks(), end - kWindow);
}

// A window far longer than the memory allows: the bound holds, the newest
// records are kept, the rest is counted as discarded.
TEST(TraceWindowTest, StaysWithinItsMemoryBoundWhateverTheRunsLength) {
  constexpr size_t kBound = 4 * TraceWindow::kBlockBytes;
  TraceWindow window(/*window_ticks=*/UINT64_MAX / 2, kBound);
  uint64_t ticks = 0, appended = 0;
  for (int run = 0; run < 2000; ++run) {
    const std::vector<RecordSlot> records = Regions(ticks, kSlotsPerChunk, 3);
    ASSERT_TRUE(window.Append(5, records.data(), kSlotsPerChunk).ok());
    ticks += kSlotsPerChunk * 3;
    appended += kSlotsPerChunk;
    ASSERT_LE(window.bytes_in_use(), kBound);
  }
  EXPECT_EQ(window.bytes_in_use(), kBound);
  const std::vector<Replayed> seen = ReplayAll(window, ticks);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back().record.ticks, ticks - 3);
  EXPECT_GT(seen.size(), 3 * TraceWindow::kBlockBytes / 8);  // three full blocks at least
  EXPECT_EQ(window.discarded_records() + seen.size(), appended);
}

// A thread's name is in its first chunk only; the window replays it first
// while it holds records of the thread, and forgets it when it no longer
// does.
TEST(TraceWindowTest, ReplaysTheBestNameOfEveryThreadItStillHolds) {
  constexpr uint64_t kWindow = 1'000'000;
  TraceWindow window(kWindow, 64 * TraceWindow::kBlockBytes);
  const std::vector<RecordSlot> own = NameRecord(0, "rss-pool", NameRank::kSystem, 1);
  const std::vector<RecordSlot> given = NameRecord(0, "worker 1", NameRank::kExplicit, 2);
  const std::vector<RecordSlot> lower = NameRecord(0, "renamed", NameRank::kSystem, 3);
  const std::vector<RecordSlot> of_other = NameRecord(33, "sampled", NameRank::kSystem, 4);
  const std::vector<RecordSlot> gone = NameRecord(0, "early thread", NameRank::kExplicit, 5);
  ASSERT_TRUE(window.Append(31, own.data(), static_cast<uint32_t>(own.size())).ok());
  ASSERT_TRUE(window.Append(31, given.data(), static_cast<uint32_t>(given.size())).ok());
  ASSERT_TRUE(window.Append(31, lower.data(), static_cast<uint32_t>(lower.size())).ok());
  ASSERT_TRUE(window.Append(40, of_other.data(), static_cast<uint32_t>(of_other.size())).ok());
  ASSERT_TRUE(window.Append(32, gone.data(), static_cast<uint32_t>(gone.size())).ok());
  uint64_t ticks = 10;
  for (int run = 0; run < 300; ++run) {  // long enough to drop the first blocks
    const std::vector<RecordSlot> records = Regions(ticks, kSlotsPerChunk, 10);
    ASSERT_TRUE(window.Append(run % 2 == 0 ? 31 : 33, records.data(), kSlotsPerChunk).ok());
    ticks += kSlotsPerChunk * 10;
  }
  const std::vector<Replayed> seen = ReplayAll(window, ticks);
  ASSERT_GE(seen.size(), 2u);
  std::vector<std::pair<pid_t, std::string>> names;
  for (const Replayed& r : seen) {
    if (r.record.kind() != RecordKind::kThreadName) break;  // names come first
    EXPECT_EQ(r.record.a, 0u);
    names.emplace_back(r.tid, r.payload.substr(0, r.record.c()));
  }
  EXPECT_EQ(names, (std::vector<std::pair<pid_t, std::string>>{{31, "worker 1"}, {33, "sampled"}}));
  for (const Replayed& r : seen) EXPECT_NE(r.tid, 32);
  EXPECT_GT(window.discarded_records(), 0u);
}

}  // namespace
}  // namespace benchprof::tracer
