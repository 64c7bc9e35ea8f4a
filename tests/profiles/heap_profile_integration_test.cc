// --memprofile end to end: benchmarks with known heap behaviour
// (fixtures/heap_fixture_bench.cc) and the Elvis workload, profiled by the
// real binaries and read back with benchprof's own decoder and with
// `go tool pprof`, the tool users read them with.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "collect/cpu_sampler.h"
#include "encode/pprof_reader.h"
#include "support/go_pprof.h"
#include "support/subprocess.h"

namespace benchprof {

using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileLine;
using encode::ProfileLocation;
using encode::ProfileSample;
using encode::ReadProfile;

namespace {

using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

// heap_fixture_bench.cc's constants.
constexpr int64_t kExactIterations = 5000;
constexpr int64_t kExactObjectBytes = 48;
constexpr int64_t kLeakIterations = 2000;
constexpr int64_t kLeakObjectBytes = 16 * 1024;
constexpr int64_t kBalancedIterations = 2000;
constexpr int64_t kUnbiasedObjects = 4 * 125'000;
constexpr int64_t kUnbiasedObjectBytes = 4096;

enum Value { kAllocObjects = 0, kAllocSpace = 1, kInuseObjects = 2, kInuseSpace = 3 };
using Values = std::array<int64_t, 4>;

const ProfileLabel* FindLabel(const ProfileSample& sample, const std::string& key) {
  for (const ProfileLabel& label : sample.labels) {
    if (label.key == key) return &label;
  }
  return nullptr;
}

// The name of the innermost function of a sample's leaf location.
std::string LeafFunction(const ProfileData& profile, const ProfileSample& sample) {
  if (sample.location_indexes.empty()) return "";
  const ProfileLocation& leaf = profile.locations[sample.location_indexes.front()];
  if (leaf.lines.empty()) return "";
  return profile.functions[leaf.lines.front().function_index].name;
}

// Sums the values of the samples whose leaf function contains `function`.
Values SumAtLeaf(const ProfileData& profile, const std::string& function) {
  Values sum{};
  for (const ProfileSample& sample : profile.samples) {
    if (LeafFunction(profile, sample).find(function) == std::string::npos) continue;
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += sample.values.at(i);
  }
  return sum;
}

Values SumAll(const ProfileData& profile) {
  Values sum{};
  for (const ProfileSample& sample : profile.samples) {
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += sample.values.at(i);
  }
  return sum;
}

class HeapProfileIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "this build has no allocator hooks";
  }

  // Runs `binary` with `args` plus --memprofile=<temp>/name and returns the
  // decoded profile; `path` receives the file's path.
  ProfileData Profile(const std::string& binary, std::vector<std::string> args,
                      std::string* path = nullptr, ProcessResult* result = nullptr) {
    const std::string file = dir_.File("mem.pprof");
    args.insert(args.begin(), binary);
    args.push_back("--memprofile=" + file);
    const ProcessResult run = RunProcess(args);
    EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
    EXPECT_NE(run.stderr_text.find("heap profile: " + file), std::string::npos) << run.stderr_text;
    if (path != nullptr) *path = file;
    if (result != nullptr) *result = run;
    StatusOr<ProfileData> profile = ReadProfile(ReadFile(file));
    EXPECT_TRUE(profile.ok()) << profile.status().message();
    return profile.ok() ? *profile : ProfileData();
  }

  std::string Pprof(const std::vector<std::string>& args) {
    const ProcessResult result = testing::RunGoPprof(GO_PATH, args, dir_);
    EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
    return result.stdout_text;
  }

  bool HaveGo() const { return !std::string(GO_PATH).empty(); }

  TempDir dir_;
};

TEST_F(HeapProfileIntegrationTest, HasGoAllocsProfileLayout) {
  const ProfileData profile =
      Profile(HEAP_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_Balanced", "--memprofilerate=1"});
  ASSERT_EQ(profile.sample_types.size(), 4u);
  EXPECT_EQ(profile.sample_types[0].type, "alloc_objects");
  EXPECT_EQ(profile.sample_types[0].unit, "count");
  EXPECT_EQ(profile.sample_types[1].type, "alloc_space");
  EXPECT_EQ(profile.sample_types[1].unit, "bytes");
  EXPECT_EQ(profile.sample_types[2].type, "inuse_objects");
  EXPECT_EQ(profile.sample_types[3].type, "inuse_space");
  EXPECT_EQ(profile.period_type.type, "space");
  EXPECT_EQ(profile.period_type.unit, "bytes");
  EXPECT_EQ(profile.period, 1);
  EXPECT_EQ(profile.default_sample_type, "alloc_space");
  EXPECT_GT(profile.duration_nanos, 0);
}

TEST_F(HeapProfileIntegrationTest, RateOneCountsEveryAllocationAtItsCallSite) {
  const ProfileData profile =
      Profile(HEAP_FIXTURE_BENCH_PATH,
              {"--benchmark_filter=BM_ExactThreeRecords|BM_Leaky|BM_Balanced|BM_SetupOnly",
               "--memprofilerate=1"});
  const Values records = SumAtLeaf(profile, "heap_fixture::MakeThreeRecords");
  EXPECT_EQ(records[kAllocObjects], 3 * kExactIterations);
  EXPECT_EQ(records[kAllocSpace], 3 * kExactIterations * kExactObjectBytes);
  EXPECT_EQ(records[kInuseObjects], 0);
  EXPECT_EQ(records[kInuseSpace], 0);

  const Values leak = SumAtLeaf(profile, "heap_fixture::LeakBuffer");
  EXPECT_EQ(leak[kAllocObjects], kLeakIterations);
  EXPECT_EQ(leak[kInuseObjects], kLeakIterations);
  EXPECT_EQ(leak[kInuseSpace], kLeakIterations * kLeakObjectBytes);

  const Values balanced = SumAtLeaf(profile, "heap_fixture::UseAndFreeBuffer");
  EXPECT_EQ(balanced[kAllocObjects], kBalancedIterations);
  EXPECT_EQ(balanced[kInuseSpace], 0);

  // Nothing else was allocated in a timed loop: setup allocations
  // (BM_SetupOnly) and the library's own are not in the profile.
  const Values all = SumAll(profile);
  EXPECT_EQ(all[kAllocObjects], 3 * kExactIterations + kLeakIterations + kBalancedIterations);

  for (const ProfileSample& sample : profile.samples) {
    // The allocator's own frames are cut off: the leaf is the caller.
    const std::string leaf = LeafFunction(profile, sample);
    EXPECT_EQ(leaf.find("operator new"), std::string::npos) << leaf;
    EXPECT_EQ(leaf.find("malloc"), std::string::npos) << leaf;
    EXPECT_EQ(leaf.find("benchprof::collect"), std::string::npos) << leaf;
    const ProfileLabel* bytes = FindLabel(sample, "bytes");
    ASSERT_NE(bytes, nullptr);
    EXPECT_EQ(bytes->num_unit, "bytes");
    EXPECT_EQ(sample.values[kAllocSpace], sample.values[kAllocObjects] * bytes->num);
    const ProfileLabel* benchmark = FindLabel(sample, "benchmark");
    ASSERT_NE(benchmark, nullptr);
    if (leaf == "heap_fixture::MakeThreeRecords") {
      EXPECT_EQ(bytes->num, kExactObjectBytes);
      EXPECT_EQ(benchmark->str, "BM_ExactThreeRecords/iterations:5000");
    }
  }
}

// At Go's default rate, one sample per 512 KiB on average, the written
// values are estimates. BM_Unbiased allocates 500,000 objects of 4 KiB
// (2.05 GB): each is sampled with probability 1 - exp(-4096/524288) =
// 0.78%, so about 3,900 samples are expected and the estimate's relative
// standard deviation is about 1.6%. The ±10% bound is six standard
// deviations: a false failure is a one-in-a-billion event.
TEST_F(HeapProfileIntegrationTest, DefaultRateEstimatesAreUnbiased) {
  const ProfileData profile =
      Profile(HEAP_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_Unbiased|BM_Leaky"});
  EXPECT_EQ(profile.period, 512 * 1024);
  const Values churn = SumAtLeaf(profile, "heap_fixture::ChurnPages");
  const double true_bytes = static_cast<double>(kUnbiasedObjects * kUnbiasedObjectBytes);
  EXPECT_NEAR(static_cast<double>(churn[kAllocSpace]) / true_bytes, 1.0, 0.10)
      << churn[kAllocSpace] << " estimated bytes, " << true_bytes << " allocated";
  EXPECT_NEAR(static_cast<double>(churn[kAllocObjects]) / kUnbiasedObjects, 1.0, 0.10);
  EXPECT_EQ(churn[kInuseSpace], 0);

  // 2,000 leaked 16 KiB objects: ~62 samples expected (sd 13%). The leak
  // must show, with an estimate of the right size.
  const Values leak = SumAtLeaf(profile, "heap_fixture::LeakBuffer");
  const double leaked = static_cast<double>(kLeakIterations * kLeakObjectBytes);
  EXPECT_NEAR(static_cast<double>(leak[kInuseSpace]) / leaked, 1.0, 0.5)
      << leak[kInuseSpace] << " estimated in use, " << leaked << " leaked";
}

TEST_F(HeapProfileIntegrationTest, GoToolPprofShowsSitesLinesAndLeaks) {
  if (!HaveGo()) GTEST_SKIP() << "go tool pprof is missing: install golang-go";
  std::string path;
  Profile(HEAP_FIXTURE_BENCH_PATH,
          {"--benchmark_filter=BM_ExactThreeRecords|BM_Leaky|BM_Balanced", "--memprofilerate=1"},
          &path);

  const std::string raw = Pprof({"-raw", path});
  EXPECT_NE(raw.find("alloc_space/bytes[dflt]"), std::string::npos) << raw;
  EXPECT_NE(raw.find("inuse_space/bytes"), std::string::npos);

  const std::string top = Pprof({"-sample_index=alloc_objects", "-top", path});
  EXPECT_NE(top.find("heap_fixture::MakeThreeRecords"), std::string::npos) << top;
  EXPECT_NE(top.find("15000"), std::string::npos) << top;

  const std::string list =
      Pprof({"-sample_index=alloc_objects", "-list", "MakeThreeRecords", path});
  EXPECT_NE(list.find("heap_fixture_bench.cc"), std::string::npos) << list;
  // Each of the three `new` lines carries its own 5000 objects.
  EXPECT_NE(list.find("char* a = Escape(new char[kExactObjectBytes]);"), std::string::npos) << list;
  size_t lines_with_5000 = 0;
  for (size_t at = list.find("5000"); at != std::string::npos; at = list.find("5000", at + 1)) {
    ++lines_with_5000;
  }
  EXPECT_GE(lines_with_5000, 3u) << list;

  // The leak is the only thing in use; the balanced site is not.
  const std::string inuse = Pprof({"-sample_index=inuse_space", "-top", path});
  EXPECT_NE(inuse.find("heap_fixture::LeakBuffer"), std::string::npos) << inuse;
  EXPECT_EQ(inuse.find("UseAndFreeBuffer"), std::string::npos) << inuse;

  const std::string focus =
      Pprof({"-sample_index=alloc_objects", "-tagfocus", "benchmark=BM_Balanced", "-top", path});
  EXPECT_NE(focus.find("UseAndFreeBuffer"), std::string::npos) << focus;
  EXPECT_EQ(focus.find("MakeThreeRecords"), std::string::npos) << focus;
}

TEST_F(HeapProfileIntegrationTest, ElvisAllocationsBelongToAlgorithmOne) {
  if (!HaveGo()) GTEST_SKIP() << "go tool pprof is missing: install golang-go";
  std::string path;
  const ProfileData profile = Profile(
      BENCH_PATH,
      {"--benchmark_filter=BM_Algorithm", "--benchmark_min_time=0.05", "--memprofilerate=1"},
      &path);
  int64_t algorithm_two = 0;
  for (const ProfileSample& sample : profile.samples) {
    const ProfileLabel* benchmark = FindLabel(sample, "benchmark");
    if (benchmark != nullptr && benchmark->str == "BM_AlgorithmTwo") {
      algorithm_two += sample.values[kAllocObjects];
    }
  }
  EXPECT_EQ(algorithm_two, 0);
  EXPECT_GT(SumAtLeaf(profile, "algOne")[kAllocObjects], 0);

  // The command as written lists algOne, and only algOne.
  const std::string list = Pprof({"-sample_index=alloc_objects", "-list", "algOne", path});
  EXPECT_NE(list.find("new char[size]"), std::string::npos) << list;
  size_t routines = 0;
  for (size_t at = list.find("ROUTINE ="); at != std::string::npos;
       at = list.find("ROUTINE =", at + 1)) {
    ++routines;
  }
  EXPECT_EQ(routines, 1u) << list;
  EXPECT_NE(list.find("ROUTINE ======================== benchprof::stream::algOne in"),
            std::string::npos)
      << list;
}

// bench's BM_Leaky (benchmarks/leak): LoadSession makes 5 objects a request
// (the id and the vector of 3 role strings, all too long for the small
// string buffer), 50,000 requests a run. The unbounded cache keeps them all;
// the LRU cache's run frees them all by its end.
TEST_F(HeapProfileIntegrationTest, LeakyCacheHoldsEverySessionAndTheLruNone) {
  constexpr int64_t kRequests = 50'000;
  constexpr int64_t kObjectsPerSession = 5;
  std::string path;
  const ProfileData profile =
      Profile(BENCH_PATH, {"--benchmark_filter=BM_Leaky", "--memprofilerate=1"}, &path);
  std::map<std::string, Values> load_session;  // by benchmark
  for (const ProfileSample& sample : profile.samples) {
    bool in_load_session = false;
    for (const uint64_t index : sample.location_indexes) {
      for (const ProfileLine& line : profile.locations[index].lines) {
        in_load_session |=
            profile.functions[line.function_index].name.find("LoadSession") != std::string::npos;
      }
    }
    const ProfileLabel* benchmark = FindLabel(sample, "benchmark");
    if (!in_load_session || benchmark == nullptr) continue;
    for (size_t i = 0; i < 4; ++i) load_session[benchmark->str][i] += sample.values[i];
  }
  const Values unbounded = load_session["BM_Leaky/lru:0/iterations:50000"];
  const Values lru = load_session["BM_Leaky/lru:1024/iterations:50000"];
  EXPECT_EQ(unbounded[kAllocObjects], kRequests * kObjectsPerSession);
  EXPECT_EQ(unbounded[kInuseObjects], kRequests * kObjectsPerSession);
  EXPECT_EQ(lru[kAllocObjects], kRequests * kObjectsPerSession);
  EXPECT_EQ(lru[kInuseObjects], 0);
  EXPECT_EQ(lru[kInuseSpace], 0);

  if (!HaveGo()) return;
  const std::string inuse = Pprof({"-sample_index=inuse_space", "-top", path});
  EXPECT_NE(inuse.find("benchprof::leak::LoadSession"), std::string::npos) << inuse;
}

TEST_F(HeapProfileIntegrationTest, WorksWithCpuProfileAndWarnsOnce) {
  const std::string cpu = dir_.File("cpu.pprof");
  ProcessResult run;
  Profile(HEAP_FIXTURE_BENCH_PATH,
          {"--benchmark_filter=BM_ExactThreeRecords", "--memprofilerate=1", "--cpuprofile=" + cpu},
          nullptr, &run);
  EXPECT_NE(run.stderr_text.find("warning: --cpuprofile and --memprofile together"),
            std::string::npos)
      << run.stderr_text;
  EXPECT_TRUE(ReadProfile(ReadFile(cpu)).ok());
}

// Whether any location of `sample` has a function whose name contains `name`.
bool StackHas(const ProfileData& profile, const ProfileSample& sample, const std::string& name) {
  for (const size_t index : sample.location_indexes) {
    for (const ProfileLine& line : profile.locations[index].lines) {
      if (profile.functions[line.function_index].name.find(name) != std::string::npos) {
        return true;
      }
    }
  }
  return false;
}

// At rate 1 most of BM_MapInserts' CPU time is the heap sampler walking the
// stack. A CPU sample that lands during that walk is the stack being walked
// (the unwinder inside malloc inside the benchmark): it must be recorded as
// such, not lost (it was 30% of the samples, counted as lost).
TEST_F(HeapProfileIntegrationTest, CpuSamplesDuringHeapStackWalksKeepTheirStacks) {
  if (!collect::kCpuSamplerSupported) GTEST_SKIP() << "no CPU profiler under ThreadSanitizer";
  const std::string cpu = dir_.File("cpu.pprof");
  Profile(HEAP_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_MapInserts", "--memprofilerate=1",
                                    "--cpuprofile=" + cpu, "--cpuprofilerate=500"});
  StatusOr<ProfileData> read = ReadProfile(ReadFile(cpu));
  ASSERT_TRUE(read.ok()) << read.status().message();
  const ProfileData& profile = *read;
  int64_t total = 0, lost = 0, in_benchmark = 0, in_unwinder = 0;
  for (const ProfileSample& sample : profile.samples) {
    const int64_t count = sample.values.at(0);
    total += count;
    if (StackHas(profile, sample, "[benchprof] lost samples")) lost += count;
    if (!StackHas(profile, sample, "heap_fixture::BM_MapInserts")) continue;
    in_benchmark += count;
    // The leaf in libunwind: the signal landed while the sampler walked.
    const ProfileLocation& leaf = profile.locations[sample.location_indexes.front()];
    if (leaf.mapping_index.has_value() &&
        profile.mappings[*leaf.mapping_index].filename.find("libunwind") != std::string::npos &&
        StackHas(profile, sample, "heap_fixture::InsertIntoMap")) {
      in_unwinder += count;
    }
  }
  // About a second of CPU at 500 Hz: enough samples that the bounds below
  // (5% lost, 95% in the benchmark) are far from a true rate near 1%.
  std::printf("%lld samples: %lld lost, %lld in the benchmark, %lld inside its stack walks\n",
              static_cast<long long>(total), static_cast<long long>(lost),
              static_cast<long long>(in_benchmark), static_cast<long long>(in_unwinder));
  ASSERT_GE(total, 250);
  EXPECT_LE(lost * 20, total) << lost << " of " << total << " samples lost";
  EXPECT_GE(in_benchmark * 100, total * 95) << in_benchmark << " of " << total;
  EXPECT_GT(in_unwinder, 0) << "no sample inside the heap sampler's stack walk, of " << total;
}

TEST_F(HeapProfileIntegrationTest, RateZeroWritesAnEmptyProfile) {
  const ProfileData profile =
      Profile(HEAP_FIXTURE_BENCH_PATH, {"--benchmark_filter=BM_Leaky", "--memprofilerate=0"});
  EXPECT_TRUE(profile.samples.empty());
  EXPECT_EQ(profile.period, 0);
}

TEST_F(HeapProfileIntegrationTest, ListingBenchmarksWritesNoProfile) {
  const std::string file = dir_.File("mem.pprof");
  const ProcessResult run =
      RunProcess({HEAP_FIXTURE_BENCH_PATH, "--benchmark_list_tests", "--memprofile=" + file});
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
  EXPECT_FALSE(testing::FileExists(file));
  EXPECT_EQ(testing::ListDirectory(dir_.path()).size(), 0u);
}

}  // namespace
}  // namespace benchprof
