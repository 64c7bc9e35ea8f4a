// The command line of a benchprof binary as a user meets it: every mistake is
// one line on stderr and a documented exit code, before any benchmark runs;
// output files appear whole or not at all.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "benchprof_benchmark_version.h"
#include "collect/cpu_sampler.h"
#include "common/json_value.h"
#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::FileExists;
using testing::ListDirectory;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

ProcessResult Bench(std::vector<std::string> args) {
  args.insert(args.begin(), BENCH_PATH);
  return RunProcess(args);
}

size_t LineCount(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

struct UsageCase {
  std::vector<std::string> args;
  std::string message;  // expected on the single stderr line
};

// What the linked Google Benchmark spells differently.
constexpr bool kMinTimeSuffixes = BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10800;
constexpr bool kDryRun = BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10901;

class UsageErrorTest : public ::testing::TestWithParam<UsageCase> {};

TEST_P(UsageErrorTest, OneLineAndExitCode2BeforeAnyBenchmarkRuns) {
  const UsageCase& c = GetParam();
  const ProcessResult result = Bench(c.args);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(LineCount(result.stderr_text), 1u) << result.stderr_text;
  EXPECT_EQ(result.stderr_text.rfind("bench: ", 0), 0u) << result.stderr_text;
  EXPECT_NE(result.stderr_text.find(c.message), std::string::npos) << result.stderr_text;
  EXPECT_EQ(result.stdout_text, "");
}

INSTANTIATE_TEST_SUITE_P(
    Flags, UsageErrorTest,
    ::testing::Values(
        UsageCase{{"--memprofile=/nonexistent-dir/mem.pprof"},
                  "--memprofile: /nonexistent-dir/mem.pprof: directory /nonexistent-dir does not "
                  "exist"},
        UsageCase{{"--memprofilerate=-1"}, "--memprofilerate=-1: expected bytes between samples"},
        UsageCase{{"--trace=/"}, "--trace: /: is a directory"},
        UsageCase{{"-memprofile"}, "--memprofile: needs a value, as --memprofile=FILE"},
        UsageCase{{"--cpuprofil=x"}, "unknown flag --cpuprofil=x"},
        UsageCase{{"--cpuprofile=/nonexistent-dir/cpu.pprof"},
                  "--cpuprofile: /nonexistent-dir/cpu.pprof: directory /nonexistent-dir does not "
                  "exist"},
        UsageCase{{"--cpuprofile=/"}, "--cpuprofile: /: is a directory"},
        UsageCase{{"--cpuprofilerate=100000"}, "expected samples per second from 1 to 10000"},
        UsageCase{{"--benchmark_bogus=1"}, "unknown flag --benchmark_bogus=1"},
        UsageCase{{"stray"}, "unexpected argument 'stray'"},
        UsageCase{{"--benchmem=maybe"}, "--benchmem=maybe: expected true or false"},
        UsageCase{{"--benchmark_repetitions=abc"},
                  "--benchmark_repetitions=abc: expected an integer from 1"},
        UsageCase{{"--benchmark_repetitions=0"}, "--benchmark_repetitions=0: expected"},
        UsageCase{{"--benchmark_repetitions="}, "--benchmark_repetitions=: expected"},
        UsageCase{{kMinTimeSuffixes ? "--benchmark_min_time=0.5q" : "--benchmark_min_time=0.5s"},
                  kMinTimeSuffixes ? "expected <seconds>s or <iterations>x" : "plain number"},
        UsageCase{{"--benchmark_min_time=-1"},
                  kMinTimeSuffixes ? "expected <seconds>s or <iterations>x"
                                   : "non-negative number of seconds"},
        UsageCase{{"--benchmark_dry_run=maybe"},
                  kDryRun ? "expected true or false" : "unknown flag --benchmark_dry_run"},
        UsageCase{{"--benchmark_format=xml"}, "expected one of console, json, csv"},
        UsageCase{{"--benchmark_out_format=yaml"}, "expected one of console, json, csv"},
        UsageCase{{"--benchmark_time_unit=ps"}, "expected one of ns, us, ms, s"},
        UsageCase{{"--benchmark_list_tests=banana"}, "expected true or false"},
        UsageCase{{"--benchmark_color=purple"}, "expected auto, true or false"},
        UsageCase{{"--benchmark_context=novalue"}, "expected key=value pairs"},
        UsageCase{{"--benchmark_filter=("}, "invalid regular expression"},
        UsageCase{{"--benchmark_filter", "Alg"}, "--benchmark_filter: needs a value"},
        UsageCase{{"--benchmark_filter=" + std::string(20'000, 'a'), "--benchmark_list_tests"},
                  "longer than 4096 characters"},
        UsageCase{{"--v=loud"}, "--v=loud: expected a 32-bit integer"},
        UsageCase{{"--benchmark_out=/nonexistent-dir/out.json"},
                  "directory /nonexistent-dir does not exist"},
        UsageCase{{"--benchmark_out=/"}, "is a directory"}));

TEST(CliTest, HelpListsBothFlagSetsAndExitCodes) {
  for (const char* spelling : {"--help", "-help", "-h"}) {
    SCOPED_TRACE(spelling);
    const ProcessResult result = Bench({spelling});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.stdout_text.find("--benchmark_filter"), std::string::npos);
    EXPECT_NE(result.stdout_text.find("--benchmem "), std::string::npos);
    EXPECT_NE(result.stdout_text.find("--memprofilerate=BYTES"), std::string::npos);
    EXPECT_NE(result.stdout_text.find("--tracecpurate=HZ"), std::string::npos);
    EXPECT_NE(result.stdout_text.find("Exit codes:\n  0  success\n  1  a benchmark reported"),
              std::string::npos);
    EXPECT_NE(result.stdout_text.find("\n  4  benchprof itself failed"), std::string::npos);
  }
}

TEST(CliTest, VersionNamesTheGoogleBenchmarkItWasBuiltAgainst) {
  for (const char* spelling : {"--version", "-version"}) {
    const ProcessResult result = Bench({"--benchmark_format=xml", spelling});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.stdout_text, std::string("benchprof ") + BENCHPROF_VERSION +
                                      " (Google Benchmark " + kBenchmarkVersion + ")\n");
  }
  const ProcessResult help = Bench({"--help"});
  EXPECT_NE(
      help.stdout_text.find(std::string("Built against Google Benchmark ") + kBenchmarkVersion),
      std::string::npos);
  // The library's own help lists the flags of that version.
  EXPECT_EQ(help.stdout_text.find("--benchmark_dry_run") != std::string::npos, kDryRun);
}

// 1.8's --benchmark_min_time=<n>x runs exactly n iterations; 1.9.1's
// --benchmark_dry_run one. A bare number of seconds passes on every version
// without the library's warning about it.
TEST(CliTest, TheLinkedVersionsIterationFlagsWork) {
  const ProcessResult bare =
      Bench({"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.01"});
  EXPECT_EQ(bare.exit_code, 0) << bare.stderr_text;
  EXPECT_EQ(bare.stderr_text.find("should have a suffix"), std::string::npos) << bare.stderr_text;
  if (!kMinTimeSuffixes) GTEST_SKIP() << "Google Benchmark " << kBenchmarkVersion;
  const ProcessResult exact = Bench(
      {"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=37x", "--benchmark_format=json"});
  ASSERT_EQ(exact.exit_code, 0) << exact.stderr_text;
  EXPECT_NE(exact.stdout_text.find("\"iterations\": 37,"), std::string::npos) << exact.stdout_text;
  if (!kDryRun) return;
  const ProcessResult dry =
      Bench({"--benchmark_filter=AlgorithmTwo", "--benchmark_dry_run", "--benchmark_format=json"});
  ASSERT_EQ(dry.exit_code, 0) << dry.stderr_text;
  EXPECT_NE(dry.stdout_text.find("\"iterations\": 1,"), std::string::npos) << dry.stdout_text;
}

// The library reads BENCHMARK_<FLAG> as a flag's default, leniently, and
// V as --v's (the variable is the flag's name, upper-cased). BENCHMARK_V,
// which it does not read, is refused rather than ignored. (Before, V=abc
// and BENCHMARK_V=abc were both accepted while --v=abc was refused.)
TEST(CliTest, EnvironmentVariablesAreValidatedLikeFlags) {
  for (const auto& [variable, message] : std::vector<std::pair<std::string, std::string>>{
           {"BENCHMARK_FORMAT=xml", "expected one of console, json, csv"},
           {"BENCHMARK_OUT_FORMAT=xml", "expected one of console, json, csv"},
           {"BENCHMARK_FILTER=(", "invalid regular expression"},
           {"BENCHMARK_REPETITIONS=abc", "expected an integer from 1"},
           {"V=abc", "expected a 32-bit integer"},
           {"V=99999999999", "expected a 32-bit integer"},
           {"BENCHMARK_V=abc", "Google Benchmark does not read BENCHMARK_V; --v's variable is V"},
           {"BENCHMARK_V=1", "Google Benchmark does not read BENCHMARK_V; --v's variable is V"}}) {
    const ProcessResult result = RunProcess({"/usr/bin/env", variable, BENCH_PATH});
    EXPECT_EQ(result.exit_code, 2) << variable;
    // Ours is the last line; the library may have complained of a number
    // while it loaded, before main().
    const std::string ours = "bench: environment variable " + variable + ": " + message;
    const size_t at = result.stderr_text.rfind("bench: ");
    ASSERT_NE(at, std::string::npos) << result.stderr_text;
    EXPECT_EQ(result.stderr_text.substr(at, ours.size()), ours) << result.stderr_text;
    EXPECT_EQ(LineCount(result.stderr_text.substr(at)), 1u) << result.stderr_text;
    EXPECT_EQ(result.stdout_text, "");
  }
  const ProcessResult fine =
      RunProcess({"/usr/bin/env", "BENCHMARK_FILTER=AlgorithmTwo", "BENCHMARK_FORMAT=json", "V=0",
                  BENCH_PATH, "--benchmark_min_time=0.001"});
  EXPECT_EQ(fine.exit_code, 0) << fine.stderr_text;
  EXPECT_NE(fine.stdout_text.find("\"name\": \"BM_AlgorithmTwo\""), std::string::npos);
}

// Short of file descriptors, Google Benchmark cannot read /proc/cpuinfo
// and would record `num_cpus: -1` and `mhz_per_cpu: 0` in the results.
// bench reads those facts before its outputs take descriptors, and when
// even then they cannot be read, fails as for an unreadable cache size:
// one line naming the fact, exit 4, nothing written. Whatever the limit,
// a result file has real figures. (Before, `ulimit -n 12` with four
// outputs wrote -1 and 0 and exited 0.)
TEST(CliTest, UnreadableCpuFactsFailTheRunInsteadOfBeingRecorded) {
  // The sanitizers' runtimes need descriptors of their own.
  if (SANITIZED_BUILD) GTEST_SKIP() << "sanitizer build";
  const auto run_with_limit = [](int limit, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {
        "/bin/sh", "-c", "ulimit -n " + std::to_string(limit) + "; exec \"$@\"", "sh", BENCH_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProcess(argv);
  };
  int lowest = 4;
  while (lowest < 64 && run_with_limit(lowest, {"--version"}).exit_code != 0) ++lowest;
  int written = 0;
  int refused = 0;
  for (int limit = lowest; limit <= lowest + 12; ++limit) {
    SCOPED_TRACE(limit);
    TempDir dir;
    std::vector<std::string> args = {
        "--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.001",
        "--benchmark_out=" + dir.File("out.json"), "--trace=" + dir.File("trace.json")};
    if (collect::kCpuSamplerSupported) args.push_back("--cpuprofile=" + dir.File("cpu.pprof"));
    if (ALLOC_HOOKS_ENABLED) args.push_back("--memprofile=" + dir.File("mem.pprof"));
    const ProcessResult run = run_with_limit(limit, args);
    if (run.stderr_text.find("bench: Google Benchmark could not read the") != std::string::npos) {
      ++refused;
      EXPECT_EQ(run.exit_code, 4) << run.stderr_text;
      EXPECT_TRUE(ListDirectory(dir.path()).empty()) << run.stderr_text;
      continue;
    }
    if (!FileExists(dir.File("out.json"))) continue;  // another output failed first
    ++written;
    StatusOr<json::Value> results = json::Parse(ReadFile(dir.File("out.json")));
    ASSERT_TRUE(results.ok()) << results.status().message();
    const json::Value* context = results->Find("context");
    ASSERT_NE(context, nullptr);
    EXPECT_GE(context->Find("num_cpus")->as_number(), 1) << run.stderr_text;
    EXPECT_GT(context->Find("mhz_per_cpu")->as_number(), 0) << run.stderr_text;
  }
  EXPECT_GT(written, 0) << "no limit was high enough to write the results";
  EXPECT_GT(refused, 0) << "no limit was low enough to leave the CPU facts unreadable";
}

TEST(CliTest, HelpWinsOverOtherFlags) {
  const ProcessResult result = Bench({"--benchmark_format=xml", "--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.stdout_text.find("benchprof flags"), std::string::npos);
}

TEST(CliTest, FilterMatchingNothingExits3) {
  const ProcessResult result = Bench({"--benchmark_filter=NoSuchBenchmark"});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.stderr_text.find("NoSuchBenchmark"), std::string::npos) << result.stderr_text;
}

TEST(CliTest, ListTestsPrintsExactlyTheFilteredNames) {
  const ProcessResult result = Bench({"--benchmark_list_tests", "--benchmark_filter=Alg"});
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_EQ(result.stdout_text, "BM_AlgorithmOne\nBM_AlgorithmTwo\n");
}

TEST(CliTest, GoSpellingsAreAccepted) {
  std::vector<std::string> args = {"-benchmark_filter=AlgorithmTwo", "-benchmark_format=json",
                                   "-benchmark_min_time=0.01"};
  if (ALLOC_HOOKS_ENABLED) args.push_back("-benchmem");
  const ProcessResult result = Bench(args);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> doc = json::Parse(result.stdout_text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const auto& rows = doc->Find("benchmarks")->as_array();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].Find("name")->as_string(), "BM_AlgorithmTwo");
  if (ALLOC_HOOKS_ENABLED) {
    EXPECT_NE(rows[0].Find("allocs/op"), nullptr);
  }
}

TEST(CliTest, DebugBuildWarningOfTheDistributionLibraryIsDropped) {
  const ProcessResult result =
      Bench({"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.01"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_EQ(result.stderr_text.find("Library was built as DEBUG"), std::string::npos);
  EXPECT_NE(result.stdout_text.find("BM_AlgorithmTwo"), std::string::npos);
}

TEST(CliTest, BenchmarkOutIsWrittenWholeWithNoTemporaryLeft) {
  TempDir dir;
  const std::string out = dir.File("result.json");
  const ProcessResult result =
      Bench({"--benchmark_filter=Alg", "--benchmark_min_time=0.01", "--benchmark_out=" + out});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  StatusOr<json::Value> doc = json::Parse(ReadFile(out));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(doc->Find("benchmarks")->as_array().size(), 2u);
  EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"result.json"});
}

// Runs bench with the file size limited to `blocks` 512-byte blocks (as a
// full disk would: writes fail), SIGXFSZ ignored so the writes fail
// instead of killing the process.
ProcessResult BenchWithFileLimit(int blocks, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {
      "/bin/sh", "-c", "trap '' XFSZ; ulimit -f " + std::to_string(blocks) + "; exec \"$@\"", "sh",
      BENCH_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv);
}

TEST(CliTest, AFullDiskKeepsThePreviousResultFile) {
  for (const std::string format : {"json", "csv", "console"}) {
    SCOPED_TRACE(format);
    TempDir dir;
    const std::string out = dir.File("result." + format);
    const std::vector<std::string> args = {
        "--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.001",
        "--benchmark_out_format=" + format, "--benchmark_out=" + out};
    ASSERT_EQ(Bench(args).exit_code, 0);
    const std::string before = ReadFile(out);
    ASSERT_FALSE(before.empty());
    // 200 repetitions: far more than 4 KiB.
    std::vector<std::string> longer = args;
    longer.push_back("--benchmark_repetitions=200");
    const ProcessResult full = BenchWithFileLimit(8, longer);
    EXPECT_EQ(full.exit_code, 4) << full.stderr_text;
    EXPECT_NE(full.stderr_text.find("bench: --benchmark_out: " + out +
                                    ": write failed (File too large); the file is unchanged\n"),
              std::string::npos)
        << full.stderr_text;
    EXPECT_EQ(ReadFile(out), before);
    EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"result." + format});
  }
}

// A trace that cannot be written says why (here EFBIG, as ENOSPC on a full
// disk), names the output and not its temporary file, and keeps the old one.
TEST(CliTest, AFullDiskTraceSaysWhy) {
  TempDir dir;
  const std::string trace = dir.File("trace.json");
  std::ofstream(trace) << "old";
  // 512 bytes: the trace's first events already take more.
  const ProcessResult full = BenchWithFileLimit(
      1, {"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.001", "--trace=" + trace});
  EXPECT_EQ(full.exit_code, 4) << full.stderr_text;
  EXPECT_NE(full.stderr_text.find("bench: --trace=" + trace +
                                  ": cannot write the trace (File too large)\n"),
            std::string::npos)
      << full.stderr_text;
  EXPECT_EQ(ReadFile(trace), "old");
  EXPECT_EQ(ListDirectory(dir.path()), std::vector<std::string>{"trace.json"});
}

// Only regular files are replaced through a temporary file: a device or a
// FIFO is written to, a symbolic link's target is replaced.
TEST(CliTest, DevicesFifosAndLinksAreWrittenThrough) {
  const std::vector<std::string> run = {"--benchmark_filter=AlgorithmTwo",
                                        "--benchmark_min_time=0.001"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), run.begin(), run.end());
    return Bench(extra);
  };
  std::vector<std::string> to_null_args = {"--benchmark_out=/dev/null", "--trace=/dev/null"};
  if (collect::kCpuSamplerSupported) to_null_args.push_back("--cpuprofile=/dev/null");
  if (ALLOC_HOOKS_ENABLED) to_null_args.push_back("--memprofile=/dev/null");
  const ProcessResult to_null = with(to_null_args);
  EXPECT_EQ(to_null.exit_code, 0) << to_null.stderr_text;
  struct stat info;
  ASSERT_EQ(stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));

  const ProcessResult to_full = with({"--benchmark_out=/dev/full"});
  EXPECT_EQ(to_full.exit_code, 4);
  EXPECT_EQ(LineCount(to_full.stderr_text.substr(to_full.stderr_text.find("bench: "))), 1u)
      << to_full.stderr_text;
  EXPECT_NE(to_full.stderr_text.find("--benchmark_out: /dev/full: write failed (No space left"),
            std::string::npos)
      << to_full.stderr_text;

  TempDir dir;
  const std::string target = dir.File("target.json");
  const std::string link = dir.File("link.json");
  std::ofstream(target) << "old";
  ASSERT_EQ(symlink("target.json", link.c_str()), 0);
  ASSERT_EQ(with({"--benchmark_out=" + link}).exit_code, 0);
  ASSERT_EQ(lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
  EXPECT_NE(ReadFile(target).find("\"BM_AlgorithmTwo\""), std::string::npos);

  const std::string fifo = dir.File("fifo.json");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = ReadFile(fifo); });
  const ProcessResult to_fifo = with({"--benchmark_out=" + fifo});
  // Should bench not have opened the FIFO, this ends the reader's wait.
  if (const int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) close(fd);
  reader.join();
  EXPECT_EQ(to_fifo.exit_code, 0) << to_fifo.stderr_text;
  EXPECT_NE(received.find("\"BM_AlgorithmTwo\""), std::string::npos) << received;
  ASSERT_EQ(stat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  std::vector<std::string> names = ListDirectory(dir.path());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"fifo.json", "link.json", "target.json"}));
}

// One output that cannot be written costs only itself: the others are
// still written, the failure is one line, the exit code 4.
TEST(CliTest, AFailedOutputDoesNotCostTheOthers) {
  TempDir dir;
  std::vector<std::string> args = {"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.001",
                                   "--trace=/dev/full", "--benchmark_out=" + dir.File("out.json")};
  std::vector<std::string> expected = {"out.json"};
  if (collect::kCpuSamplerSupported) {
    args.push_back("--cpuprofile=" + dir.File("cpu.pprof"));
    expected.insert(expected.begin(), "cpu.pprof");
  }
  const ProcessResult result = Bench(args);
  EXPECT_EQ(result.exit_code, 4) << result.stderr_text;
  EXPECT_NE(result.stderr_text.find(
                "bench: --trace=/dev/full: cannot write the trace (No space left on device)\n"),
            std::string::npos)
      << result.stderr_text;
  std::vector<std::string> files = ListDirectory(dir.path());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, expected);
  StatusOr<json::Value> doc = json::Parse(ReadFile(dir.File("out.json")));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
}

TEST(CliTest, OneFileForTwoOutputsIsRefused) {
  TempDir dir;
  const std::string x = dir.File("x");
  const std::string dot_x = dir.path() + "/./x";
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--cpuprofile=" + x, "--memprofile=" + dot_x},
            "--cpuprofile=" + x + " and --memprofile=" + dot_x + " are the same file"},
           {{"--benchmark_out=" + x, "--trace=" + x}, "are the same file"},
           {{"--trace=" + x, "--blockprofile=" + dot_x}, "are the same file"}}) {
    const ProcessResult result = Bench(args);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(LineCount(result.stderr_text), 1u) << result.stderr_text;
    EXPECT_NE(result.stderr_text.find(message), std::string::npos) << result.stderr_text;
  }
  EXPECT_TRUE(ListDirectory(dir.path()).empty());
}

TEST(CliTest, BenchmarkOutFormatCsvIsHonoured) {
  TempDir dir;
  const std::string out = dir.File("result.csv");
  const ProcessResult result =
      Bench({"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.01",
             "--benchmark_out=" + out, "--benchmark_out_format=csv"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  // As 1.7.1 writes CSV files: the context banner, then the table.
  EXPECT_NE(ReadFile(out).find("\nname,iterations,real_time,cpu_time"), std::string::npos)
      << ReadFile(out);
  EXPECT_NE(ReadFile(out).find("\n\"BM_AlgorithmTwo\","), std::string::npos) << ReadFile(out);
}

TEST(CliTest, NothingIsLeftBehindWhenNoBenchmarkRuns) {
  TempDir dir;
  const std::string out = dir.File("result.json");
  EXPECT_EQ(Bench({"--benchmark_filter=NoSuchBenchmark", "--benchmark_out=" + out}).exit_code, 3);
  EXPECT_EQ(Bench({"--benchmark_list_tests", "--benchmark_out=" + out}).exit_code, 0);
  EXPECT_EQ(Bench({"--benchmark_out=" + out, "--no_such_flag"}).exit_code, 2);
  EXPECT_TRUE(ListDirectory(dir.path()).empty());
}

TEST(CliTest, ExistingResultIsReplacedOnlyOnSuccess) {
  TempDir dir;
  const std::string out = dir.File("result.json");
  {
    const ProcessResult first = Bench(
        {"--benchmark_filter=AlgorithmTwo", "--benchmark_min_time=0.01", "--benchmark_out=" + out});
    ASSERT_EQ(first.exit_code, 0) << first.stderr_text;
  }
  const std::string before = ReadFile(out);
  EXPECT_EQ(Bench({"--benchmark_filter=NoSuchBenchmark", "--benchmark_out=" + out}).exit_code, 3);
  EXPECT_EQ(ReadFile(out), before);
}

TEST(CliTest, BenchmemIsRefusedWhereAllocationsCannotBeCounted) {
  if (ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "this build counts allocations";
  const ProcessResult result = Bench({"--benchmem"});
  EXPECT_EQ(result.exit_code, 4);
  EXPECT_NE(result.stderr_text.find("--benchmem: this build does not see allocations"),
            std::string::npos);
}

TEST(CliTest, BenchmarkErrorExits1) {
  const ProcessResult result =
      RunProcess({ALLOC_FIXTURE_BENCH_PATH, "--benchmark_filter=BM_ReportsError"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.stdout_text.find("deliberate failure"), std::string::npos);
}

}  // namespace
}  // namespace benchprof
