#include "cli/help.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "cli/harness_flags.h"

namespace benchprof::cli {

void PrintHelp() {
  std::printf(
      "Runs Google Benchmark 1.7.1 benchmarks and measures them as `go test -bench` does.\n"
      "\n"
      "Google Benchmark flags (spelled --name=value):\n");
  std::fflush(stdout);
  benchmark::PrintDefaultHelp();
  std::fflush(stdout);

  std::printf("\nbenchprof flags (Go's single-dash spelling -name works too):\n");
  size_t width = 0;
  auto spelled = [](const HarnessFlag& flag) {
    std::string text = "--" + std::string(flag.name);
    if (!flag.value_name.empty()) text += "=" + std::string(flag.value_name);
    return text;
  };
  for (const HarnessFlag& flag : HarnessFlags()) width = std::max(width, spelled(flag).size());
  for (const HarnessFlag& flag : HarnessFlags()) {
    std::printf("  %-*s  %.*s\n", static_cast<int>(width), spelled(flag).c_str(),
                static_cast<int>(flag.help.size()), flag.help.data());
  }
  std::printf("  %-*s  %s\n", static_cast<int>(width), "--help", "print this help and exit");
  std::printf(
      "\n"
      "Exit codes: 0 success; 1 a benchmark reported an error; 2 bad command line;\n"
      "3 the filter matched no benchmark; 4 benchprof itself failed.\n");
}

}  // namespace benchprof::cli
