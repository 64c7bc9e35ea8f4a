// The store (history_store.h) on both backends: recording, reading back,
// ancestry order, the schema's versions, concurrent recorders, hostile names.
#include "tools/history/history_store.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/subprocess.h"
#include "tools/history/database_test_backend.h"
#include "tools/history/history_schema.h"

namespace benchprof::history {
namespace {

using results::BenchmarkSamples;
using results::MetricInfo;
using results::MetricKind;
using results::ResultSet;
using testing::BackendName;

// A result set of `benchmarks` benchmarks with cpu_time, real_time and
// allocs/op, `repetitions` each; values derived from `seed`.
ResultSet MakeResults(int benchmarks, int repetitions, double seed,
                      const std::string& prefix = "BM_") {
  ResultSet set;
  set.format = results::InputFormat::kGoogleBenchmarkJson;
  set.metrics["cpu_time"] = MetricInfo{"ns/op", MetricKind::kTime, false};
  set.metrics["real_time"] = MetricInfo{"ns/op", MetricKind::kTime, false};
  set.metrics["allocs/op"] = MetricInfo{"allocs/op", MetricKind::kExact, false};
  for (int b = 0; b < benchmarks; ++b) {
    BenchmarkSamples s;
    s.name = prefix + std::to_string(b);
    s.time_metric = b % 2 == 0 ? "cpu_time" : "real_time";
    std::vector<double> cpu, real, allocs;
    for (int r = 0; r < repetitions; ++r) {
      cpu.push_back(seed + b + r / 7.0);
      real.push_back(seed + b + r / 3.0 + 0.1);
      allocs.push_back(b % 3);
    }
    s.metrics = {{"cpu_time", cpu}, {"real_time", real}, {"allocs/op", allocs}};
    set.benchmarks.push_back(std::move(s));
  }
  return set;
}

CommitInfo Commit(const std::string& hash, std::vector<std::string> parents, int64_t time_s,
                  const std::string& subject = "") {
  return CommitInfo{hash, std::move(parents), time_s * 1'000'000'000LL, subject};
}

RunToRecord MakeRun(const std::string& content, const ResultSet& results, const CommitInfo& commit,
                    const std::string& branch = "main", const std::string& testbed = "tb") {
  RunToRecord run;
  run.content_hash = content;
  run.results = &results;
  run.commit = commit;
  run.branch = branch;
  run.testbed = TestbedIdentity{testbed, "fp-" + testbed, {{"cores", "2"}}};
  run.benchprof_version = "test";
  run.gbench_version = "1.7.1";
  return run;
}

class HistoryStoreTest : public ::testing::TestWithParam<BackendName> {
 protected:
  void SetUp() override {
    std::string why_not;
    bool must_fail = false;
    location_ = testing::FreshDatabase(GetParam(), &why_not, &must_fail);
    if (location_.empty() && must_fail) FAIL() << why_not;
    if (location_.empty()) GTEST_SKIP() << why_not;
  }

  std::unique_ptr<HistoryStore> Open() {
    int code = -1;
    StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open(location_, {}, &code);
    EXPECT_TRUE(store.ok()) << store.status().message();
    EXPECT_EQ(code, 0);
    if (!store.ok()) return nullptr;
    return std::move(*store);
  }

  int64_t Count(HistoryStore& store, const std::string& table) {
    StatusOr<SqlRows> rows = store.database().Query("SELECT count(*) FROM " + table);
    EXPECT_TRUE(rows.ok()) << rows.status().message();
    return rows.ok() ? std::get<int64_t>(rows->front()[0]) : -1;
  }

  std::string location_;
};

INSTANTIATE_TEST_SUITE_P(Backends, HistoryStoreTest,
                         ::testing::Values(BackendName::kSqlite, BackendName::kPostgresql),
                         [](const auto& param_info) {
                           return param_info.param == BackendName::kSqlite ? "Sqlite" : "Postgresql";
                         });

TEST_P(HistoryStoreTest, RecordingTheSameContentTwiceStoresOneRun) {
  auto store = Open();
  ASSERT_TRUE(store);
  const ResultSet results = MakeResults(3, 5, 100);
  const RunToRecord run = MakeRun("hash-1", results, Commit("aaaa01", {}, 1000));
  StatusOr<RecordOutcome> first = store->Record(run);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_FALSE(first->already_recorded);
  EXPECT_EQ(first->benchmarks, 3);
  EXPECT_EQ(first->metrics, 3);
  StatusOr<RecordOutcome> second = store->Record(run);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_TRUE(second->already_recorded);
  EXPECT_EQ(second->run_id, first->run_id);
  EXPECT_EQ(Count(*store, "runs"), 1);
  EXPECT_EQ(Count(*store, "samples"), 9);

  // And through a second connection (another process would be one).
  auto again = Open();
  ASSERT_TRUE(again);
  StatusOr<RecordOutcome> third = again->Record(run);
  ASSERT_TRUE(third.ok()) << third.status().message();
  EXPECT_TRUE(third->already_recorded);
  EXPECT_EQ(Count(*again, "runs"), 1);
}

TEST_P(HistoryStoreTest, EveryRepetitionOfEveryMetricReadsBackBitForBit) {
  auto store = Open();
  ASSERT_TRUE(store);
  ResultSet results = MakeResults(2, 20, 1.0 / 3);
  // Values a text round trip or a float would change.
  results.benchmarks[0].metrics[0].second = {
      0.1, -0.0, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
      1e-300, 123456789.123456789, std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::infinity(), 2.0 / 3, 42};
  ASSERT_TRUE(store->Record(MakeRun("h", results, Commit("bbbb01", {}, 5))).ok());
  StatusOr<std::vector<Series>> series = store->LoadSeries({});
  ASSERT_TRUE(series.ok()) << series.status().message();
  ASSERT_EQ(series->size(), 6u);
  size_t checked = 0;
  for (const Series& s : *series) {
    const BenchmarkSamples* b = results.Find(s.key.benchmark);
    if (b == nullptr) {
      for (const BenchmarkSamples& candidate : results.benchmarks) {
        if (candidate.name == s.key.benchmark) b = &candidate;
      }
    }
    ASSERT_NE(b, nullptr) << s.key.benchmark;
    const std::vector<double>* expected = nullptr;
    for (const auto& [metric, values] : b->metrics) {
      if (metric == s.key.metric) expected = &values;
    }
    ASSERT_NE(expected, nullptr);
    ASSERT_EQ(s.points.size(), 1u);
    const std::vector<double>& got = s.points[0].values;
    ASSERT_EQ(got.size(), expected->size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(std::bit_cast<uint64_t>(got[i]), std::bit_cast<uint64_t>((*expected)[i]))
          << s.key.benchmark << " " << s.key.metric << " #" << i;
    }
    EXPECT_EQ(s.info.unit, results.metrics.at(s.key.metric).unit);
    EXPECT_EQ(s.info.kind, results.metrics.at(s.key.metric).kind);
    EXPECT_EQ(s.key.testbed, "tb");
    EXPECT_EQ(s.key.branch, "main");
    ++checked;
  }
  EXPECT_EQ(checked, 6u);
  StatusOr<std::map<std::string, std::string>> time = store->TimeMetrics();
  ASSERT_TRUE(time.ok());
  EXPECT_EQ(*time, (std::map<std::string, std::string>{{"BM_0", "cpu_time"},
                                                       {"BM_1", "real_time"}}));
}

TEST_P(HistoryStoreTest, PointsFollowAncestryWhateverTheRecordingOrder) {
  auto store = Open();
  ASSERT_TRUE(store);
  // a1 <- a2 <- a3 <- m (merge of a3 and f2), f1 <- f2 branch off a2; the
  // feature commits are *older* than a3 by time, and recorded first and
  // last; x is unrelated (a root), older than everything.
  const CommitInfo a1 = Commit("a1a1a1", {}, 100), a2 = Commit("a2a2a2", {"a1a1a1"}, 200),
                   a3 = Commit("a3a3a3", {"a2a2a2"}, 500), f1 = Commit("f1f1f1", {"a2a2a2"}, 300),
                   f2 = Commit("f2f2f2", {"f1f1f1"}, 400),
                   m = Commit("e0e0e0", {"a3a3a3", "f2f2f2"}, 450),  // merge, clock skewed back
                   x = Commit("cccccc", {}, 50);
  std::vector<ResultSet> sets;
  for (int i = 0; i < 8; ++i) sets.push_back(MakeResults(1, 3, i));
  struct Step {
    std::string content;
    CommitInfo commit;
    std::vector<CommitInfo> ancestry;
  };
  // Recorded out of order: the merge first (with its first-parent chain),
  // then the feature branch, then the old ones, a commit twice.
  const std::vector<Step> steps = {
      {"r-m", m, {a3, a2, a1}}, {"r-f2", f2, {f1, a2, a1}}, {"r-a1", a1, {}},
      {"r-x", x, {}},           {"r-a3", a3, {a2, a1}},     {"r-a2", a2, {a1}},
      {"r-f1", f1, {a2, a1}},   {"r-a2-again", a2, {a1}}};
  std::map<std::string, int64_t> run_of;
  for (size_t i = 0; i < steps.size(); ++i) {
    RunToRecord run = MakeRun(steps[i].content, sets[i], steps[i].commit);
    run.ancestry = steps[i].ancestry;
    StatusOr<RecordOutcome> r = store->Record(run);
    ASSERT_TRUE(r.ok()) << r.status().message();
    run_of[steps[i].content] = r->run_id;
  }
  SeriesFilter filter;
  filter.metric = "cpu_time";
  StatusOr<std::vector<Series>> series = store->LoadSeries(filter);
  ASSERT_TRUE(series.ok()) << series.status().message();
  ASSERT_EQ(series->size(), 1u);
  std::vector<std::string> commits;
  std::vector<int64_t> runs;
  for (const SeriesPoint& p : series->front().points) {
    commits.push_back(p.commit);
    runs.push_back(p.run_id);
  }
  // x and a1 are roots (x older); a2; then f1 (300) and f2 (400) become
  // ready before a3 (500) by time; the merge after both its parents.
  EXPECT_EQ(commits, (std::vector<std::string>{"cccccc", "a1a1a1", "a2a2a2", "a2a2a2", "f1f1f1",
                                               "f2f2f2", "a3a3a3", "e0e0e0"}));
  // The two runs of a2 by recording order.
  EXPECT_EQ(runs[2], run_of["r-a2"]);
  EXPECT_EQ(runs[3], run_of["r-a2-again"]);

  // The merge's ancestors: itself, its parents, then theirs, nearest first.
  StatusOr<std::vector<std::string>> ancestors = store->Ancestors("e0e0e0");
  ASSERT_TRUE(ancestors.ok()) << ancestors.status().message();
  EXPECT_EQ(*ancestors, (std::vector<std::string>{"e0e0e0", "a3a3a3", "f2f2f2", "a2a2a2",
                                                  "f1f1f1", "a1a1a1"}));
  ancestors = store->Ancestors("f1f1f1", 2);
  ASSERT_TRUE(ancestors.ok());
  EXPECT_EQ(*ancestors, (std::vector<std::string>{"f1f1f1", "a2a2a2"}));
  ancestors = store->Ancestors("123456");
  ASSERT_TRUE(ancestors.ok());
  EXPECT_TRUE(ancestors->empty());

  StatusOr<std::map<std::string, CommitInfo>> known = store->Commits({"e0e0e0", "nothere"});
  ASSERT_TRUE(known.ok());
  ASSERT_EQ(known->size(), 1u);
  EXPECT_EQ(known->at("e0e0e0").parents, (std::vector<std::string>{"a3a3a3", "f2f2f2"}));
  EXPECT_EQ(known->at("e0e0e0").committer_time_ns, 450'000'000'000LL);

  StatusOr<std::optional<CommitInfo>> found = store->FindCommit("f1f1");
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->hash, "f1f1f1");
  EXPECT_FALSE(store->FindCommit("a").ok());       // too short
  EXPECT_FALSE(store->FindCommit("zzzz").ok());    // not hexadecimal
  found = store->FindCommit("dddd");
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(found->has_value());
}

TEST_P(HistoryStoreTest, TheTimeMetricIsTheLastRecordedRunsOne) {
  auto store = Open();
  ASSERT_TRUE(store);
  ResultSet first = MakeResults(2, 2, 1), second = MakeResults(3, 2, 2);
  second.benchmarks[0].time_metric = "real_time";  // BM_0 switched to UseRealTime
  second.benchmarks[2].time_metric = "";           // no time at all
  ASSERT_TRUE(store->Record(MakeRun("1", first, Commit("aaaa11", {}, 1))).ok());
  ASSERT_TRUE(store->Record(MakeRun("2", second, Commit("aaaa22", {}, 2))).ok());
  StatusOr<std::map<std::string, std::string>> time = store->TimeMetrics();
  ASSERT_TRUE(time.ok()) << time.status().message();
  EXPECT_EQ(*time, (std::map<std::string, std::string>{{"BM_0", "real_time"},
                                                       {"BM_1", "real_time"}}));
}

TEST_P(HistoryStoreTest, FiltersSelectSeries) {
  auto store = Open();
  ASSERT_TRUE(store);
  const ResultSet one = MakeResults(3, 2, 1), two = MakeResults(3, 2, 2);
  ASSERT_TRUE(store->Record(MakeRun("1", one, Commit("aaaa11", {}, 1), "main", "big")).ok());
  ASSERT_TRUE(store->Record(MakeRun("2", two, Commit("aaaa22", {}, 2), "dev", "small")).ok());
  SeriesFilter filter;
  filter.benchmark = *compare::NamePattern::Compile("^BM_[12]$");
  filter.metric = "allocs/op";
  filter.branch = "dev";
  StatusOr<std::vector<Series>> series = store->LoadSeries(filter);
  ASSERT_TRUE(series.ok()) << series.status().message();
  ASSERT_EQ(series->size(), 2u);
  EXPECT_EQ((*series)[0].key, (SeriesKey{"BM_1", "allocs/op", "small", "dev"}));
  EXPECT_EQ((*series)[1].key, (SeriesKey{"BM_2", "allocs/op", "small", "dev"}));
  filter.testbed = "big";
  series = store->LoadSeries(filter);
  ASSERT_TRUE(series.ok());
  EXPECT_TRUE(series->empty());
  StatusOr<std::vector<TestbedIdentity>> testbeds = store->Testbeds();
  ASSERT_TRUE(testbeds.ok());
  ASSERT_EQ(testbeds->size(), 2u);
  EXPECT_EQ((*testbeds)[0].name, "big");
  EXPECT_EQ((*testbeds)[0].facts,
            (std::vector<std::pair<std::string, std::string>>{{"cores", "2"}}));
}

TEST_P(HistoryStoreTest, AttachmentsComeBackAsStored) {
  auto store = Open();
  ASSERT_TRUE(store);
  const ResultSet results = MakeResults(1, 1, 1);
  RunToRecord run = MakeRun("att", results, Commit("abab01", {}, 1));
  std::string binary(100000, '\0');
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 7 % 251);
  run.attachments = {{"cpu.pprof", "pprof", binary}, {"notes.txt", "file", ""}};
  StatusOr<RecordOutcome> r = store->Record(run);
  ASSERT_TRUE(r.ok()) << r.status().message();
  StatusOr<std::vector<Attachment>> got = store->Attachments(r->run_id);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].name, "cpu.pprof");
  EXPECT_EQ((*got)[0].kind, "pprof");
  EXPECT_TRUE((*got)[0].bytes == binary);
  EXPECT_EQ((*got)[1].bytes, "");
}

TEST_P(HistoryStoreTest, HostileNamesAreData) {
  auto store = Open();
  ASSERT_TRUE(store);
  const std::vector<std::string> names = {
      "BM_x'); DROP TABLE runs; --", "BM_\"quoted\"", "BM_$1 $2", "BM_new\nline",
      "BM_ünïcødé/∞", "BM_%_like_\\", std::string(3000, 'L')};
  ResultSet results = MakeResults(static_cast<int>(names.size()), 2, 1);
  for (size_t i = 0; i < names.size(); ++i) results.benchmarks[i].name = names[i];
  const std::string branch = "feature/'; DELETE FROM samples; --", testbed = "tb\"$1'";
  StatusOr<RecordOutcome> r =
      store->Record(MakeRun("hostile'", results, Commit("dead01", {}, 1), branch, testbed));
  ASSERT_TRUE(r.ok()) << r.status().message();
  StatusOr<std::vector<Series>> series = store->LoadSeries({});
  ASSERT_TRUE(series.ok()) << series.status().message();
  ASSERT_EQ(series->size(), names.size() * 3);
  std::set<std::string> seen;
  for (const Series& s : *series) {
    seen.insert(s.key.benchmark);
    EXPECT_EQ(s.key.branch, branch);
    EXPECT_EQ(s.key.testbed, testbed);
  }
  EXPECT_EQ(seen, std::set<std::string>(names.begin(), names.end()));
  EXPECT_EQ(Count(*store, "runs"), 1);

  // A NUL byte cannot be stored as text: refused, naming it, nothing stored.
  ResultSet nul = MakeResults(1, 1, 1);
  nul.benchmarks[0].name = std::string("BM_\0x", 5);
  StatusOr<RecordOutcome> refused = store->Record(MakeRun("nul", nul, Commit("dead02", {}, 1)));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "benchmark name \"BM_?x\" holds a NUL byte, which cannot be stored");
  EXPECT_EQ(store->last_failure_exit_code(), 3);
  EXPECT_EQ(Count(*store, "runs"), 1);
}

TEST_P(HistoryStoreTest, NewerSchemaIsRefusedNamingBothVersions) {
  {
    auto store = Open();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->database()
                    .Execute("UPDATE schema_info SET schema_version = 99, benchprof_version = "
                             "'9.9.9'")
                    .ok());
  }
  int code = -1;
  StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open(location_, {}, &code);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(code, 3);
  const std::string& message = store.status().message();
  EXPECT_NE(message.find("history schema 99"), std::string::npos) << message;
  EXPECT_NE(message.find("9.9.9"), std::string::npos) << message;
  EXPECT_NE(message.find("schema " + std::to_string(kSchemaVersion) + ")"), std::string::npos)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST_P(HistoryStoreTest, OpeningTwiceMigratesOnce) {
  auto a = Open();
  auto b = Open();
  ASSERT_TRUE(a && b);
  StatusOr<SchemaState> state = ReadSchemaState(a->database());
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->version, kSchemaVersion);
  EXPECT_EQ(Count(*a, "schema_info"), 1);
}

TEST_P(HistoryStoreTest, ConcurrentRecordersStoreEveryRunOnce) {
  constexpr int kRecorders = 4, kRunsEach = 10;
  std::vector<ResultSet> sets;
  for (int i = 0; i < kRunsEach; ++i) sets.push_back(MakeResults(20, 5, i));
  std::vector<std::thread> threads;
  std::vector<std::string> failures(kRecorders);
  for (int t = 0; t < kRecorders; ++t) {
    threads.emplace_back([&, t] {
      StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open(location_, {});
      if (!store.ok()) {
        failures[t] = store.status().message();
        return;
      }
      for (int i = 0; i < kRunsEach; ++i) {
        // Each recorder's own runs, and one run every recorder records.
        const std::string content =
            i == 0 ? "shared" : "t" + std::to_string(t) + "-" + std::to_string(i);
        RunToRecord run =
            MakeRun(content, sets[i], Commit("c0ffee" + std::to_string(i), {}, i));
        StatusOr<RecordOutcome> r = (*store)->Record(run);
        if (!r.ok()) failures[t] += r.status().message() + "; ";
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
  auto store = Open();
  ASSERT_TRUE(store);
  EXPECT_EQ(Count(*store, "runs"), 1 + kRecorders * (kRunsEach - 1));
  EXPECT_EQ(Count(*store, "samples"), (1 + kRecorders * (kRunsEach - 1)) * 20 * 3);
  EXPECT_EQ(Count(*store, "benchmarks"), 20);
}

// Shard `index` of 4 of run "ci-42": its own benchmarks (BM_s<index>_0..4).
RunToRecord MakeShard(const ResultSet& results, int index, const std::string& content = "") {
  RunToRecord run = MakeRun(content.empty() ? "shard-file-" + std::to_string(index) : content,
                            results, Commit("5ba4d", {}, 1000));
  run.shard = RunShard{"ci-42", index, 4};
  return run;
}

std::vector<ResultSet> ShardResults() {
  std::vector<ResultSet> shards;
  for (int i = 0; i < 4; ++i) shards.push_back(MakeResults(5, 3, i, "BM_s" + std::to_string(i) + "_"));
  return shards;
}

TEST_P(HistoryStoreTest, ShardsRecordedOneByOneAreOneRun) {
  auto store = Open();
  ASSERT_TRUE(store);
  const std::vector<ResultSet> shards = ShardResults();
  std::set<int64_t> run_ids;
  for (int i : {2, 0, 3, 1}) {  // in any order
    StatusOr<RecordOutcome> r = store->Record(MakeShard(shards[i], i));
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_FALSE(r->already_recorded);
    EXPECT_EQ(r->benchmarks, 5);
    run_ids.insert(r->run_id);
  }
  EXPECT_EQ(run_ids.size(), 1u);
  EXPECT_EQ(Count(*store, "runs"), 1);
  EXPECT_EQ(Count(*store, "run_shards"), 4);
  EXPECT_EQ(Count(*store, "samples"), 4 * 5 * 3);
  // A shard recorded again from its file: stored once.
  StatusOr<RecordOutcome> again = store->Record(MakeShard(shards[1], 1));
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_TRUE(again->already_recorded);
  EXPECT_EQ(again->run_id, *run_ids.begin());
  EXPECT_EQ(Count(*store, "samples"), 4 * 5 * 3);
  // Every benchmark is a series with that one run.
  StatusOr<std::vector<Series>> series = store->LoadSeries({});
  ASSERT_TRUE(series.ok()) << series.status().message();
  EXPECT_EQ(series->size(), 4u * 5 * 3);
  for (const Series& one : *series) {
    ASSERT_EQ(one.points.size(), 1u) << one.key.benchmark;
    EXPECT_EQ(one.points[0].run_id, *run_ids.begin());
  }
  // Another sharded run of the same commit (another key) is another run.
  RunToRecord other = MakeShard(shards[0], 0, "other-file");
  other.shard->run_key = "ci-43";
  StatusOr<RecordOutcome> next = store->Record(other);
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_NE(next->run_id, *run_ids.begin());
}

TEST_P(HistoryStoreTest, AShardThatDoesNotFitItsRunIsRefusedWithNothingStored) {
  auto store = Open();
  ASSERT_TRUE(store);
  const std::vector<ResultSet> shards = ShardResults();
  ASSERT_TRUE(store->Record(MakeShard(shards[0], 0)).ok());
  const int64_t samples = Count(*store, "samples");
  const auto refused = [&](RunToRecord run, const std::string& why) {
    StatusOr<RecordOutcome> r = store->Record(run);
    ASSERT_FALSE(r.ok()) << why;
    EXPECT_NE(r.status().message().find(why), std::string::npos) << r.status().message();
    EXPECT_EQ(store->last_failure_exit_code(), 3);
    EXPECT_EQ(Count(*store, "samples"), samples);
    EXPECT_EQ(Count(*store, "run_shards"), 1);
  };
  // The same shard from other results.
  refused(MakeShard(shards[0], 0, "a-different-file"), "shard 0/4 of run ci-42 was recorded before");
  // A benchmark another shard holds.
  refused(MakeShard(shards[0], 1), "BM_s0_0 is in another recorded shard of the run");
  // Another commit, another branch, another testbed.
  RunToRecord moved = MakeShard(shards[1], 1);
  moved.commit = Commit("facade", {}, 2000);
  refused(moved, "is of commit facade on main, the run's other shards of 5ba4d on main");
  RunToRecord elsewhere = MakeShard(shards[1], 1);
  elsewhere.testbed = TestbedIdentity{"other", "fp-other", {}};
  refused(elsewhere, "ran on testbed other, not on the testbed of the run's other shards");
}

TEST_P(HistoryStoreTest, SixteenShardJobsRecordingAtOnceLoseNothing) {
  constexpr int kShards = 16;
  std::vector<ResultSet> sets;
  for (int i = 0; i < kShards; ++i) sets.push_back(MakeResults(10, 5, i, "BM_j" + std::to_string(i) + "_"));
  std::vector<std::thread> threads;
  std::vector<std::string> failures(kShards);
  for (int t = 0; t < kShards; ++t) {
    threads.emplace_back([&, t] {
      StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open(location_, {});
      if (!store.ok()) {
        failures[t] = store.status().message();
        return;
      }
      RunToRecord run = MakeRun("job-" + std::to_string(t), sets[t], Commit("b16b00b5", {}, 7));
      run.shard = RunShard{"pipeline-7", t, kShards};
      StatusOr<RecordOutcome> r = (*store)->Record(run);
      if (!r.ok()) failures[t] = r.status().message();
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
  auto store = Open();
  ASSERT_TRUE(store);
  EXPECT_EQ(Count(*store, "runs"), 1);
  EXPECT_EQ(Count(*store, "run_shards"), kShards);
  EXPECT_EQ(Count(*store, "samples"), kShards * 10 * 3);
}

TEST_P(HistoryStoreTest, AVersionOneDatabaseIsMigrated) {
  {
    auto store = Open();
    ASSERT_TRUE(store);
    const ResultSet results = MakeResults(2, 3, 1);
    ASSERT_TRUE(store->Record(MakeRun("v1-run", results, Commit("0ld", {}, 1))).ok());
    // As benchprof 0.1.0's first schema left it: no run_shards, version 1.
    ASSERT_TRUE(store->database().Execute("DROP TABLE run_shards").ok());
    ASSERT_TRUE(store->database().Execute("UPDATE schema_info SET schema_version = 1").ok());
  }
  auto store = Open();
  ASSERT_TRUE(store);
  StatusOr<SchemaState> state = ReadSchemaState(store->database());
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->version, kSchemaVersion);
  EXPECT_EQ(Count(*store, "run_shards"), 0);
  EXPECT_EQ(Count(*store, "runs"), 1);
}

TEST(HistoryStoreFileTest, ANonDatabaseFileIsBadInput) {
  benchprof::testing::TempDir dir;
  const std::string path = dir.File("not.sqlite");
  {
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("this is not a database, but it is long enough to look like a header......\n"
               "and more text to fill a page..........................................\n",
               f);
    std::fclose(f);
  }
  int code = -1;
  StatusOr<std::unique_ptr<HistoryStore>> store = HistoryStore::Open(path, {}, &code);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(code, 3) << store.status().message();
  EXPECT_NE(store.status().message().find("not.sqlite"), std::string::npos)
      << store.status().message();
}

TEST(HistoryStoreValuesTest, EncodingIsLittleEndianFloat64InOrder) {
  const std::string bytes = EncodeValues({1.0, -2.5});
  ASSERT_EQ(bytes.size(), 16u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\0\0\0\0\0\0\xf0\x3f", 8));
  EXPECT_EQ(bytes.substr(8, 8), std::string("\0\0\0\0\0\0\x04\xc0", 8));
  StatusOr<std::vector<double>> back = DecodeValues(bytes);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, (std::vector<double>{1.0, -2.5}));
  EXPECT_FALSE(DecodeValues("1234567").ok());
  EXPECT_EQ(MedianOf({3, 1, 2}), 2);
  EXPECT_EQ(MedianOf({4, 1, 2, 3}), 2.5);
  EXPECT_EQ(MedianOf({}), 0);
}

}  // namespace
}  // namespace benchprof::history
