// The recorder's pieces driven directly, without a benchmark: clock, chunk
// pool, decoder (nesting repair), and whole traces written to a temporary
// file and parsed back, including the drop path.
#include "tracer/trace_recorder.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "benchprof/trace.h"
#include "common/json_value.h"
#include "support/sanitizer_build.h"
#include "support/subprocess.h"
#include "tracer/chrome_json_writer.h"
#include "tracer/record_decoder.h"
#include "tracer/trace_buffer.h"
#include "tracer/trace_clock.h"
#include "tracer/trace_json.h"

namespace benchprof::tracer {
namespace {

using testing::Arg;
using testing::Num;
using testing::ReadFile;
using testing::Str;
using testing::TempDir;

// ---- clock ----

TEST(TraceClockTest, MonotonicTicksAreNanoseconds) {
  const TraceClock clock = TraceClock::Monotonic(5000);
  EXPECT_EQ(clock.source(), ClockSource::kMonotonic);
  EXPECT_EQ(clock.NanosSinceStart(5000), 0);
  EXPECT_EQ(clock.NanosSinceStart(6234), 1234);
  EXPECT_EQ(clock.NanosSinceStart(4000), -1000);
  EXPECT_EQ(clock.MeasureDrift(), 0);
  EXPECT_EQ(ClockSourceName(ClockSource::kMonotonic), "monotonic");
}

TEST(TraceClockTest, CalibratedTscTracksMonotonicTime) {
  if (!TscIsInvariant()) GTEST_SKIP() << "this CPU's TSC is not invariant";
  const TraceClock clock = TraceClock::Calibrate(ClockSource::kAuto);
  ASSERT_EQ(clock.source(), ClockSource::kTsc);
  // Somewhere between 100 MHz and 20 GHz.
  EXPECT_GT(clock.nanos_per_tick(), 0.05);
  EXPECT_LT(clock.nanos_per_tick(), 10);
  SetTickSource(ClockSource::kTsc);
  const uint64_t before = ReadTicks();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const int64_t elapsed = clock.NanosSinceStart(ReadTicks()) - clock.NanosSinceStart(before);
  EXPECT_GT(elapsed, 19'000'000);
  EXPECT_LT(elapsed, 2'000'000'000);
  // Within 1 ms of CLOCK_MONOTONIC (it is typically tens of ns).
  EXPECT_LT(std::abs(clock.MeasureDrift()), 1'000'000);
}

// ---- chunk pool ----

TEST(ChunkPoolTest, PopsUntilEmptyAndSubmittedChunksComeOutOldestFirst) {
  ChunkPool* pool = ChunkPool::Create(3);
  ASSERT_NE(pool, nullptr);
  Chunk* a = pool->Pop();
  Chunk* b = pool->Pop();
  Chunk* c = pool->Pop();
  ASSERT_TRUE(a != nullptr && b != nullptr && c != nullptr);
  EXPECT_EQ(pool->Pop(), nullptr);
  EXPECT_NE(a, b);
  pool->Submit(b);
  pool->Submit(a);
  pool->Submit(c);
  Chunk* taken = pool->TakeSubmitted();
  ASSERT_EQ(taken, b);
  ASSERT_EQ(taken->header.next_submitted, a);
  ASSERT_EQ(taken->header.next_submitted->header.next_submitted, c);
  EXPECT_EQ(c->header.next_submitted, nullptr);
  EXPECT_EQ(pool->TakeSubmitted(), nullptr);
  a->header.count.store(7);
  pool->Push(a);
  Chunk* again = pool->Pop();
  EXPECT_EQ(again, a);
  EXPECT_EQ(again->header.count.load(), 0u);
}

// The writer sleeps with a timeout of an hour here: only the doorbell can
// end the wait within the test's patience (a liveness check, not a timing
// one).
TEST(ChunkPoolTest, SubmittingAQuarterOfThePoolWakesTheWriter) {
  ChunkPool* pool = ChunkPool::Create(8);
  ASSERT_NE(pool, nullptr);
  for (int round = 0; round < 2; ++round) {
    std::atomic<bool> woken{false};
    std::thread writer([&] {
      pool->WaitForSubmissions(std::chrono::hours(1));
      woken = true;
    });
    pool->Submit(pool->Pop());
    pool->Submit(pool->Pop());  // 2 of 8
    for (int i = 0; i < 3000 && !woken; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const bool was_woken = woken;
    if (!was_woken) pool->WakeWriter();  // let the thread end
    writer.join();
    EXPECT_TRUE(was_woken) << "round " << round;
    // Taking the chunks starts the count again.
    for (Chunk* chunk = pool->TakeSubmitted(); chunk != nullptr;) {
      Chunk* next = chunk->header.next_submitted;
      pool->Push(chunk);
      chunk = next;
    }
  }
}

TEST(ChunkPoolTest, WakeWriterEndsAWaitStartedLater) {
  ChunkPool* pool = ChunkPool::Create(8);
  ASSERT_NE(pool, nullptr);
  pool->WakeWriter();
  std::atomic<bool> woken{false};
  std::thread writer([&] {
    pool->WaitForSubmissions(std::chrono::hours(1));
    woken = true;
  });
  for (int i = 0; i < 3000 && !woken; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const bool was_woken = woken;
  if (!was_woken) pool->WakeWriter();
  writer.join();
  EXPECT_TRUE(was_woken);
}

// ---- decoder ----

class CapturingFormatter final : public TraceFormatter {
 public:
  void Begin(const TraceInfo&) override {}
  void Add(const TraceEvent& event) override {
    lines.push_back(std::string(Kind(event.type)) + " " + std::string(event.name) + " @" +
                    std::to_string(event.ts_ns));
  }
  Status End(const TraceTotals&) override { return Status(); }
  uint64_t events_written() const override { return lines.size(); }

  std::vector<std::string> lines;

 private:
  static const char* Kind(EventType type) {
    switch (type) {
      case EventType::kRegionBegin:
        return "B";
      case EventType::kRegionEnd:
        return "E";
      case EventType::kLoopBegin:
        return "loopB";
      case EventType::kLoopEnd:
        return "loopE";
      case EventType::kTaskBegin:
        return "b";
      case EventType::kTaskEnd:
        return "e";
      default:
        return "?";
    }
  }
};

void Put(Chunk& chunk, RecordKind kind, uint64_t ticks, const char* name, uint64_t task = 0) {
  const uint32_t at = chunk.header.count.load();
  chunk.slots[at].record = Record{ticks, task, reinterpret_cast<uint64_t>(name), Meta(kind)};
  chunk.header.count.store(at + 1);
}

TEST(EventDecoderTest, EndsRepairNestingAndOpenSpansCloseAtTheEnd) {
  static Chunk chunk;  // 64 KiB: not on the stack
  chunk.header.count.store(0);
  chunk.header.tid = 42;
  const TraceClock clock = TraceClock::Monotonic(0);
  CapturingFormatter out;
  RecordDecoder decoder(clock, out);
  Put(chunk, RecordKind::kLoopBegin, 10, nullptr);
  Put(chunk, RecordKind::kRegionBegin, 20, "A");
  Put(chunk, RecordKind::kRegionBegin, 30, "B");
  Put(chunk, RecordKind::kRegionEnd, 40, "A");    // B's end was lost: B closes here
  Put(chunk, RecordKind::kRegionEnd, 50, "C");    // C's begin was lost: dropped
  Put(chunk, RecordKind::kRegionBegin, 45, "D");  // before the last event: kept in order
  Put(chunk, RecordKind::kTaskBegin, 60, "job", 7);
  decoder.Decode(chunk, 0, chunk.header.count.load());
  TraceTotals totals;
  decoder.Finish(100, totals);
  EXPECT_EQ(out.lines, (std::vector<std::string>{"loopB  @10", "B A @20", "B B @30", "E B @40",
                                                 "E A @40", "B D @50", "b job @60", "E D @100",
                                                 "loopE  @100", "e job @100"}));
  EXPECT_EQ(decoder.unmatched_ends(), 1u);
  EXPECT_EQ(totals.end_ns, 100);
}

// ---- whole traces ----

RecorderOptions TestOptions() {
  RecorderOptions options;
  options.process_name = "trace_recorder_test";
  options.sample_period = std::chrono::microseconds(500);
  return options;
}

// Records `body` into a trace file and returns the parsed document.
template <typename Body>
json::Value RecordTrace(const RecorderOptions& options, Body body, RecorderStats* stats = nullptr) {
  TempDir dir;
  const std::string path = dir.File("t.json");
  Status started = StartRecording(std::make_unique<ChromeJsonWriter>(path), options);
  EXPECT_TRUE(started.ok()) << started.message();
  body();
  StatusOr<RecorderStats> stopped = StopRecording();
  EXPECT_TRUE(stopped.ok()) << stopped.status().message();
  if (stats != nullptr && stopped.ok()) *stats = *stopped;
  StatusOr<json::Value> doc = json::Parse(ReadFile(path));
  EXPECT_TRUE(doc.ok()) << doc.status().message();
  return doc.ok() ? *doc : json::Value();
}

size_t CountNamed(const std::vector<json::Value>& events, const std::string& ph,
                  const std::string& name) {
  size_t count = 0;
  for (const json::Value& event : events) {
    count += Str(event, "ph") == ph && Str(event, "name") == name;
  }
  return count;
}

TEST(TraceRecorderTest, RegionsTasksAndLogsFromSeveralThreads) {
  RecorderStats stats;
  const json::Value doc = RecordTrace(
      TestOptions(),
      [] {
        NameCurrentThread("test main");
        Task task = NewTask("request");
        Region outer = StartRegion(task, "Outer");
        std::thread helper([&] {
          WithRegion(task, "Help", [] {});
          // 199 bytes, then a 2-byte character that does not fit in 200.
          Log(task, "utf8", std::string(199, 'a') + "\xc3\xa9");
        });
        helper.join();
        { Region inner = StartRegion("Inner"); }
        outer.End();
        task.End();
        { Region left_open = StartRegion("Open"); }
        Region still_open = StartRegion("StillOpen");
        (void)still_open;
      },
      &stats);
  const std::vector<json::Value> events = testing::TraceEvents(doc);
  EXPECT_EQ(testing::NestingProblems(events), "");
  EXPECT_EQ(stats.dropped_events, 0u);
  EXPECT_EQ(stats.unmatched_ends, 0u);
  EXPECT_EQ(stats.events_written, events.size());
  EXPECT_EQ(CountNamed(events, "B", "Outer"), 1u);
  EXPECT_EQ(CountNamed(events, "B", "Help"), 1u);
  EXPECT_EQ(CountNamed(events, "E", "StillOpen"), 1u);  // closed at the stop
  std::set<double> task_tracks;
  for (const json::Value& event : events) {
    if (Str(event, "ph") == "b" && Str(event, "name") == "Help") {
      EXPECT_EQ(Arg(event, "kind")->as_string(), "region");
    }
    if (Str(event, "ph") == "i" && Str(event, "name") == "utf8") {
      EXPECT_EQ(Arg(event, "message")->as_string(), std::string(199, 'a'));
    }
    if (Str(event, "ph") == "b") task_tracks.insert(Num(event, "tid"));
  }
  EXPECT_EQ(task_tracks.size(), 2u);
  bool named = false;
  for (const auto& [tid, name] : testing::ThreadNames(events)) named |= name == "test main";
  EXPECT_TRUE(named);
}

TEST(TraceRecorderTest, EachTraceStartsClean) {
  (void)RecordTrace(TestOptions(), [] {
    Region first = StartRegion("FirstTrace");
    Log("first", "only in the first trace");
  });
  const json::Value doc = RecordTrace(TestOptions(), [] { Region second = StartRegion("Second"); });
  const std::vector<json::Value> events = testing::TraceEvents(doc);
  EXPECT_EQ(CountNamed(events, "B", "FirstTrace"), 0u);
  EXPECT_EQ(CountNamed(events, "i", "first"), 0u);
  EXPECT_EQ(CountNamed(events, "B", "Second"), 1u);
  EXPECT_EQ(testing::NestingProblems(events), "");
}

TEST(TraceRecorderTest, NothingIsRecordedOutsideATrace) {
  EXPECT_FALSE(TraceIsRecording());
  Region region = StartRegion("Outside");
  Task task = NewTask("outside");
  EXPECT_EQ(task.id(), 0u);
  const json::Value doc = RecordTrace(TestOptions(), [&] {
    EXPECT_TRUE(TraceIsRecording());
    region.End();  // began before the trace: nothing to end
  });
  const std::vector<json::Value> events = testing::TraceEvents(doc);
  EXPECT_EQ(CountNamed(events, "E", "Outside"), 0u);
  EXPECT_EQ(testing::NestingProblems(events), "");
}

TEST(TraceRecorderTest, MonotonicClockFallback) {
  RecorderOptions options = TestOptions();
  options.clock = ClockSource::kMonotonic;
  const json::Value doc = RecordTrace(options, [] { Region region = StartRegion("Mono"); });
  EXPECT_EQ(Str(*doc.Find("otherData"), "clock"), "monotonic");
  EXPECT_EQ(CountNamed(testing::TraceEvents(doc), "B", "Mono"), 1u);
}

TEST(TraceRecorderTest, ManyThreadsWithinTheDefaultPoolLoseNothing) {
  RecorderStats stats;
  constexpr int kThreads = 8, kRegions = 5000;
  const json::Value doc = RecordTrace(
      TestOptions(),
      [] {
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
          threads.emplace_back([] {
            for (int i = 0; i < kRegions; ++i) Region region = StartRegion("Many");
          });
        }
        for (std::thread& thread : threads) thread.join();
      },
      &stats);
  EXPECT_EQ(stats.dropped_events, 0u);
  const std::vector<json::Value> events = testing::TraceEvents(doc);
  EXPECT_EQ(CountNamed(events, "B", "Many"), size_t{kThreads} * kRegions);
  EXPECT_EQ(CountNamed(events, "E", "Many"), size_t{kThreads} * kRegions);
  EXPECT_EQ(testing::NestingProblems(events), "");
}

// CPU time of thread `thread`, in nanoseconds.
int64_t ThreadCpuNanos(std::thread& thread) {
  clockid_t clock;
  timespec now{};
  if (pthread_getcpuclockid(thread.native_handle(), &clock) != 0 ||
      clock_gettime(clock, &now) != 0) {
    return -1;
  }
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

int64_t WallNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A pool made before the benchmarks is what shows a benchmark leaving cores
// idle: such threads need tracks and counters without recording anything.
TEST(TraceRecorderTest, ThreadsRunningBeforeTheTraceHaveTracksAndCpuCounters) {
  std::atomic<int> phase{0};  // 1: tracing, 2: the short-lived thread may end, 3: all end
  std::atomic<pid_t> spin_tid{0}, idle_tid{0}, short_tid{0};
  std::thread spinner([&] {
    pthread_setname_np(pthread_self(), "pre-spin");
    spin_tid = gettid();
    while (phase.load() < 1) {
    }
    { Region region = StartRegion("Spin"); }  // it records, so it also gets a slot
    while (phase.load() < 3) {
    }
  });
  std::mutex mutex;
  std::condition_variable wake;
  std::thread sleeper([&] {
    pthread_setname_np(pthread_self(), "pre-idle");
    idle_tid = gettid();
    std::unique_lock lock(mutex);
    wake.wait(lock, [&] { return phase.load() >= 3; });
  });
  std::thread short_lived([&] {
    short_tid = gettid();  // keeps the process's name: "thread <tid>"
    while (phase.load() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (spin_tid == 0 || idle_tid == 0 || short_tid == 0) std::this_thread::yield();

  int64_t spin_cpu = 0, wall = 0;
  const json::Value doc = RecordTrace(TestOptions(), [&] {
    spin_cpu = -ThreadCpuNanos(spinner);
    wall = -WallNanos();
    phase = 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    phase = 2;
    short_lived.join();
    Log("joined", "short-lived thread ended");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    spin_cpu += ThreadCpuNanos(spinner);
    wall += WallNanos();
  });
  {
    std::lock_guard lock(mutex);
    phase = 3;
  }
  wake.notify_all();
  spinner.join();
  sleeper.join();

  const std::vector<json::Value> events = testing::TraceEvents(doc);
  const std::map<int, std::string> names = testing::ThreadNames(events);
  ASSERT_EQ(names.count(spin_tid), 1u);
  ASSERT_EQ(names.count(idle_tid), 1u);
  ASSERT_EQ(names.count(short_tid), 1u);
  EXPECT_EQ(names.at(spin_tid), "pre-spin");
  EXPECT_EQ(names.at(idle_tid), "pre-idle");
  EXPECT_EQ(names.at(short_tid), "thread " + std::to_string(short_tid));

  const std::map<int, double> shares = testing::BusyShares(events);
  ASSERT_EQ(shares.count(spin_tid), 1u);
  ASSERT_EQ(shares.count(idle_tid), 1u);
  ASSERT_EQ(shares.count(short_tid), 1u);
  // What the spinner got is what the machine gave it; the counter must agree.
  const double measured = static_cast<double>(spin_cpu) / static_cast<double>(wall);
  ASSERT_GT(measured, 0.05) << "the spinning thread hardly ran";
  EXPECT_NEAR(shares.at(spin_tid), measured, 0.1);
  EXPECT_LT(shares.at(idle_tid), 0.05);

  // One counter per thread, though the spinner also has a slot; the ended
  // thread's counter stops when it ends.
  std::set<std::string> spin_counters;
  double short_last = -1, joined = -1;
  const std::string short_counter =
      "CPU thread " + std::to_string(short_tid) + " [" + std::to_string(short_tid) + "]";
  for (const json::Value& event : events) {
    const std::string name = Str(event, "name");
    if (Str(event, "ph") == "C" && name.ends_with("[" + std::to_string(spin_tid) + "]")) {
      spin_counters.insert(name);
    }
    if (Str(event, "ph") == "C" && name == short_counter) {
      short_last = std::max(short_last, Num(event, "ts"));
    }
    if (Str(event, "ph") == "i" && name == "joined") joined = Num(event, "ts");
  }
  EXPECT_EQ(spin_counters,
            (std::set<std::string>{"CPU pre-spin [" + std::to_string(spin_tid) + "]"}));
  ASSERT_GE(short_last, 0);
  // Within a millisecond: join() returns when the thread has left, but the
  // kernel may answer for its clock a moment longer. A sampler that kept
  // the thread would go on for the 200 ms after.
  EXPECT_LT(short_last, joined + 1000);
  EXPECT_EQ(CountNamed(events, "B", "Spin"), 1u);
}

// The process counter integrates to the CPU time of the traced threads:
// here two spinning threads' (the main thread sleeps).
TEST(TraceRecorderTest, ProcessCounterAddsUpTheCpuTimeOfTheThreads) {
  std::atomic<bool> stop{false};
  std::atomic<int64_t> spin_cpu{0};
  const json::Value doc = RecordTrace(TestOptions(), [&] {
    std::vector<std::thread> spinners;
    for (int i = 0; i < 2; ++i) {
      spinners.emplace_back([&] {
        // Registers the thread (this binary does not wrap pthread_create).
        { Region spin = StartRegion("Spin"); }
        const int64_t start = CurrentThreadCpuNanos();
        while (!stop.load()) {
        }
        spin_cpu += CurrentThreadCpuNanos() - start;
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
    for (std::thread& spinner : spinners) spinner.join();
  });
  const std::vector<json::Value> events = testing::TraceEvents(doc);
  std::vector<std::pair<double, double>> series;  // (ts µs, CPUs busy)
  for (const json::Value& event : events) {
    if (Str(event, "ph") == "C" && Str(event, "cat") == "process") {
      EXPECT_EQ(Str(event, "name"), "CPUs");
      series.emplace_back(Num(event, "ts"), Arg(event, "busy")->as_number());
    }
  }
  ASSERT_GE(series.size(), 2u);
  std::sort(series.begin(), series.end());
  double cpu_nanos = 0;
  for (size_t i = 0; i + 1 < series.size(); ++i) {
    cpu_nanos += series[i].second * (series[i + 1].first - series[i].first) * 1000;
  }
  EXPECT_EQ(series.back().second, 0);  // nothing after the end
  // The main thread sleeps; a few ms for its starts and joins.
  const auto spun = static_cast<double>(spin_cpu.load());
  ASSERT_GT(spun, 30e6) << "the spinning threads hardly ran";
  EXPECT_NEAR(cpu_nanos, spun, spun * 0.05 + 10e6);
}

// The writer is held at its start until every event has been sent, so the
// two chunks fill and the rest is dropped, however fast the writer is.
TEST(TraceRecorderTest, FullPoolDropsAndCountsEventsAndTheFileStaysValid) {
  RecorderOptions options = TestOptions();
  options.chunk_count = 2;
  options.sample_cpu = false;  // the writer is then the recorder's only thread
  std::atomic<bool> all_sent{false};
  options.on_internal_thread_start = [&all_sent] {
    while (!all_sent.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  RecorderStats stats;
  constexpr int kRegions = 10'000;
  const json::Value doc = RecordTrace(
      options,
      [&all_sent] {
        for (int i = 0; i < kRegions; ++i) {
          Region outer = StartRegion("Outer");
          Region inner = StartRegion("Inner");
        }
        all_sent = true;
      },
      &stats);
  ASSERT_GT(stats.dropped_events, 0u) << "2 chunks held all " << 4 * kRegions << " events";
  const std::vector<json::Value> events = testing::TraceEvents(doc);
  EXPECT_EQ(testing::NestingProblems(events), "");
  EXPECT_EQ(Num(*doc.Find("otherData"), "dropped_events"),
            static_cast<double>(stats.dropped_events));
  // Every begin written was recorded, so not dropped; every span written is
  // closed (the writer closes those whose end was dropped).
  const size_t begins = CountNamed(events, "B", "Outer") + CountNamed(events, "B", "Inner");
  const size_t ends = CountNamed(events, "E", "Outer") + CountNamed(events, "E", "Inner");
  EXPECT_GT(begins, 0u);
  EXPECT_EQ(ends, begins);
  EXPECT_LE(begins + stats.dropped_events, size_t{4} * kRegions);
  EXPECT_EQ(CountNamed(events, "i", "benchprof: dropped events"), 1u);
  for (const json::Value& event : events) {
    if (Str(event, "name") == "benchprof: dropped events") {
      EXPECT_EQ(Arg(event, "count")->as_number(), static_cast<double>(stats.dropped_events));
    }
  }
}

TEST(TraceRecorderTest, ChunksComeBackFromThreadsThatEndDuringOrAfterATrace) {
  RecorderOptions options = TestOptions();
  options.chunk_count = 6;
  options.sample_cpu = false;
  for (int round = 0; round < 20; ++round) {
    std::atomic<bool> release{false};
    // Ends after the trace has stopped, still holding its chunk.
    std::thread late;
    RecorderStats stats;
    (void)RecordTrace(
        options,
        [&] {
          std::thread early([] { Region region = StartRegion("Early"); });
          early.join();
          late = std::thread([&] {
            { Region region = StartRegion("Late"); }
            while (!release.load()) std::this_thread::yield();
          });
          while (!TraceIsRecording()) {
          }
          { Region region = StartRegion("Main"); }
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        },
        &stats);
    release.store(true);
    late.join();
    // Were chunks lost, a few rounds would leave none for the next trace.
    ASSERT_EQ(stats.dropped_events, 0u) << "round " << round;
  }
}

// The resident set of this process, in bytes.
int64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size_pages = 0, resident_pages = 0;
  statm >> size_pages >> resident_pages;
  return resident_pages * sysconf(_SC_PAGESIZE);
}

// 10 million events (region pairs from two threads, paced so that the
// writer keeps up: 1.3 MB of records per thread every 10 ms) formatted to
// /dev/null: the recorder keeps them in its
// 16 MiB pool and the spool file, never in memory, so the resident set
// grows by far less than the 320 MB of raw records (or the ~1 GB of JSON).
// Sanitizer builds send 800,000, which proves nothing about memory but
// runs the same paths.
TEST(TraceRecorderTest, TenMillionEventsKeepMemoryBounded) {
  constexpr int kThreads = 2;
  constexpr int64_t kEvents = testing::kSanitizerBuild ? 800'000 : 10'000'000;
  constexpr int64_t kPairsPerBurst = 20'000;
  constexpr int64_t kBurstsPerThread = kEvents / 2 / kThreads / kPairsPerBurst;
  static_assert(kBurstsPerThread * kPairsPerBurst * 2 * kThreads == kEvents);
  constexpr int64_t kMaxGrowth = 64 << 20;

  const int64_t before = ResidentBytes();
  std::atomic<bool> recording{true};
  std::atomic<int64_t> peak{before};
  std::thread monitor([&] {
    while (recording) {
      int64_t now = ResidentBytes();
      int64_t seen = peak.load();
      while (now > seen && !peak.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  ASSERT_TRUE(StartRecording(std::make_unique<ChromeJsonWriter>("/dev/null"), TestOptions()).ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([] {
      for (int64_t burst = 0; burst < kBurstsPerThread; ++burst) {
        for (int64_t i = 0; i < kPairsPerBurst; ++i) {
          benchprof::Region region = benchprof::StartRegion("Step");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  StatusOr<RecorderStats> stopped = StopRecording();  // formats everything
  recording = false;
  monitor.join();
  ASSERT_TRUE(stopped.ok()) << stopped.status().message();

  // A writer starved of CPU drops events (counted); most must get through
  // for the memory check to mean something.
  EXPECT_GE(stopped->events_written + stopped->dropped_events, static_cast<uint64_t>(kEvents));
  EXPECT_GE(stopped->events_written, static_cast<uint64_t>(kEvents / 2))
      << stopped->dropped_events << " dropped";
  EXPECT_LT(peak.load() - before, kMaxGrowth)
      << "resident set grew from " << before << " to " << peak.load() << " bytes";
}

TEST(TraceRecorderTest, StartAndStopAreChecked) {
  EXPECT_FALSE(StopRecording().ok());
  TempDir dir;
  ASSERT_TRUE(
      StartRecording(std::make_unique<ChromeJsonWriter>(dir.File("a.json")), TestOptions()).ok());
  const Status second =
      StartRecording(std::make_unique<ChromeJsonWriter>(dir.File("b.json")), TestOptions());
  EXPECT_FALSE(second.ok());
  EXPECT_EQ(second.message(), "a trace is already being recorded");
  EXPECT_TRUE(StopRecording().ok());
  RecorderOptions tiny = TestOptions();
  tiny.chunk_count = 1;
  EXPECT_FALSE(StartRecording(std::make_unique<ChromeJsonWriter>(dir.File("c.json")), tiny).ok());
}

TEST(TraceRecorderTest, UnwritableOutputIsReportedAtStop) {
  ASSERT_TRUE(
      StartRecording(std::make_unique<ChromeJsonWriter>("/nonexistent/t.json"), TestOptions())
          .ok());
  StatusOr<RecorderStats> stopped = StopRecording();
  ASSERT_FALSE(stopped.ok());
  EXPECT_NE(stopped.status().message().find("/nonexistent/t.json"), std::string::npos);
}

}  // namespace
}  // namespace benchprof::tracer
