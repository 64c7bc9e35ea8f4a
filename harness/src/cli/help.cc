#include "cli/help.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "benchprof/main.h"
#include "benchprof_benchmark_version.h"

namespace benchprof::cli {
namespace {

constexpr ExitCodeInfo kBenchExitCodes[] = {
    {kExitOk, "success"},
    {kExitBenchmarkError,
     "a benchmark reported an error (SkipWithError, or it could not be measured)"},
    {kExitUsage, "bad command line: unknown flag, malformed value, unwritable output path"},
    {kExitNoBenchmarkMatched, "the filter matched no benchmark"},
    {kExitHarnessFailure, "benchprof itself failed: start-up self-test, or writing a result file"},
    {kExitTimeout, "the run took longer than --timeout (every thread's stack is printed)"},
};

void Print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace

std::span<const ExitCodeInfo> BenchExitCodes() { return kBenchExitCodes; }

void PrintHelp(const FlagSet& flags) {
  std::printf(
      "Runs Google Benchmark benchmarks and measures them as `go test -bench` does.\n"
      "Built against Google Benchmark %s: its flags are these.\n"
      "\n"
      "Google Benchmark flags (spelled --name=value):\n",
      kBenchmarkVersion);
  std::fflush(stdout);
  benchmark::PrintDefaultHelp();
  std::fflush(stdout);

  Print("\nbenchprof flags (Go's single-dash spelling -name works too):\n");
  Print(flags.Usage());
  Print(
      "  --version\n"
      "        print benchprof's version and the Google Benchmark version it was built against\n");
  Print("\n");
  Print(FormatExitCodes(kBenchExitCodes));
}

void PrintVersion() {
  std::printf("benchprof %s (Google Benchmark %s%s)\n", BENCHPROF_VERSION, kBenchmarkVersion,
              kBenchmarkVersionUntested ? ", untested" : "");
}

}  // namespace benchprof::cli
