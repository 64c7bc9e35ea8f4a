#include "cli/help.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "benchprof/main.h"

namespace benchprof::cli {
namespace {

constexpr ExitCodeInfo kBenchExitCodes[] = {
    {kExitOk, "success"},
    {kExitBenchmarkError,
     "a benchmark reported an error (SkipWithError, or it could not be measured)"},
    {kExitUsage, "bad command line: unknown flag, malformed value, unwritable output path"},
    {kExitNoBenchmarkMatched, "the filter matched no benchmark"},
    {kExitHarnessFailure, "benchprof itself failed: start-up self-test, or writing a result file"},
};

void Print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace

std::span<const ExitCodeInfo> BenchExitCodes() { return kBenchExitCodes; }

void PrintHelp(const FlagSet& flags) {
  std::printf(
      "Runs Google Benchmark 1.7.1 benchmarks and measures them as `go test -bench` does.\n"
      "\n"
      "Google Benchmark flags (spelled --name=value):\n");
  std::fflush(stdout);
  benchmark::PrintDefaultHelp();
  std::fflush(stdout);

  Print("\nbenchprof flags (Go's single-dash spelling -name works too):\n");
  Print(flags.Usage());
  Print("\n");
  Print(FormatExitCodes(kBenchExitCodes));
}

}  // namespace benchprof::cli
