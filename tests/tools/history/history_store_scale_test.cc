// The store's cost, printed: recording 1,000 benchmarks x 20 repetitions
// into SQLite (the target: 1 s; asserted with a generous bound),
// the size of a SQLite database of 1,000 series x 1,000 runs (target
// 200 MB; asserted), and `history detect` over all of it, the database read
// included (target 5 s; printed, asserted with a generous bound).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "support/subprocess.h"
#include "tools/history/detect_command.h"
#include "tools/history/history_store.h"

namespace benchprof::history {
namespace {

using results::MetricInfo;
using results::MetricKind;

results::ResultSet Synthetic(int benchmarks, int repetitions, const std::vector<std::string>& metrics,
                             int seed) {
  results::ResultSet set;
  for (const std::string& m : metrics) {
    set.metrics[m] = MetricInfo{m == "allocs/op" ? "allocs/op" : "ns/op",
                                m == "allocs/op" ? MetricKind::kExact : MetricKind::kTime, false};
  }
  for (int b = 0; b < benchmarks; ++b) {
    results::BenchmarkSamples s;
    s.name = "BM_Scale/" + std::to_string(b) + "/threads:1";
    s.time_metric = "cpu_time";
    for (const std::string& m : metrics) {
      std::vector<double> values;
      for (int r = 0; r < repetitions; ++r) values.push_back(1000.0 + b + r * 0.37 + seed * 1e-3);
      s.metrics.emplace_back(m, std::move(values));
    }
    set.benchmarks.push_back(std::move(s));
  }
  return set;
}

RunToRecord ScaleRun(const results::ResultSet& set, int i) {
  RunToRecord run;
  run.content_hash = "run-" + std::to_string(i);
  run.results = &set;
  run.commit = CommitInfo{"c" + std::to_string(100000 + i),
                          i == 0 ? std::vector<std::string>{}
                                 : std::vector<std::string>{"c" + std::to_string(100000 + i - 1)},
                          int64_t{i} * 1'000'000'000, "commit " + std::to_string(i)};
  run.branch = "main";
  run.testbed = TestbedIdentity{"scale", "f", {}};
  run.benchprof_version = "test";
  return run;
}

TEST(HistoryStoreScaleTest, RecordingAThousandBenchmarksOfTwentyRepetitions) {
  benchprof::testing::TempDir dir;
  StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open(dir.File("h.sqlite"), {});
  ASSERT_TRUE(store.ok()) << store.status().message();
  const results::ResultSet set =
      Synthetic(1000, 20, {"cpu_time", "real_time", "allocs/op", "B/op"}, 0);
  const auto start = std::chrono::steady_clock::now();
  StatusOr<RecordOutcome> r = (*store)->Record(ScaleRun(set, 0));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::printf("recording 1,000 benchmarks x 4 metrics x 20 repetitions into SQLite: %.3f s\n",
              seconds);
  EXPECT_LT(seconds, 5.0);  // the target is 1 s; the bound leaves room for a loaded machine
}

TEST(HistoryStoreScaleTest, AThousandSeriesOfAThousandRunsFitIn200MB) {
  benchprof::testing::TempDir dir;
  const std::string path = dir.File("h.sqlite");
  StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open(path, {});
  ASSERT_TRUE(store.ok()) << store.status().message();
  // 1,000 series: 500 benchmarks x 2 metrics, 10 repetitions a run.
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; ++i) {
    const results::ResultSet set = Synthetic(500, 10, {"cpu_time", "allocs/op"}, i);
    StatusOr<RecordOutcome> r = (*store)->Record(ScaleRun(set, i));
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  const double record_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto load_start = std::chrono::steady_clock::now();
  StatusOr<std::vector<Series>> all = (*store)->LoadSeries({});
  const double load_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->size(), 1000u);
  EXPECT_EQ(all->front().points.size(), 1000u);
  EXPECT_EQ(all->front().points.back().commit, "c100999");
  ASSERT_TRUE((*store)->database().Execute("PRAGMA wal_checkpoint(TRUNCATE)").ok());
  store->reset();
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  const double mb = static_cast<double>(st.st_size) / 1e6;
  std::printf("1,000 series x 1,000 runs x 10 repetitions: database %.1f MB; recorded in %.1f s, "
              "all series loaded in %.2f s\n",
              mb, record_s, load_s);
  EXPECT_LT(mb, 200.0);

  std::string out, err;
  const auto detect_start = std::chrono::steady_clock::now();
  const int code = RunDetectCommand({"--db=" + path, "--format=json"}, out, err);
  const double detect_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - detect_start).count();
  EXPECT_TRUE(code == 0 || code == 1) << err;
  EXPECT_NE(out.find("\"series_count\":1000,"), std::string::npos) << out.substr(0, 200);
  std::printf("history detect over the 1,000 series x 1,000 runs, database read included: %.2f s\n",
              detect_s);
  EXPECT_LT(detect_s, 25.0);  // the target is 5 s; the bound leaves room for a loaded machine
}

}  // namespace
}  // namespace benchprof::history
