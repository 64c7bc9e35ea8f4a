// bench's command line: flag spelling, Google Benchmark flag validation, and
// the harness flags (--benchmem and every profile kind's, from the registry).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "benchprof_benchmark_version.h"
#include "cli/benchmark_flags.h"
#include "cli/flag_spelling.h"
#include "cli/harness_flags.h"
#include "profiles/profile_registry.h"

namespace benchprof::cli {
namespace {

TEST(FlagValuesTest, NormalizeDashesAddsTheGoDashOnlyToWordFlags) {
  EXPECT_EQ(NormalizeDashes("-benchmem"), "--benchmem");
  EXPECT_EQ(NormalizeDashes("-benchmark_filter=Alg"), "--benchmark_filter=Alg");
  EXPECT_EQ(NormalizeDashes("--benchmem"), "--benchmem");
  EXPECT_EQ(NormalizeDashes("-"), "-");
  EXPECT_EQ(NormalizeDashes("--"), "--");
  EXPECT_EQ(NormalizeDashes("-5"), "-5");
  EXPECT_EQ(NormalizeDashes("value"), "value");
}

TEST(FlagValuesTest, SplitFlagSeparatesNameAndValueAtTheFirstEquals) {
  FlagSpelling s = SplitFlag("--benchmark_context=a=b,c=d");
  EXPECT_EQ(s.name, "benchmark_context");
  ASSERT_TRUE(s.value.has_value());
  EXPECT_EQ(*s.value, "a=b,c=d");
  s = SplitFlag("--benchmem");
  EXPECT_EQ(s.name, "benchmem");
  EXPECT_FALSE(s.value.has_value());
  s = SplitFlag("--x=");
  ASSERT_TRUE(s.value.has_value());
  EXPECT_EQ(*s.value, "");
}

TEST(BenchmarkFlagsTest, RecognisesTheLibrarysSpelling) {
  EXPECT_TRUE(IsBenchmarkFlag("--benchmark_filter=x"));
  EXPECT_TRUE(IsBenchmarkFlag("--benchmark_anything"));
  EXPECT_TRUE(IsBenchmarkFlag("--v=2"));
  EXPECT_FALSE(IsBenchmarkFlag("--verbose"));
  EXPECT_FALSE(IsBenchmarkFlag("--benchmem"));
}

TEST(BenchmarkFlagsTest, AcceptsEveryValidFlag) {
  for (const char* ok : {"--benchmark_list_tests",
                         "--benchmark_list_tests=false",
                         "--benchmark_filter=BM_.*/8",
                         "--benchmark_filter=-Slow",
                         "--benchmark_filter=",
                         "--benchmark_min_time=1",
                         "--benchmark_min_warmup_time=0",
                         "--benchmark_repetitions=10",
                         "--benchmark_enable_random_interleaving=true",
                         "--benchmark_report_aggregates_only",
                         "--benchmark_display_aggregates_only=1",
                         "--benchmark_format=json",
                         "--benchmark_out=x.json",
                         "--benchmark_out_format=csv",
                         "--benchmark_color=auto",
                         "--benchmark_color=false",
                         "--benchmark_counters_tabular=yes",
                         "--benchmark_perf_counters=CYCLES,INSTRUCTIONS",
                         "--benchmark_context=a=1,b=2",
                         "--benchmark_time_unit=us",
                         "--v=3",
                         "--v=-1"}) {
    const Status s = ValidateBenchmarkFlag(ok);
    EXPECT_TRUE(s.ok()) << ok << ": " << s.message();
  }
}

void ExpectRefused(const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [arg, message] : cases) {
    const Status s = ValidateBenchmarkFlag(arg);
    EXPECT_FALSE(s.ok()) << arg;
    EXPECT_NE(s.message().find(message), std::string::npos) << arg << " -> " << s.message();
  }
}

TEST(BenchmarkFlagsTest, RejectsWhatTheLibraryWouldMisread) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--benchmark_filter=a[", "--benchmark_filter=a[: invalid regular expression"},
      {"--benchmark_filter", "--benchmark_filter: needs a value, as --benchmark_filter=VALUE"},
      // 20,000 characters once crashed the check itself (stack overflow).
      {"--benchmark_filter=" + std::string(20'000, 'a'), "longer than 4096 characters"},
      {"--benchmark_repetitions=2.5", "--benchmark_repetitions=2.5: expected an integer"},
      {"--benchmark_repetitions=3000000000", "expected an integer from 1 to 2147483647"},
      {"--benchmark_format=JSON", "expected one of console, json, csv"},
      {"--benchmark_context=a=1,", "expected key=value pairs"},
      {"--benchmark_context==1", "expected key=value pairs"},
      {"--benchmark_out=", "--benchmark_out=: expected a file name"},
      {"--benchmark_filterx=1", "unknown flag --benchmark_filterx=1"},
      {"--v", "--v: needs a value"},
  };
  ExpectRefused(cases);
}

// --benchmark_min_time is seconds on 1.7; 1.8 made it "<float>s" or
// "<int>x" and still takes a bare number of seconds.
TEST(BenchmarkFlagsTest, MinTimeAsTheLinkedVersionSpellsIt) {
  if (BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10800) {
    for (const char* ok : {"--benchmark_min_time=0.5s", "--benchmark_min_time=100x",
                           "--benchmark_min_time=0.5", "--benchmark_min_time=0s"}) {
      const Status s = ValidateBenchmarkFlag(ok);
      EXPECT_TRUE(s.ok()) << ok << ": " << s.message();
    }
    ExpectRefused({{"--benchmark_min_time=0x", "expected <seconds>s or <iterations>x"},
                   {"--benchmark_min_time=1.5x", "expected <seconds>s or <iterations>x"},
                   {"--benchmark_min_time=-1s", "expected <seconds>s or <iterations>x"},
                   {"--benchmark_min_time=inf", "expected <seconds>s or <iterations>x"},
                   {"--benchmark_min_time=s", "expected <seconds>s or <iterations>x"}});
    EXPECT_EQ(ForLibrary("--benchmark_min_time=0.5"), "--benchmark_min_time=0.5s");
    EXPECT_EQ(ForLibrary("--benchmark_min_time=100x"), "--benchmark_min_time=100x");
  } else {
    ExpectRefused({{"--benchmark_min_time=100x", "Google Benchmark 1.7.1 has no 's' or 'x'"},
                   {"--benchmark_min_time=0.5s", "Google Benchmark 1.7.1 has no 's' or 'x'"},
                   {"--benchmark_min_time=inf", "expected a non-negative number of seconds"}});
    EXPECT_EQ(ForLibrary("--benchmark_min_time=0.5"), "--benchmark_min_time=0.5");
  }
  EXPECT_EQ(ForLibrary("--benchmark_filter=0.5"), "--benchmark_filter=0.5");
}

TEST(BenchmarkFlagsTest, DryRunExistsFrom191) {
  const Status s = ValidateBenchmarkFlag("--benchmark_dry_run");
  if (BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10901) {
    EXPECT_TRUE(s.ok()) << s.message();
  } else {
    EXPECT_EQ(s.message(), "unknown flag --benchmark_dry_run (see --help)");
  }
}

// bench's harness flags as main() declares them.
class HarnessFlagsTest : public ::testing::Test {
 protected:
  HarnessFlagsTest() : kinds_(profiles::MakeProfiles()), flags_("bench") {
    DeclareHarnessFlags(flags_, options_);
    for (const auto& kind : kinds_) kind->DeclareFlags(flags_);
  }

  Status Parse(std::vector<std::string> args) { return ParseHarnessFlags(flags_, args); }

  // The output path the kind with output flag `flag` was given.
  std::string OutputOf(std::string_view flag) const {
    for (const auto& kind : kinds_) {
      if (kind->traits().output_flag == flag) return kind->output_path();
    }
    ADD_FAILURE() << "no kind writes --" << flag;
    return "";
  }

  std::vector<std::unique_ptr<profiles::Profile>> kinds_;
  HarnessOptions options_;
  FlagSet flags_;
};

TEST_F(HarnessFlagsTest, BenchmemInEveryBooleanSpelling) {
  EXPECT_TRUE(Parse({}).ok());
  EXPECT_FALSE(options_.benchmem);
  EXPECT_TRUE(Parse({"--benchmem"}).ok());
  EXPECT_TRUE(options_.benchmem);
  EXPECT_TRUE(Parse({"--benchmem", "--benchmem=0"}).ok());
  EXPECT_FALSE(options_.benchmem);
  EXPECT_TRUE(Parse({"--benchmem=true"}).ok());
  EXPECT_TRUE(options_.benchmem);
}

TEST_F(HarnessFlagsTest, EveryKindIsRequestedByItsOutputFlagInEitherSpelling) {
  EXPECT_EQ(OutputOf("cpuprofile"), "");
  EXPECT_EQ(OutputOf("memprofile"), "");
  EXPECT_EQ(OutputOf("trace"), "");
  const Status parsed =
      Parse({"--cpuprofile=a.pprof", "--cpuprofilerate=250", "--memprofile", "m.pprof",
             "--memprofilerate=1", "--trace=t.json", "--tracecpurate=1000", "--benchmem"});
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(OutputOf("cpuprofile"), "a.pprof");
  EXPECT_EQ(OutputOf("memprofile"), "m.pprof");
  EXPECT_EQ(OutputOf("trace"), "t.json");
  EXPECT_TRUE(options_.benchmem);
  for (const char* rate : {"--tracecpurate=0", "--memprofilerate=0", "--memprofilerate=0x80000",
                           "--cpuprofilerate=10000"}) {
    EXPECT_TRUE(Parse({rate}).ok()) << rate;
  }
}

TEST_F(HarnessFlagsTest, EveryKindDeclaresItsOutputFlagAndDistinctFlags) {
  for (const auto& kind : kinds_) {
    // A kind that writes no file is requested by a switch.
    EXPECT_EQ(flags_.TakesValue(kind->traits().output_flag), kind->traits().writes_file)
        << kind->traits().name;
    EXPECT_TRUE(flags_.Has(kind->traits().output_flag)) << kind->traits().name;
    EXPECT_FALSE(kind->requested()) << kind->traits().name;
  }
  // A name declared twice would leave one of the flags unreachable.
  const std::string usage = flags_.Usage();
  for (const char* flag : {"--benchmem ", "--cpuprofile=", "--memprofile=", "--trace="}) {
    const size_t first = usage.find(flag);
    ASSERT_NE(first, std::string::npos) << flag;
    EXPECT_EQ(usage.find(flag, first + 1), std::string::npos) << flag;
  }
}

TEST_F(HarnessFlagsTest, ErrorsNameTheArgument) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--memprofiles=x"}, "unknown flag --memprofiles=x (see bench --help)"},
      {{"--memprofilerate=lots"},
       "--memprofilerate=lots: expected bytes between samples: 0 (off), 1 (every allocation) or "
       "more"},
      {{"--trace="}, "--trace=: expected a file name"},
      {{"--tracecpurate=1001"},
       "--tracecpurate=1001: expected readings per second from 0 (none) to 1000"},
      {{"--tracecpurate=-1"},
       "--tracecpurate=-1: expected readings per second from 0 (none) to 1000"},
      {{"--cpuprofile"}, "--cpuprofile: needs a value, as --cpuprofile=FILE"},
      {{"--cpuprofile="}, "--cpuprofile=: expected a file name"},
      {{"--cpuprofilerate=0"}, "--cpuprofilerate=0: expected samples per second from 1 to 10000"},
      {{"--cpuprofilerate=fast"},
       "--cpuprofilerate=fast: expected samples per second from 1 to 10000"},
      {{"positional"},
       "unexpected argument 'positional' (flags are spelled --name=value; see bench --help)"},
      {{"--"}, "unexpected argument '--' (flags are spelled --name=value; see bench --help)"},
      {{"--benchmem=2"}, "--benchmem=2: expected true or false"},
  };
  for (const auto& [args, message] : cases) {
    const Status parsed = Parse(args);
    ASSERT_FALSE(parsed.ok()) << args[0];
    EXPECT_EQ(parsed.message(), message);
  }
}

}  // namespace
}  // namespace benchprof::cli
