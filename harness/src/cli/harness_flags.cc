#include "cli/harness_flags.h"

#include <array>
#include <limits>
#include <string>

#include "cli/flag_values.h"

namespace benchprof::cli {
namespace {

// `value` as an integer in [min, max]; otherwise the error `expected`.
StatusOr<int64_t> ParseIntIn(std::string_view value, int64_t min, int64_t max,
                             const char* expected) {
  StatusOr<int64_t> parsed = ParseInt(value);
  if (!parsed.ok() || *parsed < min || *parsed > max) return Status::Error(expected);
  return parsed;
}

// A file name flag: any value but an empty one.
Status SetFileName(std::string_view value, std::string& field) {
  if (value.empty()) return Status::Error("expected a file name");
  field = value;
  return Status();
}

// A numeric flag: a whole number in [min, max], else `message`.
template <typename Field>
Status SetNumberIn(std::string_view value, int64_t min, int64_t max, const char* message,
                   Field& field) {
  StatusOr<int64_t> parsed = ParseIntIn(value, min, max, message);
  if (!parsed.ok()) return parsed.status();
  field = static_cast<Field>(*parsed);
  return Status();
}

Status ApplyBenchmem(std::string_view value, Options& options) {
  StatusOr<bool> parsed = ParseBool(value);
  if (!parsed.ok()) return parsed.status();
  options.benchmem = *parsed;
  return Status();
}

Status ApplyCpuprofile(std::string_view value, Options& options) {
  return SetFileName(value, options.cpuprofile);
}

Status ApplyCpuprofileRate(std::string_view value, Options& options) {
  return SetNumberIn(value, 1, 10000, "expected samples per second from 1 to 10000",
                     options.cpuprofile_rate);
}

Status ApplyMemprofile(std::string_view value, Options& options) {
  return SetFileName(value, options.memprofile);
}

// Any non-negative rate is accepted; a very large one means "practically
// never" (Go's sampler caps the mean at 0x7000000 bytes; ours caps each gap
// at 2^62 bytes).
Status ApplyMemprofileRate(std::string_view value, Options& options) {
  return SetNumberIn(value, 0, std::numeric_limits<int64_t>::max(),
                     "expected bytes between samples: 0 (off), 1 (every allocation) or more",
                     options.memprofile_rate);
}

Status ApplyTrace(std::string_view value, Options& options) {
  return SetFileName(value, options.trace);
}

Status ApplyTraceCpuRate(std::string_view value, Options& options) {
  return SetNumberIn(value, 0, 1000, "expected readings per second from 0 (none) to 1000",
                     options.trace_cpu_rate);
}

constexpr std::array kHarnessFlags = {
    HarnessFlag{"benchmem", "",
                "report allocs/op and B/op: heap allocations (any thread, paused time excluded) "
                "per iteration; B/op counts requested bytes",
                &ApplyBenchmem},
    HarnessFlag{"cpuprofile", "FILE",
                "write a CPU profile of the benchmarks' timed loops to FILE (pprof format)",
                &ApplyCpuprofile},
    HarnessFlag{"cpuprofilerate", "HZ",
                "CPU profile samples per CPU-second of each thread (default 100; the kernel "
                "delivers at most 250, the rest is weighted in)",
                &ApplyCpuprofileRate},
    HarnessFlag{"memprofile", "FILE",
                "write a heap profile of the allocations made in timed loops to FILE (pprof "
                "format, Go's allocs profile: alloc_space by default, inuse_* at the end)",
                &ApplyMemprofile},
    HarnessFlag{"memprofilerate", "BYTES",
                "mean bytes between heap profile samples (default 524288, as Go; 1 records "
                "every allocation; 0 records none)",
                &ApplyMemprofileRate},
    HarnessFlag{"trace", "FILE",
                "write an execution trace to FILE (Chrome trace-event JSON: Perfetto UI, "
                "chrome://tracing, speedscope; summarize with `benchprof trace-summary`)",
                &ApplyTrace},
    HarnessFlag{"tracecpurate", "HZ",
                "how often a trace reads each thread's CPU clock and the allocation totals "
                "for its counters (default 100 per second; each reading wakes a thread, which "
                "costs the benchmark when every core is busy; 0 = no counters)",
                &ApplyTraceCpuRate},
};

const HarnessFlag* FindFlag(std::string_view name) {
  for (const HarnessFlag& flag : kHarnessFlags) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

}  // namespace

std::span<const HarnessFlag> HarnessFlags() { return kHarnessFlags; }

bool IsHelpFlag(std::string_view arg) {
  return arg == "--help" || arg.starts_with("--help=") || arg == "--h" || arg == "-h";
}

StatusOr<Options> ParseHarnessFlags(std::span<const std::string> args) {
  Options options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!arg.starts_with("--") || arg.size() == 2) {
      return Status::Error("unexpected argument '" + arg +
                           "' (flags are spelled --name=value; see --help)");
    }
    const FlagSpelling spelling = SplitFlag(arg);
    const HarnessFlag* flag = FindFlag(spelling.name);
    if (flag == nullptr) return Status::Error("unknown flag " + arg + " (see --help)");

    std::string_view value;
    if (spelling.value.has_value()) {
      value = *spelling.value;
    } else if (flag->value_name.empty()) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return Status::Error(arg + ": needs a value, as --" + std::string(flag->name) + "=" +
                           std::string(flag->value_name));
    }
    Status applied = flag->apply(value, options);
    if (!applied.ok()) {
      return applied.WithContext("--" + std::string(flag->name) + "=" + std::string(value));
    }
  }
  return options;
}

}  // namespace benchprof::cli
