#include "cli/benchmark_flags.h"

#include <benchmark/benchmark.h>

#include <array>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <regex>
#include <string>

#include "benchprof_benchmark_version.h"
#include "cli/flag_spelling.h"
#include "common/number_parser.h"

namespace benchprof::cli {
namespace {

enum class Kind {
  kBool,
  kPositiveInt,
  kInt,
  kSeconds,
  kMinTime,
  kFormat,
  kTimeUnit,
  kColor,
  kRegex,
  kContext,
  kPath,
  kAnyString,
};

struct BenchmarkFlag {
  std::string_view name;
  Kind kind;
};

// 1.8 made --benchmark_min_time a string: "<float>s" or "<int>x".
constexpr bool kMinTimeHasSuffix = BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10800;

// Every flag benchmark::Initialize() of the linked version understands.
constexpr std::array kBenchmarkFlags = {
    BenchmarkFlag{"benchmark_list_tests", Kind::kBool},
    BenchmarkFlag{"benchmark_filter", Kind::kRegex},
    BenchmarkFlag{"benchmark_min_time", kMinTimeHasSuffix ? Kind::kMinTime : Kind::kSeconds},
    BenchmarkFlag{"benchmark_min_warmup_time", Kind::kSeconds},
    BenchmarkFlag{"benchmark_repetitions", Kind::kPositiveInt},
#if BENCHPROF_BENCHMARK_VERSION_NUMBER >= 10901
    BenchmarkFlag{"benchmark_dry_run", Kind::kBool},
#endif
    BenchmarkFlag{"benchmark_enable_random_interleaving", Kind::kBool},
    BenchmarkFlag{"benchmark_report_aggregates_only", Kind::kBool},
    BenchmarkFlag{"benchmark_display_aggregates_only", Kind::kBool},
    BenchmarkFlag{"benchmark_format", Kind::kFormat},
    BenchmarkFlag{"benchmark_out", Kind::kPath},
    BenchmarkFlag{"benchmark_out_format", Kind::kFormat},
    BenchmarkFlag{"benchmark_color", Kind::kColor},
    BenchmarkFlag{"benchmark_counters_tabular", Kind::kBool},
    BenchmarkFlag{"benchmark_perf_counters", Kind::kAnyString},
    BenchmarkFlag{"benchmark_context", Kind::kContext},
    BenchmarkFlag{"benchmark_time_unit", Kind::kTimeUnit},
    BenchmarkFlag{"v", Kind::kInt},
};

// OK if `text` is one of `choices`; else an error listing them.
Status CheckOneOf(std::string_view text, std::initializer_list<std::string_view> choices) {
  std::string listed;
  for (std::string_view choice : choices) {
    if (text == choice) return Status();
    if (!listed.empty()) listed += ", ";
    listed += choice;
  }
  return Status::Error("expected one of " + listed);
}

// std::regex compiles by recursion, a few stack frames per character: the
// library (and this check) would overflow the stack on a filter of some ten
// thousand characters. Far longer than any filter a person writes.
constexpr size_t kMaxFilterLength = 4096;

Status CheckRegex(std::string_view value) {
  if (value.size() > kMaxFilterLength) {
    return Status::Error("longer than " + std::to_string(kMaxFilterLength) +
                         " characters (the library's regular expressions are compiled by "
                         "recursion)");
  }
  // As the library does: a leading '-' negates the filter; POSIX extended syntax.
  if (!value.empty() && value.front() == '-') value.remove_prefix(1);
  try {
    std::regex compiled(value.begin(), value.end(), std::regex::extended);
  } catch (const std::regex_error& e) {
    return Status::Error(std::string("invalid regular expression (") + e.what() + ")");
  }
  return Status();
}

Status CheckContext(std::string_view value) {
  for (;;) {
    const size_t comma = value.find(',');
    const std::string_view pair = value.substr(0, comma);
    const size_t equals = pair.find('=');
    if (equals == std::string_view::npos || equals == 0) {
      return Status::Error("expected key=value pairs separated by commas, got '" +
                           std::string(pair) + "'");
    }
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return Status();
}

Status CheckSeconds(std::string_view value) {
  const std::optional<double> parsed = ParseNumber(value);
  if (parsed && *parsed >= 0) return Status();
  if (!value.empty() && (value.back() == 's' || value.back() == 'x')) {
    return Status::Error(
        std::string("expected seconds as a plain number, e.g. 0.5 (Google Benchmark ") +
        kBenchmarkVersion + " has no 's' or 'x' suffix; 1.8 added them)");
  }
  return Status::Error("expected a non-negative number of seconds");
}

// 1.8's syntax: "0.5s" (seconds), "100x" (exact iterations), or a bare
// number of seconds, which the library accepts with a warning.
Status CheckMinTime(std::string_view value) {
  constexpr std::string_view kSyntax = "expected <seconds>s or <iterations>x, e.g. 0.5s or 100x";
  if (value.ends_with('x')) {
    const std::optional<int64_t> iterations =
        ParseInteger(value.substr(0, value.size() - 1), IntegerSyntax::kDecimal);
    if (!iterations || *iterations < 1) return Status::Error(std::string(kSyntax));
    return Status();
  }
  if (value.ends_with('s')) value.remove_suffix(1);
  const std::optional<double> seconds = ParseNumber(value);
  if (!seconds || *seconds < 0) return Status::Error(std::string(kSyntax));
  return Status();
}

Status CheckValue(Kind kind, std::string_view value) {
  switch (kind) {
    case Kind::kBool:
      return ParseBool(value) ? Status() : Status::Error("expected true or false");
    case Kind::kPositiveInt: {
      const std::optional<int64_t> parsed = ParseInteger(value, IntegerSyntax::kDecimal);
      if (!parsed || *parsed < 1 || *parsed > INT32_MAX) {
        return Status::Error("expected an integer from 1 to 2147483647");
      }
      return Status();
    }
    case Kind::kInt: {
      const std::optional<int64_t> parsed = ParseInteger(value, IntegerSyntax::kDecimal);
      if (!parsed || *parsed < INT32_MIN || *parsed > INT32_MAX) {
        return Status::Error("expected a 32-bit integer");
      }
      return Status();
    }
    case Kind::kSeconds:
      return CheckSeconds(value);
    case Kind::kMinTime:
      return CheckMinTime(value);
    case Kind::kFormat:
      return CheckOneOf(value, {"console", "json", "csv"});
    case Kind::kTimeUnit:
      return CheckOneOf(value, {"ns", "us", "ms", "s"});
    case Kind::kColor:
      if (value == "auto") return Status();
      return ParseBool(value) ? Status() : Status::Error("expected auto, true or false");
    case Kind::kRegex:
      return CheckRegex(value);
    case Kind::kContext:
      return CheckContext(value);
    case Kind::kPath:
      return value.empty() ? Status::Error("expected a file name") : Status();
    case Kind::kAnyString:
      return Status();
  }
  return Status();
}

}  // namespace

bool IsBenchmarkFlag(std::string_view arg) {
  return arg.starts_with("--benchmark_") || arg == "--v" || arg.starts_with("--v=");
}

Status ValidateBenchmarkFlag(std::string_view arg) {
  const FlagSpelling spelling = SplitFlag(arg);
  for (const BenchmarkFlag& flag : kBenchmarkFlags) {
    if (spelling.name != flag.name) continue;
    if (!spelling.value.has_value()) {
      if (flag.kind == Kind::kBool) return Status();
      return Status::Error(std::string(arg) + ": needs a value, as --" + std::string(flag.name) +
                           "=VALUE");
    }
    return CheckValue(flag.kind, *spelling.value).WithContext(std::string(arg));
  }
  return Status::Error("unknown flag " + std::string(arg) + " (see --help)");
}

Status ValidateBenchmarkEnvironment() {
  // The library reads --v's default from V; BENCHMARK_V looks like the
  // other variables' spelling, and would be ignored without a word.
  if (const char* value = std::getenv("BENCHMARK_V"); value != nullptr && *value != '\0') {
    return Status::Error(std::string("environment variable BENCHMARK_V=") + value +
                         ": Google Benchmark does not read BENCHMARK_V; --v's variable is V");
  }
  for (const BenchmarkFlag& flag : kBenchmarkFlags) {
    std::string variable(flag.name);
    for (char& c : variable) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const char* value = std::getenv(variable.c_str());
    if (value == nullptr || *value == '\0') continue;  // empty: the flag's default
    if (Status valid = CheckValue(flag.kind, value); !valid.ok()) {
      return valid.WithContext("environment variable " + variable + "=" + value);
    }
  }
  return Status();
}

Status CheckMachineFacts() {
  const benchmark::CPUInfo& info = benchmark::CPUInfo::Get();
  if (info.num_cpus < 1) {
    return Status::Error(
        "Google Benchmark could not read the number of CPUs (/proc/cpuinfo; see above), which "
        "every result file records");
  }
  if (!(info.cycles_per_second > 0)) {
    return Status::Error(
        "Google Benchmark could not read the CPUs' frequency (/sys/devices/system/cpu, "
        "/proc/cpuinfo; see above), which every result file records");
  }
  return Status();
}

std::string ForLibrary(std::string_view arg) {
  const FlagSpelling spelling = SplitFlag(arg);
  if (!kMinTimeHasSuffix || spelling.name != "benchmark_min_time" || !spelling.value ||
      spelling.value->empty() || spelling.value->back() == 's' || spelling.value->back() == 'x') {
    return std::string(arg);
  }
  // A bare number means seconds on every version; 1.8+ would print a
  // warning for each benchmark, so the library gets the explicit spelling.
  return "--benchmark_min_time=" + std::string(*spelling.value) + "s";
}

}  // namespace benchprof::cli
