// `benchprof convert --to=go`: Google Benchmark names and values mapped to
// lines that follow the benchfmt grammar benchstat reads.
#include "tools/convert/go_format_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/results/benchfmt_reader.h"
#include "tools/results/gbench_json.h"

namespace benchprof::convert {

using results::GbenchResults;
using results::GoBenchText;
using results::ParseGbenchJson;
using results::ParseGoBenchText;

namespace {

TEST(GoBenchmarkNameTest, MapsGoogleBenchmarkNameParts) {
  struct Case {
    const char* run_name;
    int64_t threads;
    const char* go_name;
  };
  const Case cases[] = {
      {"BM_Foo", 1, "BenchmarkBM_Foo"},
      {"BM_Foo/8", 1, "BenchmarkBM_Foo/8"},
      {"BM_Foo/8/threads:2", 2, "BenchmarkBM_Foo/8-2"},
      {"BM_Foo/threads:1", 1, "BenchmarkBM_Foo"},
      {"BM_Foo/8/16", 4, "BenchmarkBM_Foo/8/16-4"},
      {"BM_A/8/process_time/real_time/threads:2", 2, "BenchmarkBM_A/8/cpu=process/time=real-2"},
      {"BM_A/x:4/iterations:100/repeats:2", 1, "BenchmarkBM_A/x=4/iterations=100/repeats=2"},
      {"BM_M/iterations:3/manual_time", 1, "BenchmarkBM_M/iterations=3/time=manual"},
      {"BM_A/min_time:0.500", 1, "BenchmarkBM_A/min_time=0.500"},
      {"BM_T<3, int>", 1, "BenchmarkBM_T<3,_int>"},
      {"BM_C/small one", 1, "BenchmarkBM_C/small_one"},
      {"BM_Tab\tname", 1, "BenchmarkBM_Tab_name"},
      // A trailing -<digits> would be read as GOMAXPROCS: mark procs = 1.
      {"BM_A/-3", 1, "BenchmarkBM_A/-3-1"},
      {"BM_A/-3/threads:2", 2, "BenchmarkBM_A/-3-2"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(GoBenchmarkName(c.run_name, c.threads), c.go_name) << c.run_name;
  }
}

TEST(GoPrettyNumberTest, FollowsGoTestingPrettyPrint) {
  EXPECT_EQ(GoPrettyNumber(0), "         0");
  EXPECT_EQ(GoPrettyNumber(1145), "      1145");
  EXPECT_EQ(GoPrettyNumber(999.96), "      1000");
  EXPECT_EQ(GoPrettyNumber(863.6), "       863.6");
  EXPECT_EQ(GoPrettyNumber(29.6), "        29.60");
  EXPECT_EQ(GoPrettyNumber(1.5), "         1.500");
  EXPECT_EQ(GoPrettyNumber(0.2932), "         0.2932");
  EXPECT_EQ(GoPrettyNumber(0.01234), "         0.01234");
  EXPECT_EQ(GoPrettyNumber(0.001234), "         0.001234");
  EXPECT_EQ(GoPrettyNumber(0.0001234), "         0.0001234");
  EXPECT_EQ(GoPrettyNumber(1.5e-9), "         1.500e-09");  // Go would print 0.0000000
  EXPECT_EQ(GoPrettyNumber(-1145), "     -1145");
}

constexpr char kTwoRuns[] = R"({
  "context": {"date": "d", "host_name": "vm", "executable": "/x/build/bench", "num_cpus": 2,
              "mhz_per_cpu": 2596, "library_build_type": "debug", "Commit ID": "abc 123"},
  "benchmarks": [
    {"name": "BM_A/8/threads:2", "run_name": "BM_A/8/threads:2", "run_type": "iteration",
     "threads": 2, "iterations": 2000, "real_time": 1.5, "cpu_time": 2.9, "time_unit": "us",
     "allocs/op": 0.5, "B/op": 16, "items x": 4, "bytes_per_second": 1e9, "bad": NaN},
    {"name": "BM_A/8/threads:2_mean", "run_name": "BM_A/8/threads:2", "run_type": "aggregate",
     "aggregate_name": "mean", "threads": 2, "iterations": 1, "real_time": 1.5,
     "cpu_time": 2.9, "time_unit": "us"},
    {"name": "BM_Err", "run_name": "BM_Err", "run_type": "iteration", "error_occurred": true,
     "error_message": "boom", "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"}
  ]
})";

TEST(GoTextWriterTest, WritesConfigAndOneLinePerRepetition) {
  const StatusOr<GbenchResults> r = ParseGbenchJson(kTwoRuns);
  ASSERT_TRUE(r.ok()) << r.status().message();
  GoTextWriter writer(GoFormatOptions{.assume_exact = true});
  writer.Add("run.json", *r);
  EXPECT_EQ(writer.Finish(),
            "Unit allocs/op assume=exact\n"
            "Unit B/op assume=exact\n"
            "pkg: bench\n"
            "benchprof-host: vm\n"
            "benchprof-num-cpus: 2\n"
            "benchprof-library-build-type: debug\n"
            "commit-id: abc 123\n"
            "# benchprof: date=d mhz_per_cpu=2596\n"
            "BenchmarkBM_A/8-2\t    2000\t      1500 ns/op\t1000000000 bytes_per_second\t"
            "      2900 cpu-ns/op\t         4.000 items_x\t      16 B/op\t"
            "         0.5000 allocs/op\n");
  ASSERT_EQ(writer.warnings().size(), 2u);
  EXPECT_EQ(writer.warnings()[0],
            "run.json: BM_Err: 1 of 1 repetitions failed (boom); they are ignored");
  EXPECT_EQ(writer.warnings()[1],
            "run.json: BM_A/8/threads:2: bad is not a finite number; left out");
}

// instructions/op (--instructions) is exact too; only the units present
// get a line.
TEST(GoTextWriterTest, AssumeExactNamesTheExactUnitsPresent) {
  const StatusOr<GbenchResults> r = ParseGbenchJson(R"({
    "context": {"host_name": "vm"},
    "benchmarks": [
      {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "iterations": 10,
       "real_time": 5, "cpu_time": 5, "time_unit": "ns", "instructions/op": 12063,
       "allocs/op": 2}
    ]
  })");
  ASSERT_TRUE(r.ok()) << r.status().message();
  GoTextWriter writer(GoFormatOptions{.assume_exact = true});
  writer.Add("run.json", *r);
  const std::string text = writer.Finish();
  EXPECT_TRUE(text.starts_with("Unit allocs/op assume=exact\n"
                               "Unit instructions/op assume=exact\n"
                               "benchprof-host: vm\n"))
      << text;
  EXPECT_NE(text.find("     12063 instructions/op\t"), std::string::npos) << text;
}

TEST(GoTextWriterTest, SkippedRepetitionsAreLeftOutWithAWarning) {
  // Google Benchmark 1.9.1's shape: State::SkipWithMessage writes "skipped"
  // and "skip_message". The library versions go into the comment, as they
  // differ between the sides of an upgrade and would split benchstat's
  // tables; the schema version is left out.
  const StatusOr<GbenchResults> r = ParseGbenchJson(R"({
    "context": {"host_name": "vm", "library_version": "v1.9.1", "json_schema_version": 1,
                "google_benchmark_version": "1.9.1"},
    "benchmarks": [
      {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 1,
       "repetition_index": 0, "threads": 1, "iterations": 10,
       "real_time": 2.0000000000000000e+00, "cpu_time": 2.0000000000000000e+00,
       "time_unit": "ns"},
      {"name": "BM_Gpu", "run_name": "BM_Gpu", "run_type": "iteration", "repetitions": 2,
       "repetition_index": 0, "threads": 1, "skipped": true, "skip_message": "no GPU",
       "iterations": 0, "real_time": 0.0000000000000000e+00,
       "cpu_time": 0.0000000000000000e+00, "time_unit": "ns"},
      {"name": "BM_Gpu", "run_name": "BM_Gpu", "run_type": "iteration", "repetitions": 2,
       "repetition_index": 1, "threads": 1, "skipped": true, "skip_message": "no GPU",
       "iterations": 0, "real_time": 0.0000000000000000e+00,
       "cpu_time": 0.0000000000000000e+00, "time_unit": "ns"}
    ]})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  GoTextWriter writer(GoFormatOptions{});
  writer.Add("results.json", *r);
  EXPECT_EQ(writer.Finish(),
            "benchprof-host: vm\n"
            "# benchprof: library_version=v1.9.1 google_benchmark_version=1.9.1\n"
            "BenchmarkBM_A\t      10\t         2.000 ns/op\t         2.000 cpu-ns/op\n");
  EXPECT_EQ(writer.warnings(), std::vector<std::string>{"results.json: BM_Gpu: skipped (no GPU)"});
}

TEST(GoTextWriterTest, ConfigChangesBetweenFilesAreWrittenAsBenchfmtDoes) {
  GoTextWriter writer(GoFormatOptions{});
  StatusOr<GbenchResults> a = ParseGbenchJson(
      R"({"context": {"host_name": "one", "flavor": "x"}, "benchmarks": [
          {"name": "BM_A", "real_time": 1, "cpu_time": 1, "iterations": 1}]})");
  StatusOr<GbenchResults> b = ParseGbenchJson(
      R"({"context": {"host_name": "two"}, "benchmarks": [
          {"name": "BM_A", "real_time": 2, "cpu_time": 2, "iterations": 1}]})");
  ASSERT_TRUE(a.ok() && b.ok());
  writer.Add("a.json", *a);
  writer.Add("b.json", *b);
  const std::string text = writer.Finish();
  EXPECT_EQ(text,
            "benchprof-host: one\n"
            "flavor: x\n"
            "BenchmarkBM_A\t       1\t         1.000 ns/op\t         1.000 cpu-ns/op\n"
            "flavor:\n"
            "benchprof-host: two\n"
            "BenchmarkBM_A\t       1\t         2.000 ns/op\t         2.000 cpu-ns/op\n");
  // Read back with the benchfmt grammar: the deleted key is gone.
  const StatusOr<GoBenchText> parsed = ParseGoBenchText(text);
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->results.size(), 2u);
  EXPECT_EQ(parsed->results[1].values,
            (std::vector<std::pair<std::string, double>>{{"ns/op", 2}, {"cpu-ns/op", 2}}));
}

TEST(GoTextWriterTest, EveryLineIsValidBenchfmt) {
  // Awkward names and counters: whatever the JSON holds, each output line is
  // a config line, a comment or a result with an even number of
  // value/unit fields after the name and iteration count.
  const StatusOr<GbenchResults> r = ParseGbenchJson(R"({"context": {"Weird Key!": "v\nw"},
    "benchmarks": [
      {"name": "BM weird/a b/c:d e/threads:3", "threads": 3, "real_time": 1, "cpu_time": 1,
       "iterations": 7, "my counter": 1, "x\ty": 2, "": 3}]})");
  ASSERT_TRUE(r.ok());
  GoTextWriter writer(GoFormatOptions{});
  writer.Add("w.json", *r);
  const std::string text = writer.Finish();
  const StatusOr<GoBenchText> parsed = ParseGoBenchText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->results.size(), 1u);
  EXPECT_EQ(parsed->results[0].name, "BM_weird/a_b/c=d_e-3");
  EXPECT_EQ(parsed->results[0].iterations, 7);
  EXPECT_EQ(parsed->results[0].values.size(), 4u);  // ns/op, cpu-ns/op, my_counter, x_y
  EXPECT_EQ(parsed->config,
            (std::vector<std::pair<std::string, std::string>>{{"weird-key-", "v w"}}));
}

TEST(GoTextWriterTest, HugeValuesAreWrittenInFullAndReadBack) {
  // Found by fuzz_gbench_json: Go prints values of 1000 and more with every
  // integer digit (9.1e82 has 83), and the Go text reader refused numbers
  // longer than 64 characters, so convert's own output did not read back.
  const StatusOr<GbenchResults> r = ParseGbenchJson(R"({"benchmarks": [
      {"name": "BM_A", "real_time": 9.0998524801325084e+82, "cpu_time": 1.7976931348623157e308,
       "iterations": 1}]})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  GoTextWriter writer(GoFormatOptions{});
  writer.Add("huge.json", *r);
  const StatusOr<GoBenchText> parsed = ParseGoBenchText(writer.Finish());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->results.size(), 1u);
  EXPECT_EQ(parsed->results[0].values,
            (std::vector<std::pair<std::string, double>>{{"ns/op", 9.0998524801325084e+82},
                                                         {"cpu-ns/op", 1.7976931348623157e308}}));
}

}  // namespace
}  // namespace benchprof::convert
