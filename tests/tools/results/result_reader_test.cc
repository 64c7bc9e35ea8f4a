// Reading Google Benchmark JSON and Go benchmark text into samples, and
// every kind of bad input the compare tool must reject with a one-line
// message that names the file.
#include "tools/results/result_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tools/results/benchfmt_reader.h"
#include "tools/results/gbench_json.h"

namespace benchprof::results {
namespace {

// A trimmed copy of what Google Benchmark 1.7.1 wrote on this machine, with
// repetitions, aggregates (including the bare NaN of a cv row), a failed
// benchmark and user counters.
constexpr char kGbenchJson[] = R"({
  "context": {"date": "2026-11-22T09:33:10+00:00", "host_name": "vm",
              "executable": "./bench", "num_cpus": 2, "mhz_per_cpu": 2596,
              "load_avg": [1.0, 0.3], "library_build_type": "debug"},
  "benchmarks": [
    {"name": "BM_Vec/8", "run_name": "BM_Vec/8", "run_type": "iteration", "repetitions": 2,
     "repetition_index": 0, "threads": 1, "iterations": 1565301,
     "real_time": 2.96e+01, "cpu_time": 1.80e+01, "time_unit": "ns",
     "B/op": 8.0, "allocs/op": 1.0},
    {"name": "BM_Vec/8", "run_name": "BM_Vec/8", "run_type": "iteration", "repetitions": 2,
     "repetition_index": 1, "threads": 1, "iterations": 1565301,
     "real_time": 3.00e+01, "cpu_time": 1.90e+01, "time_unit": "ns",
     "B/op": 8.0, "allocs/op": 1.0},
    {"name": "BM_Vec/8_mean", "run_name": "BM_Vec/8", "run_type": "aggregate", "repetitions": 2,
     "threads": 1, "aggregate_name": "mean", "aggregate_unit": "time", "iterations": 2,
     "real_time": 2.98e+01, "cpu_time": 1.85e+01, "time_unit": "ns", "B/op": 8.0, "allocs/op": 1.0},
    {"name": "BM_Vec/8_cv", "run_name": "BM_Vec/8", "run_type": "aggregate", "repetitions": 2,
     "threads": 1, "aggregate_name": "cv", "aggregate_unit": "percentage", "iterations": 2,
     "real_time": 0.01, "cpu_time": 0.02, "time_unit": "ns", "B/op": NaN, "allocs/op": NaN},
    {"name": "BM_Sleep/real_time", "run_name": "BM_Sleep/real_time", "run_type": "iteration",
     "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 10,
     "real_time": 1.5, "cpu_time": 0.01, "time_unit": "ms", "items_per_second": 1e6},
    {"name": "BM_Err", "run_name": "BM_Err", "run_type": "iteration", "repetitions": 1,
     "repetition_index": 0, "threads": 1, "error_occurred": true, "error_message": "boom",
     "iterations": 1, "real_time": 0.0, "cpu_time": 0.0, "time_unit": "ns"}
  ]
}
)";

TEST(ResultReaderTest, ReadsGoogleBenchmarkJson) {
  ResultSet set;
  ASSERT_TRUE(AddResultText("base.json", kGbenchJson, set).ok());
  EXPECT_EQ(set.format, InputFormat::kGoogleBenchmarkJson);
  ASSERT_EQ(set.benchmarks.size(), 2u);  // the failed one has no samples

  const BenchmarkSamples* vec = set.Find("BM_Vec/8");
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(vec->time_metric, "cpu_time");
  EXPECT_EQ(*vec->Find("cpu_time"), (std::vector<double>{18.0, 19.0}));  // raw rows only
  EXPECT_EQ(*vec->Find("real_time"), (std::vector<double>{29.6, 30.0}));
  EXPECT_EQ(*vec->Find("allocs/op"), (std::vector<double>{1, 1}));
  EXPECT_EQ(*vec->Find("B/op"), (std::vector<double>{8, 8}));

  const BenchmarkSamples* sleep = set.Find("BM_Sleep/real_time");
  ASSERT_NE(sleep, nullptr);
  EXPECT_EQ(sleep->time_metric, "real_time");
  EXPECT_EQ(*sleep->Find("real_time"), std::vector<double>{1.5e6});  // ms -> ns
  EXPECT_EQ(set.metrics.at("allocs/op").kind, MetricKind::kExact);
  EXPECT_EQ(set.metrics.at("cpu_time").kind, MetricKind::kTime);
  EXPECT_EQ(set.metrics.at("cpu_time").unit, "ns/op");
  EXPECT_EQ(set.metrics.at("items_per_second").kind, MetricKind::kCounter);
  EXPECT_TRUE(set.metrics.at("items_per_second").higher_is_better);

  ASSERT_EQ(set.warnings.size(), 1u);
  EXPECT_EQ(set.warnings[0],
            "base.json: BM_Err: 1 of 1 repetitions failed (boom); they are ignored");
  EXPECT_EQ(set.config.front(), (std::pair<std::string, std::string>{"host_name", "vm"}));
}

// The shape Google Benchmark 1.9.1's json_reporter.cc writes, trimmed:
// "library_version" and "json_schema_version" in the context (and the keys
// benchprof's bench adds), a benchmark that called State::SkipWithMessage
// in both its repetitions, one that called State::SkipWithError, and a
// normal one with its aggregates.
constexpr char kGbench191Json[] = R"({
  "context": {
    "date": "2026-11-24T16:40:52+00:00", "host_name": "vm", "executable": "./bench",
    "num_cpus": 2, "mhz_per_cpu": 2596, "cpu_scaling_enabled": false,
    "caches": [{"type": "Data", "level": 1, "size": 32768, "num_sharing": 1}],
    "load_avg": [0.43,0.29,0.15],
    "library_version": "v1.9.1",
    "library_build_type": "release",
    "json_schema_version": 1,
    "benchprof_version": "0.1.0",
    "google_benchmark_version": "1.9.1"
  },
  "benchmarks": [
    {"name": "BM_Vec/8", "family_index": 0, "per_family_instance_index": 0,
     "run_name": "BM_Vec/8", "run_type": "iteration", "repetitions": 2, "repetition_index": 0,
     "threads": 1, "iterations": 1565301, "real_time": 2.9600000000000001e+01,
     "cpu_time": 1.8000000000000000e+01, "time_unit": "ns", "B/op": 8.0000000000000000e+00,
     "allocs/op": 1.0000000000000000e+00},
    {"name": "BM_Vec/8", "family_index": 0, "per_family_instance_index": 0,
     "run_name": "BM_Vec/8", "run_type": "iteration", "repetitions": 2, "repetition_index": 1,
     "threads": 1, "iterations": 1565301, "real_time": 3.0000000000000000e+01,
     "cpu_time": 1.9000000000000000e+01, "time_unit": "ns", "B/op": 8.0000000000000000e+00,
     "allocs/op": 1.0000000000000000e+00},
    {"name": "BM_Vec/8_mean", "family_index": 0, "per_family_instance_index": 0,
     "run_name": "BM_Vec/8", "run_type": "aggregate", "repetitions": 2, "threads": 1,
     "aggregate_name": "mean", "aggregate_unit": "time", "iterations": 2,
     "real_time": 2.9800000000000001e+01, "cpu_time": 1.8500000000000000e+01, "time_unit": "ns",
     "B/op": 8.0000000000000000e+00, "allocs/op": 1.0000000000000000e+00},
    {"name": "BM_Gpu", "family_index": 1, "per_family_instance_index": 0,
     "run_name": "BM_Gpu", "run_type": "iteration", "repetitions": 2, "repetition_index": 0,
     "threads": 1, "skipped": true, "skip_message": "no GPU", "iterations": 0,
     "real_time": 0.0000000000000000e+00, "cpu_time": 0.0000000000000000e+00, "time_unit": "ns"},
    {"name": "BM_Gpu", "family_index": 1, "per_family_instance_index": 0,
     "run_name": "BM_Gpu", "run_type": "iteration", "repetitions": 2, "repetition_index": 1,
     "threads": 1, "skipped": true, "skip_message": "no GPU", "iterations": 0,
     "real_time": 0.0000000000000000e+00, "cpu_time": 0.0000000000000000e+00, "time_unit": "ns"},
    {"name": "BM_Err", "family_index": 2, "per_family_instance_index": 0,
     "run_name": "BM_Err", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
     "threads": 1, "error_occurred": true, "error_message": "boom", "iterations": 0,
     "real_time": 0.0000000000000000e+00, "cpu_time": 0.0000000000000000e+00, "time_unit": "ns"}
  ]
}
)";

// `text` with its first `from` replaced by `to`.
std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(GbenchJsonTest, ReadsVersion191Rows) {
  const StatusOr<GbenchResults> r = ParseGbenchJson(kGbench191Json);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->library_version, "v1.9.1");
  EXPECT_EQ(r->json_schema_version, 1);
  EXPECT_EQ(GbenchVersion(*r), "1.9.1");
  ASSERT_EQ(r->rows.size(), 6u);

  const GbenchRow& vec = r->rows[0];
  EXPECT_TRUE(vec.measured());
  EXPECT_EQ(vec.cpu_ns, 18.0);
  EXPECT_EQ(vec.iterations, 1565301);

  const GbenchRow& gpu = r->rows[3];
  EXPECT_TRUE(gpu.skipped);
  EXPECT_FALSE(gpu.error);
  EXPECT_FALSE(gpu.measured());
  EXPECT_EQ(gpu.skip_message, "no GPU");
  EXPECT_EQ(gpu.iterations, 0);
  EXPECT_TRUE(gpu.counters.empty());

  const GbenchRow& err = r->rows[5];
  EXPECT_TRUE(err.error);
  EXPECT_FALSE(err.skipped);
  EXPECT_EQ(err.error_message, "boom");

  std::vector<std::string> notes;
  const std::vector<const GbenchRow*> samples = SampleRows(*r, notes);
  ASSERT_EQ(samples.size(), 2u);  // the two raw BM_Vec/8 rows
  EXPECT_EQ(samples[0], &r->rows[0]);
  EXPECT_EQ(samples[1], &r->rows[1]);
  // The failure is a note; the skip is not.
  EXPECT_EQ(notes, std::vector<std::string>{"BM_Err: 1 of 1 repetitions failed (boom); they "
                                            "are ignored"});

  const std::vector<SkippedBenchmark> skips = SkippedBenchmarks(*r);
  ASSERT_EQ(skips.size(), 1u);
  EXPECT_EQ(skips[0].run_name, "BM_Gpu");
  EXPECT_EQ(skips[0].message, "no GPU");
  EXPECT_EQ(skips[0].skipped, 2);
  EXPECT_EQ(skips[0].repetitions, 2);
  EXPECT_EQ(DescribeSkip(skips[0]), "BM_Gpu: skipped (no GPU)");
}

TEST(ResultReaderTest, ReadsVersion191Files) {
  ResultSet set;
  const Status s = AddResultText("head.json", kGbench191Json, set);
  ASSERT_TRUE(s.ok()) << s.message();
  // BM_Gpu skipped itself and BM_Err failed: neither has samples.
  ASSERT_EQ(set.benchmarks.size(), 1u);
  const BenchmarkSamples* vec = set.Find("BM_Vec/8");
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(*vec->Find("cpu_time"), (std::vector<double>{18.0, 19.0}));
  EXPECT_EQ(*vec->Find("real_time"), (std::vector<double>{29.6, 30.0}));
  EXPECT_EQ(*vec->Find("allocs/op"), (std::vector<double>{1, 1}));
  EXPECT_EQ(set.Find("BM_Gpu"), nullptr);

  EXPECT_EQ(set.warnings, std::vector<std::string>{"head.json: BM_Err: 1 of 1 repetitions "
                                                   "failed (boom); they are ignored"});
  ASSERT_EQ(set.skipped.size(), 1u);
  EXPECT_EQ(set.skipped[0].file, "head.json");
  EXPECT_EQ(set.skipped[0].skip.run_name, "BM_Gpu");
  EXPECT_EQ(set.gbench_versions, std::vector<std::string>{"1.9.1"});
  EXPECT_EQ(set.config.front(), (std::pair<std::string, std::string>{"host_name", "vm"}));
}

TEST(GbenchJsonTest, VersionComesFromLibraryVersionThenBenchprofsKey) {
  auto version = [](const std::string& context) {
    const StatusOr<GbenchResults> r =
        ParseGbenchJson(R"({"context": )" + context +
                        R"(, "benchmarks": [{"name": "BM_A", "real_time": 1, "cpu_time": 1}]})");
    EXPECT_TRUE(r.ok()) << context;
    return r.ok() ? GbenchVersion(*r) : "error";
  };
  EXPECT_EQ(version(R"({"library_version": "v1.9.1", "google_benchmark_version": "1.9.0"})"),
            "1.9.1");
  // A build from a release tarball, as Debian's, writes no "v".
  EXPECT_EQ(version(R"({"library_version": "1.9.1"})"), "1.9.1");
  EXPECT_EQ(version(R"({"library_version": "v1.8.3-12-gabcdef12-dirty"})"),
            "1.8.3-12-gabcdef12-dirty");
  EXPECT_EQ(version(R"({"library_version": "main"})"), "main");
  EXPECT_EQ(version(R"({"google_benchmark_version": "1.7.1"})"), "1.7.1");
  EXPECT_EQ(version(R"({"library_version": "", "google_benchmark_version": "1.7.1"})"), "1.7.1");
  EXPECT_EQ(version(R"({"host_name": "vm", "benchprof_version": "0.1.0", "x": {"y": [1]}})"), "");
  EXPECT_EQ(version("{}"), "");
}

TEST(ResultReaderTest, PartlySkippedBenchmarksKeepTheirSamples) {
  // A benchmark may skip itself in some repetitions only (e.g. when a
  // resource comes and goes): the others are samples.
  const char* text = R"({"benchmarks": [
    {"name": "BM_Net", "run_name": "BM_Net", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 0, "iterations": 10, "real_time": 5, "cpu_time": 4, "time_unit": "ns"},
    {"name": "BM_Net", "run_name": "BM_Net", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 1, "skipped": true, "skip_message": "offline", "iterations": 0,
     "real_time": 0, "cpu_time": 0, "time_unit": "ns"},
    {"name": "BM_Net", "run_name": "BM_Net", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 2, "iterations": 10, "real_time": 6, "cpu_time": 5, "time_unit": "ns"}
  ]})";
  ResultSet set;
  ASSERT_TRUE(AddResultText("net.json", text, set).ok());
  EXPECT_EQ(*set.Find("BM_Net")->Find("cpu_time"), (std::vector<double>{4, 5}));
  EXPECT_TRUE(set.warnings.empty());
  ASSERT_EQ(set.skipped.size(), 1u);
  EXPECT_EQ(DescribeSkip(set.skipped[0].skip), "BM_Net: 1 of 3 repetitions skipped (offline)");
  EXPECT_EQ(set.gbench_versions, std::vector<std::string>{""});
}

TEST(ResultReaderTest, AFileWhoseBenchmarksAllSkippedIsNotBadInput) {
  const char* text = R"({"benchmarks": [
    {"name": "BM_Gpu", "run_type": "iteration", "skipped": true, "skip_message": "",
     "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"}]})";
  ResultSet set;
  const Status s = AddResultText("gpu.json", text, set);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(set.benchmarks.empty());
  ASSERT_EQ(set.skipped.size(), 1u);
  EXPECT_EQ(DescribeSkip(set.skipped[0].skip), "BM_Gpu: skipped");  // no message
  EXPECT_EQ(set.files, std::vector<std::string>{"gpu.json"});
}

TEST(ResultReaderTest, SchemaVersion2IsRefused) {
  const std::string v2 =
      Replaced(kGbench191Json, R"("json_schema_version": 1)", R"("json_schema_version": 2)");
  const StatusOr<GbenchResults> parsed = ParseGbenchJson(v2);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(),
            "unsupported json_schema_version 2 (this benchprof reads 1)");
  ResultSet set;
  const Status s = AddResultText("next.json", v2, set);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "next.json: unsupported json_schema_version 2 (this benchprof reads 1)");
  EXPECT_TRUE(set.files.empty());
}

TEST(ResultReaderTest, AggregatesOnlyFileUsesTheMedianWithAWarning) {
  const char* text = R"({"benchmarks": [
    {"name": "BM_A_mean", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "mean",
     "iterations": 3, "real_time": 10, "cpu_time": 9, "time_unit": "ns"},
    {"name": "BM_A_median", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "median",
     "iterations": 3, "real_time": 11, "cpu_time": 8, "time_unit": "ns"},
    {"name": "BM_A_stddev", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "stddev",
     "iterations": 3, "real_time": 1, "cpu_time": 1, "time_unit": "ns"}]})";
  ResultSet set;
  ASSERT_TRUE(AddResultText("agg.json", text, set).ok());
  EXPECT_EQ(*set.Find("BM_A")->Find("cpu_time"), std::vector<double>{8});
  ASSERT_EQ(set.warnings.size(), 1u);
  EXPECT_NE(set.warnings[0].find("agg.json: BM_A: no raw repetitions"), std::string::npos);
  EXPECT_NE(set.warnings[0].find("its median counts as one sample"), std::string::npos);
}

TEST(ResultReaderTest, SeveralFilesPerSidePoolTheirSamples) {
  ResultSet set;
  ASSERT_TRUE(AddResultText("r1.json", kGbenchJson, set).ok());
  ASSERT_TRUE(AddResultText("r2.json", kGbenchJson, set).ok());
  EXPECT_EQ(set.Find("BM_Vec/8")->Find("cpu_time")->size(), 4u);
  EXPECT_EQ(set.files, (std::vector<std::string>{"r1.json", "r2.json"}));
  const Status mixed = AddResultText("r3.txt", "BenchmarkX 1 2 ns/op\n", set);
  ASSERT_FALSE(mixed.ok());
  EXPECT_EQ(mixed.message(),
            "r3.txt: is Go benchmark text but r1.json is Google Benchmark JSON; convert JSON "
            "with `benchprof convert --to=go` to mix them");
}

TEST(ResultReaderTest, ReadsGoBenchmarkText) {
  const char* text =
      "goos: linux\n"
      "goarch: amd64\n"
      "pkg: example.com/gobench\n"
      "cpu: AMD EPYC\n"
      "Unit frames assume=exact better=higher\n"
      "BenchmarkWork-2    \t  207159\t      1145 ns/op\t       0 B/op\t       0 allocs/op\n"
      "BenchmarkWork-2    \t  207159\t      1150 ns/op\t       0 B/op\t       0 allocs/op\n"
      "BenchmarkEncode/format=json-2 \t 1000 \t 10.5 ns/op \t 95.3 MB/s \t 3 frames\n"
      "BenchmarkNameOnly\n"
      "--- BENCH: BenchmarkWork-2\n"
      "PASS\n"
      "ok  \texample.com/gobench\t1.560s\n";
  ResultSet set;
  ASSERT_TRUE(AddResultText("old.txt", text, set).ok());
  EXPECT_EQ(set.format, InputFormat::kGoText);
  ASSERT_EQ(set.benchmarks.size(), 2u);
  const BenchmarkSamples* work = set.Find("Work-2");
  ASSERT_NE(work, nullptr);
  EXPECT_EQ(work->time_metric, "ns/op");
  EXPECT_EQ(*work->Find("ns/op"), (std::vector<double>{1145, 1150}));
  EXPECT_EQ(*work->Find("allocs/op"), (std::vector<double>{0, 0}));
  EXPECT_EQ(set.metrics.at("ns/op").kind, MetricKind::kTime);
  EXPECT_EQ(set.metrics.at("B/op").kind, MetricKind::kExact);
  EXPECT_EQ(set.metrics.at("frames").kind, MetricKind::kExact);
  EXPECT_TRUE(set.metrics.at("frames").higher_is_better);
  EXPECT_TRUE(set.metrics.at("MB/s").higher_is_better);
  ASSERT_GE(set.config.size(), 4u);
  EXPECT_EQ(set.config[3], (std::pair<std::string, std::string>{"cpu", "AMD EPYC"}));
}

TEST(BenchfmtReaderTest, ConfigLinesFollowTheGrammar) {
  const StatusOr<GoBenchText> text = ParseGoBenchText(
      "commit: abc\n"
      "Not-config: x\n"  // upper case: not a key
      "has space: x\n"   // space in the key
      "key:novalue\n"    // no space after the colon
      "commit:\n"        // empty value deletes
      "note: a b  c  \n"
      "BenchmarkA 1 2 ns/op\n"
      "later: ignored for the first result\n");
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(text->config, (std::vector<std::pair<std::string, std::string>>{{"note", "a b  c"}}));
  ASSERT_EQ(text->results.size(), 1u);
  EXPECT_EQ(text->results[0].name, "A");
  EXPECT_EQ(text->results[0].iterations, 1);
}

// Each bad input, the message the tool prints after "benchprof compare: ".
struct BadInput {
  const char* name;
  std::string contents;
  const char* message;
};

TEST(ResultReaderTest, EveryBadInputIsOneLineNamingTheFile) {
  const std::string truncated = std::string(kGbenchJson).substr(0, 700);
  const BadInput cases[] = {
      {"empty", "", "f: empty file"},
      {"blank", "  \n\t\n", "f: empty file"},
      {"binary",
       std::string("\x7f"
                   "ELF\0\0",
                   6),
       "f: binary file (NUL byte at offset 4), expected Google Benchmark JSON or Go benchmark "
       "text"},
      {"truncated", truncated, "f: line 12, column 46: unexpected end of input (truncated?)"},
      {"syntax", "{\"benchmarks\": [}", "f: line 1, column 17: expected a value"},
      {"not gbench", "{\"foo\": 1}", "f: not Google Benchmark JSON: no \"benchmarks\" array"},
      {"benchmarks not array", "{\"benchmarks\": {}}",
       "f: not Google Benchmark JSON: \"benchmarks\" is an object, expected an array"},
      {"no rows", "{\"benchmarks\": []}", "f: no benchmark results (\"benchmarks\" is empty)"},
      {"row not object", "{\"benchmarks\": [3]}",
       "f: benchmarks[0]: expected an object, found number"},
      {"no name", "{\"benchmarks\": [{\"real_time\": 1, \"cpu_time\": 1}]}",
       "f: benchmarks[0]: no \"name\""},
      {"time as string",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"real_time\": \"1\", \"cpu_time\": 1}]}",
       "f: benchmarks[0] (BM_A): \"real_time\" is a string, expected a number"},
      {"no times", "{\"benchmarks\": [{\"name\": \"BM_A\", \"iterations\": 3}]}",
       "f: benchmarks[0] (BM_A): no \"real_time\" and \"cpu_time\""},
      {"unknown unit",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"real_time\": 1, \"cpu_time\": 1, \"time_unit\": "
       "\"xs\"}]}",
       "f: benchmarks[0] (BM_A): unknown \"time_unit\" \"xs\" (expected ns, us, ms or s)"},
      {"negative time",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"real_time\": -1, \"cpu_time\": 1}]}",
       "f: benchmarks[0] (BM_A): \"real_time\" must be a finite number >= 0"},
      {"NaN time", "{\"benchmarks\": [{\"name\": \"BM_A\", \"real_time\": NaN, \"cpu_time\": 1}]}",
       "f: benchmarks[0] (BM_A): \"real_time\" must be a finite number >= 0"},
      // Found by fuzz_gbench_json: convert wrote it in full, and no Go text
      // reader (ours included) takes an iteration count beyond 64 bits.
      {"iterations beyond 64 bits",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"iterations\": 7111111111111111111111, "
       "\"real_time\": 1, \"cpu_time\": 1}]}",
       "f: benchmarks[0] (BM_A): \"iterations\" is beyond Google Benchmark's count "
       "(at most 2^63 - 1)"},
      {"bad run_type",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"run_type\": \"x\", \"real_time\": 1, "
       "\"cpu_time\": 1}]}",
       "f: benchmarks[0] (BM_A): unknown \"run_type\" \"x\" (expected \"iteration\" or "
       "\"aggregate\")"},
      {"aggregate without run_type",
       "{\"benchmarks\": [{\"name\": \"BM_A_mean\", \"run_name\": \"BM_A\", "
       "\"aggregate_name\": \"mean\", \"real_time\": 1, \"cpu_time\": 1}]}",
       "f: benchmarks[0] (BM_A_mean): \"aggregate_name\" \"mean\" but \"run_type\" is not "
       "\"aggregate\""},
      {"skipped not a bool",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"skipped\": \"yes\", \"real_time\": 0, "
       "\"cpu_time\": 0}]}",
       "f: benchmarks[0] (BM_A): \"skipped\" is a string, expected true or false"},
      {"skipped as a number",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"skipped\": 1, \"real_time\": 0, "
       "\"cpu_time\": 0}]}",
       "f: benchmarks[0] (BM_A): \"skipped\" is a number, expected true or false"},
      {"skip_message not a string",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"skipped\": true, \"skip_message\": [], "
       "\"real_time\": 0, \"cpu_time\": 0}]}",
       "f: benchmarks[0] (BM_A): \"skip_message\" is an array, expected a string"},
      {"schema version 2", "{\"context\": {\"json_schema_version\": 2}, \"benchmarks\": []}",
       "f: unsupported json_schema_version 2 (this benchprof reads 1)"},
      {"schema version 0", "{\"context\": {\"json_schema_version\": 0}, \"benchmarks\": []}",
       "f: context: \"json_schema_version\" must be an integer >= 1"},
      {"schema version 1.5", "{\"context\": {\"json_schema_version\": 1.5}, \"benchmarks\": []}",
       "f: context: \"json_schema_version\" must be an integer >= 1"},
      {"schema version NaN", "{\"context\": {\"json_schema_version\": NaN}, \"benchmarks\": []}",
       "f: context: \"json_schema_version\" must be an integer >= 1"},
      {"schema version string",
       "{\"context\": {\"json_schema_version\": \"1\"}, \"benchmarks\": []}",
       "f: context: \"json_schema_version\" is a string, expected a number"},
      {"library_version not a string",
       "{\"context\": {\"library_version\": 1.9}, \"benchmarks\": []}",
       "f: context: \"library_version\" is a number, expected a string"},
      {"google_benchmark_version not a string",
       "{\"context\": {\"google_benchmark_version\": null}, \"benchmarks\": []}",
       "f: context: \"google_benchmark_version\" is a null, expected a string"},
      {"all failed",
       "{\"benchmarks\": [{\"name\": \"BM_A\", \"error_occurred\": true, \"error_message\": \"x\", "
       "\"real_time\": 0, \"cpu_time\": 0}]}",
       "f: no successful benchmark results (every row failed)"},
      {"go no results", "goos: linux\nPASS\n",
       "f: no benchmark results (expected Google Benchmark JSON, or Go benchmark text lines "
       "\"Benchmark<Name> <iterations> <value> <unit> ...\")"},
      {"go bad iterations", "BenchmarkA x 1 ns/op\n",
       "f: line 1: iteration count \"x\" is not a non-negative integer"},
      {"go missing measurements", "goos: linux\nBenchmarkA 100\n",
       "f: line 2: missing measurements"},
      {"go missing unit", "BenchmarkA 100 5 ns/op 7\n", "f: line 1: missing unit after 7"},
      {"go bad value", "BenchmarkA 100 fast ns/op\n",
       "f: line 1: measurement \"fast\" is not a number"},
      {"go bad unit line", "Unit ns/op better=sideways\nBenchmarkA 1 2 ns/op\n",
       "f: line 1: better=sideways: expected higher or lower"},
  };
  for (const BadInput& c : cases) {
    ResultSet set;
    const Status s = AddResultText("f", c.contents, set);
    ASSERT_FALSE(s.ok()) << c.name;
    EXPECT_EQ(s.message(), c.message) << c.name;
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << c.name;
  }
}

TEST(ResultReaderTest, EveryPrefixOfAFileIsHandled) {
  // Truncation anywhere: an error or (for a cut after the last row's
  // closing brace) a smaller result, never a crash.
  const std::string full = kGbenchJson;
  for (size_t n = 0; n < full.size(); ++n) {
    ResultSet set;
    const Status s = AddResultText("f", full.substr(0, n), set);
    if (!s.ok()) {
      EXPECT_EQ(s.message().rfind("f: ", 0), 0u) << n;
    }
  }
}

TEST(ResultReaderTest, UnreadableFiles) {
  StatusOr<ResultSet> r = ReadResultFiles({"/nonexistent/base.json"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "/nonexistent/base.json: cannot open: No such file or directory");
  r = ReadResultFiles({"/"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "/: is a directory");
}

TEST(GbenchJsonTest, UsesRealTime) {
  EXPECT_TRUE(UsesRealTime("BM_A/real_time"));
  EXPECT_TRUE(UsesRealTime("BM_A/8/process_time/real_time/threads:2"));
  EXPECT_TRUE(UsesRealTime("BM_M/iterations:3/manual_time"));
  EXPECT_FALSE(UsesRealTime("BM_A/8/threads:2"));
  EXPECT_FALSE(UsesRealTime("BM_real_time"));
  EXPECT_FALSE(UsesRealTime("BM_A/process_time"));
}

TEST(GbenchJsonTest, CountersAndNaNAreKept) {
  const StatusOr<GbenchResults> r = ParseGbenchJson(kGbenchJson);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->rows.size(), 6u);
  const GbenchRow& cv = r->rows[3];
  EXPECT_TRUE(cv.aggregate);
  EXPECT_EQ(cv.aggregate_name, "cv");
  ASSERT_EQ(cv.counters.size(), 2u);
  EXPECT_TRUE(std::isnan(cv.counters[0].second));
  EXPECT_EQ(r->rows[0].counters,
            (std::vector<std::pair<std::string, double>>{{"B/op", 8}, {"allocs/op", 1}}));
  EXPECT_TRUE(r->rows[5].error);
  EXPECT_EQ(r->rows[5].error_message, "boom");
}

}  // namespace
}  // namespace benchprof::results
