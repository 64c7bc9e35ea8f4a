// --cpuprofile end to end: benchmarks with a known CPU profile
// (fixtures/cpu_fixture_bench.cc) and the Elvis workload, profiled by the
// real binaries and read back with `go tool pprof` (the tool users read
// profiles with) and with benchprof's own decoder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "collect/cpu_sampler.h"
#include "common/json_value.h"
#include "encode/pprof_reader.h"
#include "support/go_pprof.h"
#include "support/subprocess.h"

namespace benchprof {

using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileLine;
using encode::ProfileSample;
using encode::ReadProfile;

namespace {

using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

class CpuProfileIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!collect::kCpuSamplerSupported) {
      GTEST_SKIP() << "no CPU profiler under ThreadSanitizer";
    }
    if (std::string(GO_PATH).empty()) {
      GTEST_SKIP() << "go tool pprof is missing: install golang-go (ci/setup-debian does)";
    }
  }

  // Runs `binary` with `args` plus --cpuprofile=<temp>/name; returns the path.
  // `stdout_text`, if given, receives what the binary printed.
  std::string Profile(const std::string& binary, std::vector<std::string> args,
                      const std::string& name = "cpu.pprof", std::string* stdout_text = nullptr) {
    const std::string path = dir_.File(name);
    args.insert(args.begin(), binary);
    args.push_back("--cpuprofile=" + path);
    const ProcessResult result = RunProcess(args);
    EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
    EXPECT_NE(result.stderr_text.find("cpu profile: " + path), std::string::npos)
        << result.stderr_text;
    if (stdout_text != nullptr) *stdout_text = result.stdout_text;
    return path;
  }

  ProcessResult Pprof(const std::vector<std::string>& args) {
    return testing::RunGoPprof(GO_PATH, args, dir_);
  }

  // Milliseconds per function name from `go tool pprof -top`: flat, or
  // cumulative with `cumulative`.
  std::map<std::string, double> Millis(std::vector<std::string> args, bool cumulative = false) {
    args.insert(args.begin(), {"-top", "-unit=ms", "-nodecount=1000"});
    const ProcessResult result = Pprof(args);
    EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
    std::map<std::string, double> flat;
    std::istringstream lines(result.stdout_text);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream fields(line);
      std::string value, flat_percent, sum_percent, cum, cum_percent, name;
      if (!(fields >> value >> flat_percent >> sum_percent >> cum >> cum_percent)) continue;
      if (cumulative) value = cum;
      if (value.size() < 3 || value.substr(value.size() - 2) != "ms") continue;
      std::getline(fields >> std::ws, name);
      flat[name] += std::stod(value.substr(0, value.size() - 2));
    }
    return flat;
  }

  ProfileData Decode(const std::string& path) {
    StatusOr<ProfileData> profile = ReadProfile(ReadFile(path));
    EXPECT_TRUE(profile.ok()) << profile.status().message();
    return profile.ok() ? *profile : ProfileData();
  }

  TempDir dir_;
};

const ProfileLabel* FindLabel(const ProfileSample& sample, const std::string& key) {
  for (const ProfileLabel& label : sample.labels) {
    if (label.key == key) return &label;
  }
  return nullptr;
}

TEST_F(CpuProfileIntegrationTest, TwoHotFunctionsShowTheirThreeToOneRatio) {
  // 2.4 CPU-seconds at the kernel's 250 Hz: ~600 samples, ~150 in HotOne.
  std::string results;
  const std::string profile = Profile(
      CPU_FIXTURE_BENCH_PATH,
      {"--benchmark_filter=BM_ThreeToOne", "--cpuprofilerate=250", "--benchmark_format=json"},
      "cpu.pprof", &results);
  // CPU timers are checked on the scheduler tick: when the thread shares its
  // core (other jobs on this machine), whole runs of missed expirations land
  // on whatever code runs at the next tick, and attribution gets noisy.
  StatusOr<json::Value> doc = json::Parse(results);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const json::Value& run = doc->Find("benchmarks")->as_array().at(0);
  const double cpu_share = run.Find("cpu_time")->as_number() / run.Find("real_time")->as_number();
  if (cpu_share < 0.9) {
    GTEST_SKIP() << "the benchmark got " << cpu_share * 100
                 << "% of a core: this machine is too busy to check sampling accuracy";
  }
  // Cumulative: each burns its time in Spin and the clock reads under it.
  std::map<std::string, double> cum = Millis({profile}, /*cumulative=*/true);
  const double three_ms = cum["cpu_fixture::HotThree"];
  const double one_ms = cum["cpu_fixture::HotOne"];
  ASSERT_GT(one_ms, 0);
  // 15%: on a virtual machine the host takes the CPU now and then (steal
  // time, 2-4% of a core here), and the time it took is charged to whatever
  // ran, in lumps of several samples; 2.67 was seen on correct code.
  // Misattribution (samples on the wrong function) gives 1 or less.
  std::printf("HotThree/HotOne: %.2f (%.0f ms / %.0f ms)\n", three_ms / one_ms, three_ms, one_ms);
  EXPECT_NEAR(three_ms / one_ms, 3.0, 0.45) << three_ms << " ms vs " << one_ms << " ms";
}

TEST_F(CpuProfileIntegrationTest, TwoBusyThreadsGiveTwoSamplesPerPeriodOfEachThread) {
  const std::string path = Profile(CPU_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_TwoThreads"});
  const ProfileData profile = Decode(path);
  int64_t samples = 0;
  for (const ProfileSample& sample : profile.samples) {
    const ProfileLabel* benchmark = FindLabel(sample, "benchmark");
    ASSERT_NE(benchmark, nullptr);
    EXPECT_EQ(benchmark->str, "BM_TwoThreads/iterations:1/threads:2");
    const ProfileLabel* threads = FindLabel(sample, "threads");
    ASSERT_NE(threads, nullptr);
    EXPECT_EQ(threads->num, 2);
    samples += sample.values.at(0);
  }
  // Two threads x 1 CPU-second x 100 Hz.
  EXPECT_NEAR(static_cast<double>(samples), 200.0, 20.0);
}

TEST_F(CpuProfileIntegrationTest, APoolMadeBeforeTheProfileIsSampled) {
  const std::string path = Profile(CPU_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_GlobalPool"});
  // 10 iterations x 40 ms of the worker's CPU at 100 Hz: ~40 samples.
  std::map<std::string, double> cum = Millis({path}, /*cumulative=*/true);
  EXPECT_NEAR(cum["cpu_fixture::PoolWork"], 400, 80);
  for (const ProfileSample& sample : Decode(path).samples) {
    const ProfileLabel* benchmark = FindLabel(sample, "benchmark");
    ASSERT_NE(benchmark, nullptr);
    EXPECT_EQ(benchmark->str, "BM_GlobalPool/iterations:10/real_time");
  }
}

TEST_F(CpuProfileIntegrationTest, SetupBeforeTheLoopIsNotSampled) {
  const std::string profile = Profile(CPU_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_SetupBurns"});
  const ProcessResult top = Pprof({"-top", "-cum", profile});
  ASSERT_EQ(top.exit_code, 0) << top.stderr_text;
  EXPECT_EQ(top.stdout_text.find("cpu_fixture::SetupBurn"), std::string::npos) << top.stdout_text;
  EXPECT_NE(top.stdout_text.find("cpu_fixture::LoopWork"), std::string::npos) << top.stdout_text;
}

TEST_F(CpuProfileIntegrationTest, RandomInterleavingKeepsLabelsRight) {
  const std::string profile = Profile(
      CPU_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_Interleaved", "--benchmark_repetitions=3",
                               "--benchmark_enable_random_interleaving=true"});
  for (const auto& [shown, hidden] : {std::pair{"A", "B"}, std::pair{"B", "A"}}) {
    const ProcessResult top = Pprof(
        {"-top", "-cum",
         std::string("-tagfocus=benchmark=BM_Interleaved") + shown + "/iterations:5", profile});
    ASSERT_EQ(top.exit_code, 0) << top.stderr_text;
    for (const char* function : {"cpu_fixture::BM_Interleaved", "cpu_fixture::Busy"}) {
      EXPECT_NE(top.stdout_text.find(function + std::string(shown)), std::string::npos)
          << top.stdout_text;
      EXPECT_EQ(top.stdout_text.find(function + std::string(hidden)), std::string::npos)
          << top.stdout_text;
    }
  }
}

TEST_F(CpuProfileIntegrationTest, HeaderFollowsGoAndMapsTheExecutableFirst) {
  const ProfileData profile = Decode(Profile(
      CPU_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_InterleavedA", "--cpuprofilerate=250"}));
  ASSERT_EQ(profile.sample_types.size(), 2u);
  EXPECT_EQ(profile.sample_types[0].type, "samples");
  EXPECT_EQ(profile.sample_types[0].unit, "count");
  EXPECT_EQ(profile.sample_types[1].type, "cpu");
  EXPECT_EQ(profile.sample_types[1].unit, "nanoseconds");
  EXPECT_EQ(profile.period_type.type, "cpu");
  EXPECT_EQ(profile.period, 4'000'000);  // 1e9 / 250
  EXPECT_GT(profile.time_nanos, 1'700'000'000'000'000'000);
  EXPECT_GT(profile.duration_nanos, 0);
  ASSERT_FALSE(profile.comments.empty());
  EXPECT_NE(profile.comments[0].find("timed loops"), std::string::npos);
  ASSERT_FALSE(profile.mappings.empty());
  EXPECT_EQ(profile.mappings[0].filename, CPU_FIXTURE_BENCH_PATH);
  EXPECT_EQ(profile.mappings[0].build_id.size(), 40u);
  // Every sampled address of the executable has a name (even _start, from
  // the symbol table); _start has no line, so has_line_numbers stays off.
  EXPECT_TRUE(profile.mappings[0].has_functions);
  for (const ProfileSample& sample : profile.samples) {
    EXPECT_EQ(sample.values.at(1), sample.values.at(0) * profile.period);
  }
}

TEST_F(CpuProfileIntegrationTest, StacksReachTheBenchmarkThroughCodeWithoutFramePointers) {
  const ProfileData profile =
      Decode(Profile(CPU_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_QsortCompare"}));
  auto function_names = [&](const ProfileSample& sample) {
    std::vector<std::string> names;
    for (size_t location : sample.location_indexes) {
      for (const ProfileLine& line : profile.locations.at(location).lines) {
        names.push_back(profile.functions.at(line.function_index).name);
      }
    }
    return names;
  };
  int64_t in_compare = 0, complete = 0;
  for (const ProfileSample& sample : profile.samples) {
    const std::vector<std::string> names = function_names(sample);
    auto compare = std::find(names.begin(), names.end(), "cpu_fixture::SlowCompare");
    if (compare == names.end()) continue;
    in_compare += sample.values.at(0);
    auto benchmark = std::find(compare, names.end(), "cpu_fixture::BM_QsortCompare");
    // glibc's sort (msort_with_tmp, qsort_r) lies between the two.
    if (benchmark != names.end() && benchmark - compare > 1) complete += sample.values.at(0);
  }
  ASSERT_GT(in_compare, 20);
  EXPECT_EQ(complete, in_compare);
}

TEST_F(CpuProfileIntegrationTest, ElvisAlgOneListsItsSourceLines) {
  const std::string profile =
      Profile(BENCH_PATH, {"--benchmark_filter=AlgorithmOne", "--benchmark_min_time=0.5"});
  const ProcessResult list = Pprof({"-list", "algOne", profile});
  ASSERT_EQ(list.exit_code, 0) << list.stderr_text;
  EXPECT_NE(list.stdout_text.find("ROUTINE ======================== benchprof::stream::algOne"),
            std::string::npos)
      << list.stdout_text;
  EXPECT_NE(list.stdout_text.find(STREAM_SOURCE_PATH), std::string::npos) << list.stdout_text;
  // Annotated source: some line of algOne's body carries samples ("<n>ms").
  EXPECT_NE(list.stdout_text.find("ms "), std::string::npos) << list.stdout_text;
}

TEST_F(CpuProfileIntegrationTest, InlinedFramesShowUnderTheirQualifiedNames) {
  const std::string profile =
      Profile(BENCH_PATH, {"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.5"});
  const ProcessResult top = Pprof({"-top", "-cum", "-nodecount=100", profile});
  ASSERT_EQ(top.exit_code, 0) << top.stderr_text;
  // algTwo's stack reader lives in an anonymous namespace, which pprof must
  // not mistake for a parameter list.
  const std::string read_byte = "benchprof::stream::(anonymous namespace)::ByteReader::ReadByte";
  ASSERT_NE(top.stdout_text.find(read_byte), std::string::npos) << top.stdout_text;
  EXPECT_EQ(top.stdout_text.find("::::"), std::string::npos) << top.stdout_text;
  // Optimised builds inline it into algTwo; instrumented ones may not.
  if (top.stdout_text.find(read_byte + " (inline)") == std::string::npos) {
    GTEST_SKIP() << "this build did not inline ReadByte (a sanitizer build?):\n" << top.stdout_text;
  }
}

TEST_F(CpuProfileIntegrationTest, TagfocusSplitsBenchmarksAndDiffBaseWorks) {
  const std::string both =
      Profile(BENCH_PATH, {"--benchmark_filter=Alg", "--benchmark_min_time=0.3"}, "both.pprof");
  const ProcessResult one = Pprof({"-top", "-cum", "-tagfocus=benchmark=BM_AlgorithmOne", both});
  ASSERT_EQ(one.exit_code, 0) << one.stderr_text;
  EXPECT_NE(one.stdout_text.find("benchprof::stream::algOne"), std::string::npos);
  EXPECT_EQ(one.stdout_text.find("benchprof::stream::algTwo"), std::string::npos);

  const std::string two = Profile(
      BENCH_PATH, {"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.3"}, "two.pprof");
  const ProcessResult diff = Pprof({"-top", "-cum", "-diff_base=" + both, two});
  ASSERT_EQ(diff.exit_code, 0) << diff.stderr_text;
  // algOne exists only in the base: it shows up with negative time.
  EXPECT_NE(diff.stdout_text.find("benchprof::stream::algOne"), std::string::npos);
  EXPECT_NE(diff.stdout_text.find("-"), std::string::npos);
}

TEST_F(CpuProfileIntegrationTest, NoProfileIsWrittenWhenNothingRuns) {
  const std::string path = dir_.File("none.pprof");
  EXPECT_EQ(RunProcess({BENCH_PATH, "--benchmark_filter=NoSuchBenchmark", "--cpuprofile=" + path})
                .exit_code,
            3);
  EXPECT_EQ(RunProcess({BENCH_PATH, "--benchmark_list_tests", "--cpuprofile=" + path}).exit_code,
            0);
  EXPECT_FALSE(testing::FileExists(path));
}

}  // namespace
}  // namespace benchprof
