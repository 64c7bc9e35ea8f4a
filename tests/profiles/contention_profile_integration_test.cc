// --blockprofile, --mutexprofile and the trace's blocked slices end to end:
// benchmarks with known waits (fixtures/contention_fixture_bench.cc),
// profiled by the real binary and read back with benchprof's own decoder,
// with `go tool pprof` (the tool users read them with) and with
// `benchprof trace-summary`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/json_value.h"
#include "encode/pprof_reader.h"
#include "support/go_pprof.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileLocation;
using encode::ProfileSample;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

// contention_fixture_bench.cc's constants.
constexpr int64_t kHeldLockIterations = 40;
constexpr int64_t kHoldNs = 300'000;

const ProfileLabel* FindLabel(const ProfileSample& sample, const std::string& key) {
  for (const ProfileLabel& label : sample.labels) {
    if (label.key == key) return &label;
  }
  return nullptr;
}

// Whether a function of the sample's stack has `name` in its name.
bool StackHas(const ProfileData& profile, const ProfileSample& sample, const std::string& name) {
  for (const uint64_t index : sample.location_indexes) {
    for (const auto& line : profile.locations.at(index).lines) {
      if (profile.functions.at(line.function_index).name.find(name) != std::string::npos) {
        return true;
      }
    }
  }
  return false;
}

struct Sum {
  int64_t contentions = 0;
  int64_t delay_ns = 0;
};

// The samples of the benchmark whose run name starts with `benchmark` and
// whose stack passes through `function`.
Sum SumThrough(const ProfileData& profile, const std::string& benchmark,
               const std::string& function) {
  Sum sum;
  for (const ProfileSample& sample : profile.samples) {
    const ProfileLabel* label = FindLabel(sample, "benchmark");
    if (label == nullptr || !label->str.starts_with(benchmark + "/")) continue;
    if (!StackHas(profile, sample, function)) continue;
    sum.contentions += sample.values.at(0);
    sum.delay_ns += sample.values.at(1);
  }
  return sum;
}

Sum SumOf(const ProfileData& profile, const std::string& benchmark) {
  return SumThrough(profile, benchmark, "");
}

class ContentionProfileIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!CONTENTION_HOOKS_ENABLED) GTEST_SKIP() << "this build has no lock hooks (TSan)";
  }

  ProcessResult Fixture(std::vector<std::string> args) {
    args.insert(args.begin(), CONTENTION_FIXTURE_BENCH_PATH);
    return RunProcess(args);
  }

  ProfileData Read(const std::string& path) {
    StatusOr<ProfileData> profile = encode::ReadProfile(ReadFile(path));
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

TEST_F(ContentionProfileIntegrationTest, EveryWaitAndEveryBlamedUnlockAtItsCallSite) {
  const std::string block = dir_.File("block.pprof"), mutex = dir_.File("mutex.pprof");
  const ProcessResult run = Fixture({"--blockprofile=" + block, "--mutexprofile=" + mutex});
  ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("block profile: " + block), std::string::npos);
  EXPECT_NE(run.stderr_text.find("mutex profile: " + mutex), std::string::npos);

  const ProfileData blocked = Read(block);
  ASSERT_EQ(blocked.sample_types.size(), 2u);
  EXPECT_EQ(blocked.sample_types[0].type, "contentions");
  EXPECT_EQ(blocked.sample_types[1].type, "delay");
  EXPECT_EQ(blocked.period_type.type, "contentions");
  const Sum waits = SumThrough(blocked, "BM_HeldLock", "WaitForHeldLock");
  EXPECT_EQ(waits.contentions, kHeldLockIterations);
  EXPECT_GE(waits.delay_ns, kHeldLockIterations * kHoldNs / 2);
  EXPECT_EQ(SumOf(blocked, "BM_Uncontended").contentions, 0);
  for (const ProfileSample& sample : blocked.samples) {
    if (FindLabel(sample, "benchmark") == nullptr) continue;
    ASSERT_NE(FindLabel(sample, "wait"), nullptr);
    EXPECT_EQ(FindLabel(sample, "wait")->str, "mutex");
    // Stacks start at the program's call: none of the hooks' frames.
    for (const char* hook : {"CaptureStack", "BucketOfThisStack", "TimedWait", "LockSlow"}) {
      EXPECT_FALSE(StackHas(blocked, sample, hook)) << hook;
    }
  }

  const ProfileData blamed = Read(mutex);
  const Sum unlocks = SumThrough(blamed, "BM_HeldLock", "ReleaseHeldLock");
  EXPECT_EQ(unlocks.contentions, kHeldLockIterations);
  // Charged from the start of each wait to the unlock: at most what the
  // waiter measured, at least most of the hold.
  EXPECT_LE(unlocks.delay_ns, waits.delay_ns);
  EXPECT_GE(unlocks.delay_ns, kHeldLockIterations * kHoldNs / 2);
  EXPECT_EQ(SumOf(blamed, "BM_HeldLock").contentions, kHeldLockIterations);
}

TEST_F(ContentionProfileIntegrationTest, GoToolPprofReadsBothProfiles) {
  if (!HaveGo()) GTEST_SKIP() << "go is not installed";
  const std::string block = dir_.File("block.pprof"), mutex = dir_.File("mutex.pprof");
  ASSERT_EQ(Fixture({"--blockprofile=" + block, "--mutexprofile=" + mutex}).exit_code, 0);
  const std::string top = Pprof({"-top", block});
  EXPECT_NE(top.find("Type: delay"), std::string::npos) << top;
  EXPECT_NE(top.find("WaitForHeldLock"), std::string::npos) << top;
  const std::string blame = Pprof({"-top", mutex});
  EXPECT_NE(blame.find("ReleaseHeldLock"), std::string::npos) << blame;
  EXPECT_NE(Pprof({"-list", "WaitForHeldLock", block}).find("ROUTINE"), std::string::npos);
  const std::string focused = Pprof({"-tagfocus=benchmark=BM_HeldLock", "-top", block});
  EXPECT_NE(focused.find("WaitForHeldLock"), std::string::npos) << focused;
  const std::string counts = Pprof({"-sample_index=contentions", "-top", block});
  EXPECT_NE(counts.find("Type: contentions"), std::string::npos) << counts;
  EXPECT_NE(Pprof({"-diff_base=" + block, "-top", block}).find("Type: delay"), std::string::npos);
}

TEST_F(ContentionProfileIntegrationTest, SampledRatesScaleAndBadRatesAreRefused) {
  const std::string block = dir_.File("block.pprof");
  // Waits of about 300 us at a rate of 1 ms: a third of them kept, scaled.
  ASSERT_EQ(Fixture({"--blockprofile=" + block, "--blockprofilerate=1000000",
                     "--benchmark_filter=HeldLock"})
                .exit_code,
            0);
  const Sum waits = SumThrough(Read(block), "BM_HeldLock", "WaitForHeldLock");
  EXPECT_GT(waits.contentions, 0);

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--blockprofile=" + block, "--blockprofilerate=-1"},
        std::vector<std::string>{"--mutexprofile=" + block, "--mutexprofilefraction=x"},
        std::vector<std::string>{"--mutexprofile="}}) {
    const ProcessResult bad = Fixture(args);
    EXPECT_EQ(bad.exit_code, 2) << args.back();
    EXPECT_NE(bad.stderr_text.find(args.back()), std::string::npos) << bad.stderr_text;
  }
}

TEST_F(ContentionProfileIntegrationTest, ATraceShowsEachLongWaitAsABlockedSlice) {
  const std::string trace = dir_.File("trace.json");
  const ProcessResult run = Fixture({"--trace=" + trace, "--benchmark_filter=HeldLock"});
  ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
  StatusOr<json::Value> doc = json::Parse(ReadFile(trace));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  int slices = 0;
  double blocked_us = 0;
  for (const json::Value& event : doc->Find("traceEvents")->as_array()) {
    const json::Value* category = event.Find("cat");
    if (category == nullptr || category->as_string() != "blocked") continue;
    EXPECT_EQ(event.Find("ph")->as_string(), "X");
    blocked_us += event.Find("dur")->as_number();
    // The holder thread's join at the end is a wait too.
    if (event.Find("name")->as_string() == "blocked on a mutex") ++slices;
  }
  // Every wait for the held lock.
  EXPECT_GE(slices, kHeldLockIterations);
  EXPECT_GE(blocked_us, kHeldLockIterations * kHoldNs / 2 / 1000.0);

  const ProcessResult summary =
      RunProcess({BENCHPROF_PATH, "trace-summary", "--format=json", trace});
  ASSERT_EQ(summary.exit_code, 0) << summary.stderr_text;
  StatusOr<json::Value> parsed = json::Parse(summary.stdout_text);
  ASSERT_TRUE(parsed.ok());
  double summed_ns = 0;
  for (const json::Value& thread : parsed->Find("threads")->as_array()) {
    summed_ns += thread.Find("blocked_ns")->as_number();
  }
  EXPECT_NEAR(summed_ns, blocked_us * 1000, blocked_us * 1000 * 0.001 + 1000);
}

}  // namespace
}  // namespace benchprof
