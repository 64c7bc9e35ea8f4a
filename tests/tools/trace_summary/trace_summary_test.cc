// The aggregation behind `benchprof trace-summary`, fed hand-made events:
// nearest-rank percentiles on known sets, busy shares from known counter
// step functions, tasks versus their regions' task-track copies, nesting,
// unmatched and out-of-order events (docs/trace-format.md is the contract).
#include "tools/trace_summary/trace_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tools/trace_summary/trace_summary_format.h"

namespace benchprof::trace_summary {
namespace {

// Events reference their strings, so the literals below must outlive them
// (they do: string literals are static).
TraceEvent Event(char phase, std::string_view category, std::string_view name, int64_t tid,
                 int64_t ts_ns) {
  TraceEvent e;
  e.phase = phase;
  e.category = category;
  e.name = name;
  e.pid = 1;
  e.tid = tid;
  e.ts_ns = ts_ns;
  return e;
}

TraceEvent Begin(std::string_view name, int64_t tid, int64_t ts) {
  return Event('B', "region", name, tid, ts);
}
TraceEvent End(int64_t tid, int64_t ts) { return Event('E', "", "", tid, ts); }

TraceEvent Async(char phase, std::string_view name, std::string_view id, std::string_view kind,
                 int64_t tid, int64_t ts) {
  TraceEvent e = Event(phase, "task", name, tid, ts);
  e.id = id;
  e.kind = kind;
  return e;
}

TraceEvent Cpu(std::string_view counter, int64_t ts, double busy) {
  TraceEvent e = Event('C', "cpu", counter, 99, ts);
  e.busy = busy;
  return e;
}

TraceEvent ThreadName(int64_t tid, std::string_view name) {
  TraceEvent e;
  e.phase = 'M';
  e.name = "thread_name";
  e.pid = 1;
  e.tid = tid;
  e.arg_name = name;
  return e;
}

TraceSummary Summarize(const std::vector<TraceEvent>& events, const TraceFileInfo& info = {}) {
  TraceSummarizer s;
  for (const TraceEvent& e : events) s.Add(e);
  return std::move(s).Finish("t.json", info);
}

std::vector<int64_t> Range(int64_t from, int64_t to) {
  std::vector<int64_t> v(static_cast<size_t>(to - from + 1));
  std::iota(v.begin(), v.end(), from);
  return v;
}

TEST(NearestRankPercentileTest, KnownSets) {
  EXPECT_EQ(NearestRankPercentile({7}, 50), 7);
  EXPECT_EQ(NearestRankPercentile({7}, 99), 7);

  const std::vector<int64_t> four = {10, 20, 30, 40};
  EXPECT_EQ(NearestRankPercentile(four, 1), 10);   // rank ceil(0.04) = 1
  EXPECT_EQ(NearestRankPercentile(four, 25), 10);  // rank 1 exactly
  EXPECT_EQ(NearestRankPercentile(four, 26), 20);  // rank ceil(1.04) = 2
  EXPECT_EQ(NearestRankPercentile(four, 50), 20);  // rank 2, not the mean 25
  EXPECT_EQ(NearestRankPercentile(four, 90), 40);  // rank ceil(3.6) = 4
  EXPECT_EQ(NearestRankPercentile(four, 100), 40);

  const std::vector<int64_t> ten = Range(1, 10);
  EXPECT_EQ(NearestRankPercentile(ten, 50), 5);
  EXPECT_EQ(NearestRankPercentile(ten, 90), 9);  // exactly rank 9: no rounding up
  EXPECT_EQ(NearestRankPercentile(ten, 99), 10);

  const std::vector<int64_t> hundred = Range(1, 100);
  EXPECT_EQ(NearestRankPercentile(hundred, 50), 50);
  EXPECT_EQ(NearestRankPercentile(hundred, 90), 90);
  EXPECT_EQ(NearestRankPercentile(hundred, 99), 99);

  const std::vector<int64_t> hundred_one = Range(1, 101);
  EXPECT_EQ(NearestRankPercentile(hundred_one, 50), 51);   // ceil(50.5)
  EXPECT_EQ(NearestRankPercentile(hundred_one, 90), 91);   // ceil(90.9)
  EXPECT_EQ(NearestRankPercentile(hundred_one, 99), 100);  // ceil(99.99)

  const std::vector<int64_t> thousand = Range(1, 1000);
  EXPECT_EQ(NearestRankPercentile(thousand, 99), 990);
}

TEST(SummarizeDurationsTest, Summarizes) {
  std::vector<int64_t> d = {40, 10, 30, 20};
  const DurationStats s = SummarizeDurations(d);
  std::sort(d.begin(), d.end());  // reordered, not lost
  EXPECT_EQ(d, (std::vector<int64_t>{10, 20, 30, 40}));
  EXPECT_EQ(s.count, 4u);
  EXPECT_EQ(s.total_ns, 100);
  EXPECT_EQ(s.min_ns, 10);
  EXPECT_EQ(s.p50_ns, 20);
  EXPECT_EQ(s.p90_ns, 40);
  EXPECT_EQ(s.p99_ns, 40);
  EXPECT_EQ(s.max_ns, 40);

  std::vector<int64_t> none;
  const DurationStats empty = SummarizeDurations(none);
  EXPECT_EQ(empty.count, 0u);
  EXPECT_EQ(empty.max_ns, 0);
}

// The percentiles are selected, not read from a sorted copy: the same
// values as a sort gives, on sets with ties and of every size up to 300.
TEST(SummarizeDurationsTest, SelectsWhatASortWouldGive) {
  std::mt19937_64 rng(7);
  for (size_t n = 1; n <= 300; ++n) {
    std::vector<int64_t> d(n);
    for (int64_t& v : d) v = static_cast<int64_t>(rng() % 50);  // many ties
    std::vector<int64_t> sorted = d;
    std::sort(sorted.begin(), sorted.end());
    const DurationStats s = SummarizeDurations(d);
    EXPECT_EQ(s.min_ns, sorted.front()) << n;
    EXPECT_EQ(s.p50_ns, NearestRankPercentile(sorted, 50)) << n;
    EXPECT_EQ(s.p90_ns, NearestRankPercentile(sorted, 90)) << n;
    EXPECT_EQ(s.p99_ns, NearestRankPercentile(sorted, 99)) << n;
    EXPECT_EQ(s.max_ns, sorted.back()) << n;
    EXPECT_EQ(s.total_ns, std::accumulate(sorted.begin(), sorted.end(), int64_t{0})) << n;
  }
}

TEST(TraceSummaryTest, BusyShareIsTheIntegralOfTheStepFunction) {
  // Worker: idle until its first sample at 1000, then busy 1.0 on
  // [1000, 3000), 0.5 on [3000, 7000) and 0 from 7000: 2000 + 2000 = 4000 ns
  // busy over the interval [0, 10000], 40%. The samples arrive
  // out of order, as they may in a real file.
  // Main: 0.25 from 0 to the end of the interval (its last sample is not 0,
  // as in a cut-off trace): 2500 ns = 25%.
  const TraceSummary s = Summarize({
      ThreadName(5, "worker"),
      Cpu("CPU worker [5]", 3000, 0.5),
      Cpu("CPU worker [5]", 1000, 1.0),
      Cpu("CPU worker [5]", 7000, 0.0),
      Cpu("CPU main [4]", 0, 0.25),
      Event('i', "thread", "thread exit", 4, 10000),
  });
  ASSERT_TRUE(s.has_interval);
  EXPECT_EQ(s.start_ns, 0);
  EXPECT_EQ(s.end_ns, 10000);
  ASSERT_EQ(s.threads.size(), 2u);
  EXPECT_EQ(s.threads[0].name, "worker");
  EXPECT_EQ(s.threads[0].tid, 5);
  EXPECT_EQ(s.threads[0].busy_ns, 4000);
  EXPECT_EQ(s.threads[0].samples, 3u);
  EXPECT_DOUBLE_EQ(s.BusyShare(s.threads[0]), 0.4);
  EXPECT_DOUBLE_EQ(s.IdleShare(s.threads[0]), 0.6);
  EXPECT_EQ(s.threads[1].name, "main");  // from the counter: no thread_name for 4
  EXPECT_EQ(s.threads[1].tid, 4);
  EXPECT_EQ(s.threads[1].busy_ns, 2500);
  EXPECT_DOUBLE_EQ(s.MeanBusyThreads(), 0.65);
}

TEST(TraceSummaryTest, ThreadsSortByBusyThenNameAndNamedThreadsWithoutSamplesLast) {
  const TraceSummary s = Summarize({
      ThreadName(1, "main"),
      ThreadName(2, "b"),
      ThreadName(3, "a"),
      ThreadName(4, "sampler"),
      Cpu("CPU main [1]", 0, 0.1),
      Cpu("CPU b [2]", 0, 0.5),
      Cpu("CPU a [3]", 0, 0.5),
      Cpu("CPU renamed later [1]", 0, 0.0),  // another series for tid 1: named by metadata
      Cpu("odd counter", 0, 1.0),            // no [tid]
      Event('i', "", "x", 1, 100),
  });
  std::vector<std::string> order;
  for (const ThreadUsage& t : s.threads) order.push_back(t.name + "/" + std::to_string(t.tid));
  EXPECT_EQ(order, (std::vector<std::string>{"odd counter/-1", "a/3", "b/2", "main/1", "main/1",
                                             "sampler/4"}));
  EXPECT_FALSE(s.threads.back().has_cpu);
  EXPECT_TRUE(std::isnan(s.BusyShare(s.threads.back())));
}

TEST(TraceSummaryTest, BusyOutsideZeroToOneIsClampedAndCounted) {
  const TraceSummary s =
      Summarize({Cpu("CPU w [1]", 0, 1.5), Cpu("CPU w [1]", 100, -1), Event('i', "", "x", 1, 200)});
  EXPECT_EQ(s.busy_out_of_range, 2u);
  EXPECT_EQ(s.threads[0].busy_ns, 100);
  EXPECT_EQ(s.warnings.size(), 1u);
}

TEST(TraceSummaryTest, TasksAndRegionsInTasksAreCountedOnce) {
  // One task with two regions; each region is on the thread (B/E, counted
  // as a region) and on the task's track (b/e with kind "region", the copy:
  // neither a task nor a second region).
  const TraceSummary s = Summarize({
      Async('b', "document", "0x1", "task", 1, 100),
      Begin("Unmarshal", 1, 200),
      Async('b', "Unmarshal", "0x1", "region", 1, 200),
      End(1, 500),
      Async('e', "Unmarshal", "0x1", "region", 1, 500),
      Begin("Search", 1, 500),
      Async('b', "Search", "0x1", "region", 1, 500),
      End(1, 550),
      Async('e', "Search", "0x1", "region", 1, 550),
      Async('e', "document", "0x1", "task", 1, 1100),
      // Another producer's async span, without args.kind: a task.
      Async('b', "request", "7", "", 2, 0),
      Async('e', "request", "7", "", 2, 30),
  });
  ASSERT_EQ(s.tasks.size(), 2u);
  EXPECT_EQ(s.tasks[0].name, "document");
  EXPECT_EQ(s.tasks[0].stats.count, 1u);
  EXPECT_EQ(s.tasks[0].stats.max_ns, 1000);
  EXPECT_EQ(s.tasks[1].name, "request");
  EXPECT_EQ(s.tasks[1].stats.max_ns, 30);
  ASSERT_EQ(s.regions.size(), 2u);
  EXPECT_EQ(s.regions[0].name, "Search");
  EXPECT_EQ(s.regions[0].stats.count, 1u);
  EXPECT_EQ(s.regions[0].stats.total_ns, 50);
  EXPECT_EQ(s.regions[1].name, "Unmarshal");
  EXPECT_EQ(s.regions[1].stats.total_ns, 300);
  EXPECT_EQ(s.unmatched.total(), 0u);
  EXPECT_TRUE(s.warnings.empty());
}

TEST(TraceSummaryTest, TaskEndMayComeBeforeItsBeginInTheFile) {
  // The task ends on thread 2, whose buffer was written first; the end
  // carries no name, so the type comes from the begin.
  const TraceSummary s = Summarize({
      Async('e', "", "0xa", "task", 2, 900),
      Async('b', "document", "0xa", "task", 1, 100),
      Async('b', "document", "0xb", "task", 1, 200),
      Async('e', "document", "0xb", "task", 3, 260),
  });
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].stats.count, 2u);
  EXPECT_EQ(s.tasks[0].stats.min_ns, 60);
  EXPECT_EQ(s.tasks[0].stats.max_ns, 800);
  EXPECT_EQ(s.unmatched.total(), 0u);
}

// The first open tasks are kept in a short list, the rest in a hash map:
// 100 tasks open at once, ended in another order, with a repeated begin
// among them, match whichever holds them.
TEST(TraceSummaryTest, ManyOpenTasksMatchWhereverTheyAreKept) {
  std::vector<std::string> ids;
  for (int i = 0; i < 100; ++i) ids.push_back("0x" + std::to_string(i));
  std::vector<TraceEvent> events;
  for (int i = 0; i < 100; ++i) events.push_back(Async('b', "document", ids[i], "task", 1, i));
  events.push_back(Async('b', "document", ids[50], "task", 1, 150));  // 50 again, from 150
  for (int i = 0; i < 100; ++i) {
    const int task = (i * 37) % 100;  // every task once, scattered
    events.push_back(Async('e', "", ids[task], "task", 2, 1000 + task));
  }
  events.push_back(Async('b', "document", ids[7], "task", 1, 2000));  // a new task, list has room
  events.push_back(Async('e', "", ids[7], "task", 1, 2005));
  const TraceSummary s = Summarize(events);
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].stats.count, 101u);
  EXPECT_EQ(s.tasks[0].stats.min_ns, 5);
  EXPECT_EQ(s.tasks[0].stats.max_ns, 1000);  // the tasks but 50: 1000 + i - i
  EXPECT_EQ(s.unmatched.task_begins, 1u);    // 50's first begin
  EXPECT_EQ(s.unmatched.task_ends, 0u);
  // 99 tasks of 1000 ns, task 50 of 900 ns, task 7 again of 5 ns.
  EXPECT_EQ(s.tasks[0].stats.total_ns, 99 * 1000 + 900 + 5);
}

// TraceEvent::name_key is a hint: a key seen with another name before (two
// readers' keys fed to one summarizer) does not give that name.
TEST(TraceSummaryTest, ANameKeyIsOnlyAHint) {
  TraceEvent a = Begin("Parse", 1, 0);
  a.name_key = 3;
  TraceEvent b = Begin("Search", 1, 20);
  b.name_key = 3;
  const TraceSummary s = Summarize({a, End(1, 10), b, End(1, 50), a, End(1, 5)});
  ASSERT_EQ(s.regions.size(), 2u);
  EXPECT_EQ(s.regions[0].name, "Parse");
  EXPECT_EQ(s.regions[0].stats.total_ns, 15);  // 10 before "Search" took its key, 5 after
  EXPECT_EQ(s.regions[1].name, "Search");
  EXPECT_EQ(s.regions[1].stats.total_ns, 30);
}

TEST(TraceSummaryTest, TaskIdsAreScopedByProcess) {
  TraceEvent other_begin = Async('b', "document", "0x1", "task", 1, 0);
  other_begin.pid = 2;
  const TraceSummary s = Summarize({
      Async('b', "document", "0x1", "task", 1, 100),
      other_begin,
      Async('e', "document", "0x1", "task", 1, 150),
  });
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].stats.max_ns, 50);
  EXPECT_EQ(s.unmatched.task_begins, 1u);  // pid 2's task never ended
}

TEST(TraceSummaryTest, EndClosesTheMostRecentBeginOfItsThread) {
  // benchmark run > timed loop > region A > region B, with a region on
  // another thread interleaved in the file. Ends carry no name.
  const TraceSummary s = Summarize({
      Event('B', "benchmark", "BM_X", 1, 0), Event('B', "benchmark", "timed loop", 1, 10),
      Begin("A", 1, 100), Begin("Other", 2, 150), Begin("B", 1, 200), End(2, 170),
      End(1, 230),                      // B: 30
      End(1, 400),                      // A: 300
      Begin("A", 1, 500), End(1, 510),  // A: 10
      End(1, 900),                      // timed loop: not a region
      End(1, 1000),                     // BM_X: not a region
  });
  ASSERT_EQ(s.regions.size(), 3u);
  EXPECT_EQ(s.regions[0].name, "A");
  EXPECT_EQ(s.regions[0].stats.count, 2u);
  EXPECT_EQ(s.regions[0].stats.min_ns, 10);
  EXPECT_EQ(s.regions[0].stats.max_ns, 300);
  EXPECT_EQ(s.regions[1].name, "B");
  EXPECT_EQ(s.regions[1].stats.total_ns, 30);
  EXPECT_EQ(s.regions[2].name, "Other");
  EXPECT_EQ(s.regions[2].stats.total_ns, 20);
  EXPECT_EQ(s.unmatched.total(), 0u);
}

TEST(TraceSummaryTest, UnmatchedEventsAreCountedNotFatal) {
  const TraceSummary s = Summarize({
      End(1, 5),                      // E with nothing open
      Begin("A", 1, 10),              // never ended
      Begin("B", 2, 10), End(3, 20),  // ends on another thread do not close thread 2's B
      Async('b', "document", "0x1", "task", 1, 0),
      Async('b', "document", "0x1", "task", 1, 50),  // same id again: the first lost its end
      Async('e', "document", "0x1", "task", 1, 80),  // matches the second
      Async('e', "document", "0x2", "task", 1, 90),  // no begin
      Async('b', "document", "0x3", "task", 1, 95),  // no end
  });
  EXPECT_EQ(s.unmatched.span_begins, 2u);
  EXPECT_EQ(s.unmatched.span_ends, 2u);
  EXPECT_EQ(s.unmatched.task_begins, 2u);
  EXPECT_EQ(s.unmatched.task_ends, 1u);
  EXPECT_TRUE(s.regions.empty());  // nothing completed
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].stats.count, 1u);
  EXPECT_EQ(s.tasks[0].stats.max_ns, 30);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("2 span begins (B) without an end"), std::string::npos)
      << s.warnings[0];
  EXPECT_NE(s.warnings[0].find("1 task end (e) without a begin"), std::string::npos)
      << s.warnings[0];
}

TEST(TraceSummaryTest, NegativeDurationsAreLeftOutAndCounted) {
  const TraceSummary s =
      Summarize({Begin("A", 1, 100), End(1, 90), Begin("A", 1, 100), End(1, 150)});
  EXPECT_EQ(s.negative_durations, 1u);
  ASSERT_EQ(s.regions.size(), 1u);
  EXPECT_EQ(s.regions[0].stats.count, 1u);
  EXPECT_EQ(s.regions[0].stats.max_ns, 50);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], "1 span ends before it begins; it is left out of the durations");
}

TEST(TraceSummaryTest, CompleteEventsCountAsRegionsAndExtendTheInterval) {
  TraceEvent x = Event('X', "region", "Parse", 1, 1000);
  x.dur_ns = 250;
  TraceEvent other = Event('X', "benchmark", "BM", 1, 0);
  other.dur_ns = 2000;
  const TraceSummary s = Summarize({ThreadName(1, "main"), x, other});
  ASSERT_EQ(s.regions.size(), 1u);
  EXPECT_EQ(s.regions[0].stats.total_ns, 250);
  EXPECT_EQ(s.start_ns, 0);
  EXPECT_EQ(s.end_ns, 2000);
}

TEST(TraceSummaryTest, IntervalIgnoresMetadataAndStartsAtTheEarliestEvent) {
  const TraceSummary s = Summarize(
      {ThreadName(1, "main"), Begin("A", 1, 5000), End(1, 7000), Cpu("CPU main [1]", 4000, 1.0)});
  EXPECT_EQ(s.start_ns, 4000);
  EXPECT_EQ(s.end_ns, 7000);
  // Busy from 4000 to the end: the whole interval.
  EXPECT_DOUBLE_EQ(s.BusyShare(s.threads[0]), 1.0);

  const TraceSummary nothing = Summarize({ThreadName(1, "main")});
  EXPECT_FALSE(nothing.has_interval);
  EXPECT_TRUE(std::isnan(nothing.MeanBusyThreads()));
}

TEST(TraceSummaryTest, DroppedEventsFromOtherDataOrFromTheInstants) {
  TraceEvent dropped = Event('i', "benchprof", "benchprof: dropped events", 9, 100);
  dropped.count = 5;
  TraceEvent more = dropped;
  more.count = 2;
  const TraceSummary from_instants = Summarize({dropped, more});
  EXPECT_EQ(from_instants.dropped_events, 7u);
  ASSERT_EQ(from_instants.warnings.size(), 1u);
  EXPECT_EQ(from_instants.warnings[0].rfind("7 events were dropped", 0), 0u);

  TraceFileInfo info;
  StatusOr<json::Value> other =
      json::Parse(R"({"dropped_events":12,"producer":"p","clock":"tsc"})");
  ASSERT_TRUE(other.ok());
  info.other_data = *other;
  const TraceSummary from_other_data = Summarize({dropped}, info);
  EXPECT_EQ(from_other_data.dropped_events, 12u);
  EXPECT_EQ(from_other_data.producer, "p");
  EXPECT_EQ(from_other_data.clock, "tsc");

  EXPECT_TRUE(Summarize({Begin("A", 1, 0), End(1, 1)}).warnings.empty());
}

// One thread busy on a 4-CPU machine: three quarters of it idle, which is
// what the RSS case study's trace is there to show.
TEST(TraceSummaryTest, ParallelismIsSetAgainstTheCpusOfTheProcess) {
  const std::vector<TraceEvent> busy_one = {Cpu("CPU a [1]", 0, 1), Cpu("CPU a [1]", 1000, 0),
                                            Cpu("CPU b [2]", 0, 0), Cpu("CPU b [2]", 1000, 0)};
  TraceFileInfo info;
  StatusOr<json::Value> other = json::Parse(R"({"cpus":4})");
  ASSERT_TRUE(other.ok());
  info.other_data = *other;
  const TraceSummary with_cpus = Summarize(busy_one, info);
  EXPECT_EQ(with_cpus.cpus, 4u);
  EXPECT_NE(RenderTraceSummary(with_cpus, TraceSummaryFormat::kText)
                .find("parallelism:  1.00 threads busy on average, of 4 CPUs (75% idle)\n"),
            std::string::npos)
      << RenderTraceSummary(with_cpus, TraceSummaryFormat::kText);
  EXPECT_NE(RenderTraceSummary(with_cpus, TraceSummaryFormat::kJson).find("\"cpus\":4,"),
            std::string::npos);

  // Another producer's file says nothing of the CPUs: no share is made up.
  const TraceSummary without = Summarize(busy_one);
  EXPECT_EQ(without.cpus, 0u);
  const std::string text = RenderTraceSummary(without, TraceSummaryFormat::kText);
  EXPECT_NE(text.find("parallelism:  1.00 threads busy on average\n"), std::string::npos) << text;
  EXPECT_NE(RenderTraceSummary(without, TraceSummaryFormat::kJson).find("\"cpus\":null"),
            std::string::npos);
}

// A flight recorder's trace covers its window, but a thread's last buffer
// may hold older events: the interval, busy shares and blocked time count
// from the window's start, and ends whose begins fell before it are
// counted but are no warning.
TEST(TraceSummaryTest, AFlightRecorderTraceIsSummarizedOverItsWindow) {
  TraceEvent blocked = Event('X', "blocked", "blocked on a mutex", 1, 500);
  blocked.dur_ns = 1000;  // 500 of it inside the window
  const std::vector<TraceEvent> events = {
      Cpu("CPU main [1]", 0, 0),  // from before the window, in the thread's last buffer
      Begin("Old", 1, 100),
      End(1, 200),
      blocked,
      Cpu("CPU main [1]", 1000, 1),
      Cpu("CPU main [1]", 1500, 0),
      Cpu("CPU main [1]", 2000, 0),
      End(2, 1200),  // its begin was before the window
  };
  TraceFileInfo info;
  StatusOr<json::Value> other = json::Parse(R"({"window_ns":1000,"discarded_events":42})");
  ASSERT_TRUE(other.ok());
  info.other_data = *other;
  const TraceSummary s = Summarize(events, info);
  EXPECT_EQ(s.window_ns, 1000);
  EXPECT_EQ(s.discarded_events, 42u);
  EXPECT_EQ(s.start_ns, 1000);
  EXPECT_EQ(s.end_ns, 2000);
  ASSERT_EQ(s.threads.size(), 1u);
  EXPECT_EQ(s.threads[0].busy_ns, 500);
  EXPECT_DOUBLE_EQ(s.BusyShare(s.threads[0]), 0.5);
  EXPECT_EQ(s.threads[0].blocked_ns, 500);
  EXPECT_EQ(s.unmatched.span_ends, 1u);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
  const std::string text = RenderTraceSummary(s, TraceSummaryFormat::kText);
  EXPECT_NE(text.find("window:       the last 1.000µs of the run (flight recorder; 42 older "
                      "events discarded)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(RenderTraceSummary(s, TraceSummaryFormat::kJson)
                .find("\"window_ns\":1000,\"discarded_events\":42,"),
            std::string::npos);

  // Without the window the same events are a whole run with a warning.
  const TraceSummary whole = Summarize(events);
  EXPECT_EQ(whole.start_ns, 0);
  EXPECT_EQ(whole.threads[0].blocked_ns, 1000);
  EXPECT_EQ(whole.warnings.size(), 1u);
}

TEST(TraceSummaryTest, TruncationIsAWarning) {
  TraceFileInfo info;
  info.truncated = true;
  info.truncation = "line 7: the file ends inside an event";
  info.events = 3;
  const TraceSummary s = Summarize({Begin("A", 1, 0)}, info);
  EXPECT_TRUE(s.truncated);
  ASSERT_EQ(s.warnings.size(), 2u);
  EXPECT_EQ(s.warnings[0],
            "line 7: the file ends inside an event: the trace was cut short (was the bench "
            "process killed?); summarizing the 3 complete events");
}

// A pool started per iteration leaves hundreds of threads of one name: past
// 16 threads the text table has one row per name, busy summed.
TEST(TraceSummaryFormatTest, ManyThreadsOfOneNameAreOneRow) {
  TraceSummary s;
  s.has_interval = true;
  s.start_ns = 0;
  s.end_ns = 1'000'000'000;
  auto thread = [](const char* name, int64_t tid, int64_t busy_ns, bool has_cpu = true) {
    ThreadUsage t;
    t.name = name;
    t.tid = tid;
    t.has_cpu = has_cpu;
    t.busy_ns = busy_ns;
    return t;
  };
  s.threads.push_back(thread("main", 1, 5'000'000));
  for (int i = 0; i < 18; ++i) s.threads.push_back(thread("worker", 100 + i, 100'000'000));
  s.threads.push_back(thread("sampler", 2, 0, false));

  const std::string text = RenderTraceSummary(s, TraceSummaryFormat::kText);
  EXPECT_NE(text.find("worker (18 threads)    —  180.0%      —     1.800s\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("main                   1    0.5%  99.5%    5.000ms\n"), std::string::npos)
      << text;
  EXPECT_LT(text.find("worker (18"), text.find("main  "));  // busiest first
  EXPECT_NE(text.find("(20 threads; those sharing a name are one row"), std::string::npos);
  // JSON keeps every thread.
  const std::string json = RenderTraceSummary(s, TraceSummaryFormat::kJson);
  size_t workers = 0;
  for (size_t at = json.find("\"worker\""); at != std::string::npos;
       at = json.find("\"worker\"", at + 1)) {
    ++workers;
  }
  EXPECT_EQ(workers, 18u);

  s.threads.resize(16);  // main and 15 workers: one row each
  const std::string few = RenderTraceSummary(s, TraceSummaryFormat::kText);
  EXPECT_EQ(few.find("threads)"), std::string::npos) << few;
  EXPECT_NE(few.find("worker  100  10.0%  90.0%    100.0ms\n"), std::string::npos) << few;
}

}  // namespace
}  // namespace benchprof::trace_summary
