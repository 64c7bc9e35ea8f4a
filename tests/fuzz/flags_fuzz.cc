// Fuzz target for bench's command line, as main() checks it before any
// benchmark runs.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "benchprof/flags.h"
#include "cli/benchmark_flags.h"
#include "cli/flag_spelling.h"
#include "cli/harness_flags.h"
#include "common/status.h"
#include "fuzz/fuzz_targets.h"
#include "profiles/profile.h"
#include "profiles/profile_registry.h"
#include "tools/compare/name_pattern.h"
#include "tools/compare/thresholds.h"

namespace benchprof::fuzz {
namespace {

std::vector<std::string> SplitAtNul(std::string_view data) {
  std::vector<std::string> args;
  while (!data.empty()) {
    const size_t end = data.find('\0');
    args.emplace_back(data.substr(0, end));
    if (end == std::string_view::npos) break;
    data.remove_prefix(end + 1);
  }
  return args;
}

// Every kind of flag FlagSet offers, as the workload commands use them.
void ParseWithEveryFlagKind(const std::vector<std::string>& args) {
  bool on = false;
  std::string text = "unchanged";
  std::string file;
  int64_t big = 7;
  int small = 7;
  uint64_t count = 7;
  double ratio = 0.5;
  std::string choice = "a";
  std::vector<std::string> custom;
  FlagSet flags("fuzz");
  flags.Bool("on", &on, "a switch");
  flags.String("text", "TEXT", &text, "any text");
  flags.File("file", &file, "a file");
  flags.Int("big", "N", INT64_MIN, INT64_MAX, &big, "a 64-bit number");
  flags.Int("small", "N", 1, 1024, &small, "a small number");
  flags.Uint64("count", "N", &count, "a count");
  flags.Number("ratio", "X", 0, 1, &ratio, "a ratio");
  flags.Choice("choice", {"a", "b", "c"}, &choice, "a choice");
  flags.Custom(
      "custom", "V",
      [&](std::string_view value) -> std::string {
        if (value.empty()) return "expected a value";
        custom.emplace_back(value);
        return "";
      },
      "a repeatable flag");
  CommandLine command_line;
  std::string error;
  if (!flags.Parse(args, &command_line, &error)) {
    FUZZ_CHECK(!error.empty(), "a refusal without a message");
    return;
  }
  // Bound variables hold only values their flags accept.
  FUZZ_CHECK(small >= 1 && small <= 1024, "an Int flag outside its range");
  FUZZ_CHECK(ratio > 0 && ratio < 1, "a Number flag outside its range");
  FUZZ_CHECK(choice == "a" || choice == "b" || choice == "c", "a Choice outside its choices");
  (void)flags.Usage();
}

// The values of `benchprof compare`'s own flags: --threshold=SPEC and
// --filter=REGEX, each argument as one.
void CompareFlagValues(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    compare::ThresholdPolicy policy = compare::ThresholdPolicy::Defaults();
    const Status added = policy.Add(arg);
    if (!added.ok()) FUZZ_CHECK(!added.message().empty(), "a refusal without a message");
    (void)policy.Find("BM_A/8", "cpu_time", true);
    (void)policy.AddedMetrics();
    StatusOr<compare::NamePattern> pattern = compare::NamePattern::Compile(arg);
    if (pattern.ok()) {
      (void)pattern->Search("BM_AlgorithmOne/threads:2");
    } else {
      FUZZ_CHECK(!pattern.status().message().empty(), "a refusal without a message");
    }
  }
}

}  // namespace

void Flags(std::string_view data) {
  const std::vector<std::string> args = SplitAtNul(data);
  ParseWithEveryFlagKind(args);
  CompareFlagValues(args);

  // bench: Go's single dashes become two (a value taken from the next
  // argument is left alone), the library's flags are validated and then
  // taken out (as benchmark::Initialize() does), the rest is the harness's.
  cli::HarnessOptions options;
  const std::vector<std::unique_ptr<profiles::Profile>> kinds = profiles::MakeProfiles();
  FlagSet flags("bench");
  cli::DeclareHarnessFlags(flags, options);
  for (const auto& kind : kinds) kind->DeclareFlags(flags);
  std::vector<std::string> rest;
  bool next_is_value = false;
  for (const std::string& given : args) {
    if (next_is_value) {
      rest.push_back(given);
      next_is_value = false;
      continue;
    }
    std::string arg = cli::NormalizeDashes(given);
    if (cli::IsBenchmarkFlag(arg)) {
      const Status valid = cli::ValidateBenchmarkFlag(arg);
      if (!valid.ok()) {
        FUZZ_CHECK(!valid.message().empty(), "a refusal without a message");
        return;
      }
      (void)cli::ForLibrary(arg);
      continue;
    }
    if (arg.starts_with("--") && arg.find('=') == std::string::npos) {
      next_is_value = flags.TakesValue(std::string_view(arg).substr(2));
    }
    rest.push_back(std::move(arg));
  }
  const Status parsed = cli::ParseHarnessFlags(flags, rest);
  if (!parsed.ok()) FUZZ_CHECK(!parsed.message().empty(), "a refusal without a message");
}

}  // namespace benchprof::fuzz
