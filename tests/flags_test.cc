// Flag spelling, value parsing, Google Benchmark flag validation and the
// harness flag parser.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/benchmark_flags.h"
#include "cli/flag_values.h"
#include "cli/harness_flags.h"

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

TEST(FlagValuesTest, ParseBool) {
  for (const char* yes : {"true", "TRUE", "yes", "on", "1", "t", "Y"}) {
    EXPECT_TRUE(ParseBool(yes).ok() && *ParseBool(yes)) << yes;
  }
  for (const char* no : {"false", "No", "off", "0", "f", "n"}) {
    EXPECT_TRUE(ParseBool(no).ok() && !*ParseBool(no)) << no;
  }
  for (const char* bad : {"", "2", "banana", "truee"}) EXPECT_FALSE(ParseBool(bad).ok()) << bad;
}

TEST(FlagValuesTest, ParseIntAndDoubleAreStrict) {
  EXPECT_EQ(*ParseInt("42"), 42);
  EXPECT_EQ(*ParseInt("-7"), -7);
  EXPECT_EQ(*ParseInt("+3"), 3);
  for (const char* bad : {"", "4x", " 4", "4 ", "0x10", "1e3", "99999999999999999999"}) {
    EXPECT_FALSE(ParseInt(bad).ok()) << bad;
  }
  EXPECT_EQ(*ParseDouble("0.5"), 0.5);
  EXPECT_EQ(*ParseDouble("2e-3"), 2e-3);
  for (const char* bad : {"", "0.5s", "1,5", "abc"}) EXPECT_FALSE(ParseDouble(bad).ok()) << bad;
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
                         "--benchmark_min_time=0.5",
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

TEST(BenchmarkFlagsTest, RejectsWhatTheLibraryWouldMisread) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--benchmark_filter=a[", "--benchmark_filter=a[: invalid regular expression"},
      {"--benchmark_filter", "--benchmark_filter: needs a value, as --benchmark_filter=VALUE"},
      {"--benchmark_repetitions=2.5", "--benchmark_repetitions=2.5: expected an integer"},
      {"--benchmark_repetitions=3000000000", "expected an integer from 1 to 2147483647"},
      {"--benchmark_min_time=100x", "the 's' and 'x' suffixes need Google Benchmark 1.8"},
      {"--benchmark_min_time=inf", "expected a non-negative number of seconds"},
      {"--benchmark_format=JSON", "expected one of console, json, csv"},
      {"--benchmark_context=a=1,", "expected key=value pairs"},
      {"--benchmark_context==1", "expected key=value pairs"},
      {"--benchmark_out=", "--benchmark_out=: expected a file name"},
      {"--benchmark_filterx=1", "unknown flag --benchmark_filterx=1"},
      {"--v", "--v: needs a value"},
  };
  for (const auto& [arg, message] : cases) {
    const Status s = ValidateBenchmarkFlag(arg);
    EXPECT_FALSE(s.ok()) << arg;
    EXPECT_NE(s.message().find(message), std::string::npos) << arg << " -> " << s.message();
  }
}

TEST(HarnessFlagsTest, BenchmemInEveryBooleanSpelling) {
  EXPECT_FALSE(ParseHarnessFlags(std::vector<std::string>{})->benchmem);
  EXPECT_TRUE(ParseHarnessFlags(std::vector<std::string>{"--benchmem"})->benchmem);
  EXPECT_TRUE(ParseHarnessFlags(std::vector<std::string>{"--benchmem=true"})->benchmem);
  EXPECT_FALSE(ParseHarnessFlags(std::vector<std::string>{"--benchmem", "--benchmem=0"})->benchmem);
}

TEST(HarnessFlagsTest, CpuprofileTakesItsValueInEitherSpelling) {
  StatusOr<Options> joined =
      ParseHarnessFlags(std::vector<std::string>{"--cpuprofile=a.pprof", "--cpuprofilerate=250"});
  ASSERT_TRUE(joined.ok()) << joined.status().message();
  EXPECT_EQ(joined->cpuprofile, "a.pprof");
  EXPECT_EQ(joined->cpuprofile_rate, 250);
  StatusOr<Options> separate =
      ParseHarnessFlags(std::vector<std::string>{"--cpuprofile", "b.pprof", "--benchmem"});
  ASSERT_TRUE(separate.ok()) << separate.status().message();
  EXPECT_EQ(separate->cpuprofile, "b.pprof");
  EXPECT_EQ(separate->cpuprofile_rate, 100);
  EXPECT_TRUE(separate->benchmem);
}

TEST(HarnessFlagsTest, ProfileAndTraceFlagsHaveGoDefaults) {
  StatusOr<Options> defaults = ParseHarnessFlags(std::vector<std::string>{});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->memprofile_rate, 524288);
  EXPECT_EQ(defaults->memprofile, "");
  EXPECT_EQ(defaults->trace, "");
  EXPECT_EQ(defaults->trace_cpu_rate, 100);
  StatusOr<Options> set = ParseHarnessFlags(std::vector<std::string>{
      "--memprofile", "m.pprof", "--memprofilerate=1", "--trace=t.json", "--tracecpurate=1000"});
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->memprofile, "m.pprof");
  EXPECT_EQ(set->memprofile_rate, 1);
  EXPECT_EQ(set->trace, "t.json");
  EXPECT_EQ(set->trace_cpu_rate, 1000);
  EXPECT_EQ(ParseHarnessFlags(std::vector<std::string>{"--tracecpurate=0"})->trace_cpu_rate, 0);
  EXPECT_EQ(ParseHarnessFlags(std::vector<std::string>{"--memprofilerate=0"})->memprofile_rate, 0);
}

TEST(HarnessFlagsTest, ErrorsNameTheArgument) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--memprofiles=x"}, "unknown flag --memprofiles=x (see --help)"},
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
       "unexpected argument 'positional' (flags are spelled --name=value; see --help)"},
      {{"--"}, "unexpected argument '--' (flags are spelled --name=value; see --help)"},
      {{"--benchmem=2"}, "--benchmem=2: expected true or false"},
  };
  for (const auto& [args, message] : cases) {
    StatusOr<Options> parsed = ParseHarnessFlags(args);
    ASSERT_FALSE(parsed.ok()) << args[0];
    EXPECT_EQ(parsed.status().message(), message);
  }
}

TEST(HarnessFlagsTest, HelpSpellings) {
  EXPECT_TRUE(IsHelpFlag("--help"));
  EXPECT_TRUE(IsHelpFlag("--help=full"));
  EXPECT_TRUE(IsHelpFlag("-h"));
  EXPECT_TRUE(IsHelpFlag("--h"));
  EXPECT_FALSE(IsHelpFlag("--helpful"));
}

TEST(HarnessFlagsTest, EveryFlagHasOneLineOfHelp) {
  for (const HarnessFlag& flag : HarnessFlags()) {
    EXPECT_FALSE(flag.help.empty()) << flag.name;
    EXPECT_EQ(flag.help.find('\n'), std::string_view::npos) << flag.name;
  }
}

}  // namespace
}  // namespace benchprof::cli
