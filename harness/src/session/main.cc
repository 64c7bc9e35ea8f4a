// main() of every benchprof benchmark binary, and benchprof::Main().
//
// Order of work, so that every mistake is reported before a benchmark runs:
//   1. --help, then every Google Benchmark flag is validated (one line, exit 2)
//   2. benchmark::Initialize() consumes the library's flags
//   3. the harness flags are parsed from what is left (unknown flag: exit 2)
//   4. output paths are created as temporary files (unwritable: exit 2)
//   5. self-test of the timed-loop interception (when a figure depends on it)
//   6. profilers start; one RunSpecifiedBenchmarks() call; profiles are
//      written and output files move into place.
#include "benchprof/main.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/benchmark_flags.h"
#include "cli/flag_values.h"
#include "cli/harness_flags.h"
#include "cli/help.h"
#include "collect/alloc_counter.h"
#include "common/atomic_file.h"
#include "session/cpu_profile.h"
#include "session/harness_reporter.h"
#include "session/heap_profile.h"
#include "session/loop_hooks.h"
#include "session/run_labels.h"
#include "session/timed_loop.h"
#include "session/trace_session.h"

// Defined by the library (benchmark.cc); not in its public header.
namespace benchmark {
extern std::string FLAGS_benchmark_out;
extern std::string FLAGS_benchmark_out_format;
extern bool FLAGS_benchmark_list_tests;
}  // namespace benchmark

namespace benchprof {

using aggregate::RunLabel;

namespace {

std::string ProgramName(const char* argv0) {
  const std::string path = argv0 != nullptr ? argv0 : "bench";
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

int Fail(const std::string& program, const std::string& message, int exit_code) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
  return exit_code;
}

// The temporary file behind output flag `flag`; none if `path` is empty.
StatusOr<std::optional<AtomicFile>> OpenOutput(const std::string& flag, const std::string& path) {
  if (path.empty()) return std::optional<AtomicFile>();
  StatusOr<AtomicFile> created = AtomicFile::Create(path);
  if (!created.ok()) return created.status().WithContext(flag);
  return std::optional<AtomicFile>(std::move(created).value());
}

bool NeedsInterception(const cli::Options& options) {
  return options.benchmem || !options.cpuprofile.empty() || !options.memprofile.empty() ||
         !options.trace.empty();
}

// Checks that the interception every requested figure depends on is live.
Status SelfTest(const cli::Options& options) {
  if (!NeedsInterception(options)) return Status();
  if (!session::LoopHooksAreLinked()) {
    return Status::Error(
        "self-test failed: this executable was not linked with benchprof::main's --wrap "
        "options, so timed loops cannot be observed; refusing to report allocation figures or "
        "profiles");
  }
  if (!options.benchmem && options.memprofile.empty()) return Status();
  if (!collect::kAllocHooksEnabled) {
    return Status::Error(std::string(options.benchmem ? "--benchmem" : "--memprofile") +
                         ": this build does not see allocations (configured with "
                         "BENCHPROF_ALLOC_HOOKS=OFF, as sanitizer builds are)");
  }
  return Status();
}

}  // namespace

int Main(int argc, char** argv) {
  const std::string program = ProgramName(argc > 0 ? argv[0] : nullptr);

  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.push_back(cli::NormalizeDashes(argv[i]));
  for (const std::string& arg : args) {
    if (cli::IsHelpFlag(arg)) {
      cli::PrintHelp();
      return kExitOk;
    }
  }
  for (const std::string& arg : args) {
    if (!cli::IsBenchmarkFlag(arg)) continue;
    if (Status valid = cli::ValidateBenchmarkFlag(arg); !valid.ok()) {
      return Fail(program, valid.message(), kExitUsage);
    }
  }

  std::vector<char*> library_argv = {argc > 0 ? argv[0] : nullptr};
  for (std::string& arg : args) library_argv.push_back(arg.data());
  library_argv.push_back(nullptr);
  int library_argc = static_cast<int>(library_argv.size()) - 1;
  benchmark::Initialize(&library_argc, library_argv.data(), &cli::PrintHelp);

  const std::vector<std::string> rest(library_argv.begin() + 1,
                                      library_argv.begin() + library_argc);
  StatusOr<cli::Options> options = cli::ParseHarnessFlags(rest);
  if (!options.ok()) return Fail(program, options.status().message(), kExitUsage);

  // Every output is first a temporary file beside its destination, moved
  // into place at the end; an unwritable path is a usage error now, before
  // anything runs. (The library would truncate --benchmark_out and fill it
  // as benchmarks finish; it writes the temporary file instead.)
  StatusOr<std::optional<AtomicFile>> out_file =
      OpenOutput("--benchmark_out", benchmark::FLAGS_benchmark_out);
  StatusOr<std::optional<AtomicFile>> cpu_file = OpenOutput("--cpuprofile", options->cpuprofile);
  StatusOr<std::optional<AtomicFile>> heap_file = OpenOutput("--memprofile", options->memprofile);
  StatusOr<std::optional<AtomicFile>> trace_file = OpenOutput("--trace", options->trace);
  for (const auto* opened : {&out_file, &cpu_file, &heap_file, &trace_file}) {
    if (!opened->ok()) return Fail(program, opened->status().message(), kExitUsage);
  }
  std::optional<AtomicFile> result_file = std::move(out_file).value();
  if (result_file) benchmark::FLAGS_benchmark_out = result_file->temp_path();

  std::unique_ptr<session::CpuProfile> cpu_profile;
  if (*cpu_file) {
    cpu_profile =
        std::make_unique<session::CpuProfile>(std::move(**cpu_file), options->cpuprofile_rate);
  }
  std::unique_ptr<session::HeapProfile> heap_profile;
  if (*heap_file) {
    heap_profile =
        std::make_unique<session::HeapProfile>(std::move(**heap_file), options->memprofile_rate);
  }
  std::unique_ptr<session::TraceSession> trace;
  if (*trace_file) {
    trace = std::make_unique<session::TraceSession>(std::move(**trace_file), program,
                                                    options->trace_cpu_rate);
  }

  if (Status tested = SelfTest(*options); !tested.ok()) {
    return Fail(program, tested.message(), kExitHarnessFailure);
  }
  if (cpu_profile && heap_profile) {
    // As Go's testing package warns: each profiler's work shows in the other.
    std::fprintf(stderr,
                 "%s: warning: --cpuprofile and --memprofile together: heap sampling shows in "
                 "the CPU profile and slows the benchmarks; profile one at a time for exact "
                 "figures\n",
                 program.c_str());
  }

  session::ConfigureTimedLoop({.publish_alloc_counters = options->benchmem,
                               .label_profile_segments = cpu_profile || heap_profile || trace});
  benchmark::AddCustomContext("benchprof_version", BENCHPROF_VERSION);
  benchmark::AddCustomContext("benchprof_benchmem", options->benchmem ? "true" : "false");

  session::RunAuditor auditor(/*requires_interception=*/NeedsInterception(*options),
                              /*expect_alloc_counters=*/options->benchmem);
  session::RunLabels run_labels;
  auditor.SetSegmentListener([&](uint32_t segment, const RunLabel& label) {
    run_labels.NoteReportedRun(segment, label);
    if (trace) trace->NoteReportedRun(segment, label);
  });
  // Before the profilers: the tracer's own threads have become runners that
  // never time (collect::BecomeRunner) when the CPU profiler arms them with
  // the other threads already running, so their samples are dropped.
  if (trace && !benchmark::FLAGS_benchmark_list_tests) {
    if (Status started = trace->Start(); !started.ok()) {
      return Fail(program, started.message(), kExitHarnessFailure);
    }
  }
  if (cpu_profile) {
    if (Status started = cpu_profile->Start(); !started.ok()) {
      return Fail(program, started.message(), kExitHarnessFailure);
    }
  }
  if (heap_profile) {
    if (Status started = heap_profile->Start(); !started.ok()) {
      return Fail(program, started.message(), kExitHarnessFailure);
    }
  }
  session::HarnessReporter display(benchmark::CreateDefaultDisplayReporter(), auditor);
  std::unique_ptr<session::HarnessReporter> file;
  if (result_file) {
    file = std::make_unique<session::HarnessReporter>(
        session::MakeFileReporter(benchmark::FLAGS_benchmark_out_format), auditor);
  }
  // The library allows exactly one call per process.
  const size_t matched = benchmark::RunSpecifiedBenchmarks(&display, file.get());
  benchmark::Shutdown();

  // The library has said which filter matched nothing.
  if (matched == 0) return kExitNoBenchmarkMatched;
  if (trace && !benchmark::FLAGS_benchmark_list_tests) {
    if (Status written = trace->Finish(); !written.ok()) {
      return Fail(program, written.message(), kExitHarnessFailure);
    }
  }
  if (cpu_profile && !benchmark::FLAGS_benchmark_list_tests) {
    if (Status written = cpu_profile->Finish(run_labels); !written.ok()) {
      return Fail(program, written.message(), kExitHarnessFailure);
    }
  }
  if (heap_profile && !benchmark::FLAGS_benchmark_list_tests) {
    if (Status written = heap_profile->Finish(run_labels); !written.ok()) {
      return Fail(program, written.message(), kExitHarnessFailure);
    }
  }
  if (const uint64_t lost = collect::UncountedAllocations(); lost > 0 && options->benchmem) {
    std::fprintf(stderr,
                 "%s: warning: %llu allocations could not be counted (no memory for counter "
                 "slots); allocs/op and B/op are too low\n",
                 program.c_str(), static_cast<unsigned long long>(lost));
  }
  if (result_file && !benchmark::FLAGS_benchmark_list_tests) {
    if (Status written = result_file->Commit(); !written.ok()) {
      return Fail(program, "--benchmark_out: " + written.message(), kExitHarnessFailure);
    }
  }
  return auditor.any_error() ? kExitBenchmarkError : kExitOk;
}

}  // namespace benchprof

// Weak, so that a program with its own main() can link benchprof::main and
// call benchprof::Main() itself.
__attribute__((weak)) int main(int argc, char** argv) { return benchprof::Main(argc, argv); }
