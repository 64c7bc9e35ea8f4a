// main() of every benchprof benchmark binary, and benchprof::Main().
//
// Order of work, so that every mistake is reported before a benchmark runs:
//   1. --help and --version, then every Google Benchmark flag is validated
//      (one line, exit 2)
//   2. benchmark::Initialize() consumes the library's flags
//   3. the harness flags (--benchmem, --shard and every profile kind's) are
//      parsed from what is left (unknown flag: exit 2); a shard may come from
//      Bazel's variables instead (cli/shard.h)
//   4. output paths are created as temporary files (unwritable: exit 2)
//   5. self-test of the timed-loop interception (when a figure depends on it)
//   5a. a shard lists the selected benchmarks and narrows the filter to its
//      own (session/shard_run.h)
//   6. the requested profile kinds start, in their start order; one
//      RunSpecifiedBenchmarks() call; the kinds finish in the same order and
//      the output files move into place together (session/run_outputs.h).
//      Interrupted while the benchmarks run, the watcher writes what was
//      collected instead (session/interruption.h).
//
// No profile kind is named here: they come from profiles/profile_registry.h.
#include "benchprof/main.h"

#include <benchmark/benchmark.h>
#include <errno.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchprof_benchmark_version.h"
#include "cli/benchmark_flags.h"
#include "cli/flag_spelling.h"
#include "cli/harness_flags.h"
#include "cli/help.h"
#include "cli/shard.h"
#include "collect/alloc_counter.h"
#include "collect/library_unload_hook.h"
#include "collect/stack_capture.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "common/path_names.h"
#include "profiles/profile_registry.h"
#include "session/harness_reporter.h"
#include "session/interruption.h"
#include "session/loop_hooks.h"
#include "session/run_outputs.h"
#include "session/shard_run.h"
#include "session/timed_loop.h"

// Defined by the library (benchmark.cc); not in its public header.
namespace benchmark {
extern std::string FLAGS_benchmark_out;
extern std::string FLAGS_benchmark_out_format;
extern bool FLAGS_benchmark_list_tests;
}  // namespace benchmark

namespace benchprof {
namespace {

using profiles::Profile;

std::string ProgramName(const char* argv0) {
  return BaseNameOf(argv0 != nullptr ? argv0 : "bench");
}

int Fail(const std::string& program, const std::string& message, int exit_code) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
  return exit_code;
}

// The command line with Go's single-dash flags spelled with two dashes, as
// the library reads them. A value that follows a harness flag as the next
// argument (`--cpuprofile -x.pprof`) is left as it is.
std::vector<std::string> NormalizeArguments(int argc, char** argv, const FlagSet& flags) {
  std::vector<std::string> args;
  bool next_is_value = false;
  for (int i = 1; i < argc; ++i) {
    if (next_is_value) {
      args.emplace_back(argv[i]);
      next_is_value = false;
      continue;
    }
    std::string arg = cli::NormalizeDashes(argv[i]);
    if (arg.starts_with("--") && arg.find('=') == std::string::npos) {
      next_is_value = flags.TakesValue(std::string_view(arg).substr(2));
    }
    args.push_back(std::move(arg));
  }
  return args;
}

// The temporary file behind output flag `flag`; none if `path` is empty.
StatusOr<std::optional<AtomicFile>> OpenOutput(const std::string& flag, const std::string& path) {
  if (path.empty()) return std::optional<AtomicFile>();
  StatusOr<AtomicFile> created = AtomicFile::Create(path);
  if (!created.ok()) return created.status().WithContext(flag);
  return std::optional<AtomicFile>(std::move(created).value());
}

// What the run asked for: the harness options and the requested kinds.
struct Request {
  cli::HarnessOptions options;
  std::vector<Profile*> kinds;  // requested, in start order

  bool NeedsInterception() const {
    if (options.benchmem) return true;
    for (const Profile* kind : kinds) {
      if (kind->traits().needs_timed_loops) return true;
    }
    return false;
  }

  // The first flag that needs the allocator hooks, or "".
  std::string NeedsAllocationHooks() const {
    if (options.benchmem) return "--benchmem";
    for (const Profile* kind : kinds) {
      if (kind->traits().needs_allocation_hooks) {
        return "--" + std::string(kind->traits().output_flag);
      }
    }
    return "";
  }

  bool Has(std::string_view output_flag) const {
    for (const Profile* kind : kinds) {
      if (kind->traits().output_flag == output_flag) return true;
    }
    return false;
  }
};

// Checks that the interception every requested figure depends on is live.
Status SelfTest(const Request& request) {
  if (!request.NeedsInterception()) return Status();
  if (!session::LoopHooksAreLinked()) {
    return Status::Error(
        "self-test failed: this executable was not linked with benchprof::main's --wrap "
        "options, so timed loops cannot be observed; refusing to report allocation figures or "
        "profiles");
  }
  const std::string needs_hooks = request.NeedsAllocationHooks();
  if (!needs_hooks.empty() && !collect::kAllocHooksEnabled) {
    return Status::Error(needs_hooks +
                         ": this build does not see allocations (configured with "
                         "BENCHPROF_ALLOC_HOOKS=OFF, as sanitizer builds are)");
  }
  return Status();
}

// A kind that must run alone (traits().runs_alone) refuses the others.
Status CheckRunsAlone(const Request& request) {
  for (const Profile* kind : request.kinds) {
    if (!kind->traits().runs_alone) continue;
    for (const Profile* other : request.kinds) {
      if (other == kind) continue;
      return Status::Error(
          "--" + std::string(kind->traits().output_flag) + " cannot be combined with --" +
          std::string(other->traits().output_flag) + ": " + std::string(kind->traits().name) +
          " run alone (under Valgrind); use two runs");
    }
  }
  return Status();
}

// One warning per pair of requested kinds where one disturbs the other.
void WarnOfDisturbances(const std::string& program, const Request& request) {
  for (const Profile* kind : request.kinds) {
    const profiles::ProfileTraits& traits = kind->traits();
    if (traits.disturbs.empty() || !request.Has(traits.disturbs)) continue;
    std::fprintf(stderr,
                 "%s: warning: --%.*s and --%.*s together: %.*s; profile one at a time for exact "
                 "figures\n",
                 program.c_str(), static_cast<int>(traits.disturbs.size()), traits.disturbs.data(),
                 static_cast<int>(traits.output_flag.size()), traits.output_flag.data(),
                 static_cast<int>(traits.disturbance.size()), traits.disturbance.data());
  }
}

// The output files, opened before anything runs: --benchmark_out's and each
// requested kind's, in the kinds' order. An unwritable path is a usage error.
struct Outputs {
  std::optional<AtomicFile> results;
  std::vector<std::optional<AtomicFile>> kinds;  // none for a kind that writes no file
};

StatusOr<Outputs> OpenOutputs(const Request& request) {
  std::vector<NamedPath> named;
  if (!benchmark::FLAGS_benchmark_out.empty()) {
    named.push_back({"--benchmark_out", benchmark::FLAGS_benchmark_out});
  }
  for (const Profile* kind : request.kinds) {
    if (!kind->traits().writes_file) continue;
    named.push_back({"--" + std::string(kind->traits().output_flag), kind->output_path()});
  }
  if (Status distinct = CheckDistinctFiles(named); !distinct.ok()) return distinct;
  Outputs outputs;
  // The library would truncate --benchmark_out and fill it as benchmarks
  // finish; it writes the temporary file instead.
  StatusOr<std::optional<AtomicFile>> results =
      OpenOutput("--benchmark_out", benchmark::FLAGS_benchmark_out);
  if (!results.ok()) return results.status();
  outputs.results = std::move(results).value();
  for (const Profile* kind : request.kinds) {
    if (!kind->traits().writes_file) {
      outputs.kinds.emplace_back();
      continue;
    }
    StatusOr<std::optional<AtomicFile>> file =
        OpenOutput("--" + std::string(kind->traits().output_flag), kind->output_path());
    if (!file.ok()) return file.status();
    outputs.kinds.push_back(std::move(*file));
  }
  return outputs;
}

// Starts the requested kinds (their thread hooks first), in start order.
Status StartProfiles(const Request& request, Outputs& outputs, const std::string& program) {
  for (const Profile* kind : request.kinds) {
    const collect::ThreadListener* listener = kind->traits().thread_listener;
    if (listener != nullptr && !collect::AddThreadListener(listener)) {
      return Status::Error("too many thread listeners");
    }
  }
  for (size_t i = 0; i < request.kinds.size(); ++i) {
    Status started = outputs.kinds[i]
                         ? request.kinds[i]->Start(std::move(*outputs.kinds[i]), {program})
                         : request.kinds[i]->StartWithoutFile({program});
    if (!started.ok()) {
      return started;
    }
  }
  return Status();
}

struct BenchmarkRun {
  size_t matched = 0;   // benchmarks the filter matched
  Status results_file;  // whether --benchmark_out's file got everything
};

// Whether `file` holds exactly the `bytes` its stream accepted: a write the
// stream saw succeed can still be lost when the library closes the file.
Status CheckFileSize(const std::string& file, uint64_t bytes) {
  struct stat info;
  if (stat(file.c_str(), &info) != 0) return Status::Error(std::strerror(errno));
  if (static_cast<uint64_t>(info.st_size) == bytes) return Status();
  return Status::Error("write failed (" + std::to_string(info.st_size) + " of " +
                       std::to_string(bytes) + " bytes written)");
}

// Runs the benchmarks with the harness's reporters; an interruption while
// they run writes what was collected from `interrupted` (given the file
// reporter) instead, and then this call never returns.
BenchmarkRun RunBenchmarks(session::RunAuditor& auditor, const std::optional<AtomicFile>& results,
                           session::InterruptedRun interrupted) {
  session::HarnessReporter display(benchmark::CreateDefaultDisplayReporter(), auditor);
  std::unique_ptr<session::HarnessReporter> file;
  if (results) {
    file = std::make_unique<session::HarnessReporter>(
        session::MakeFileReporter(benchmark::FLAGS_benchmark_out_format), auditor);
  }
  interrupted.results_reporter = file.get();
  session::BeginBenchmarks(
      [&interrupted](const std::string& reason) {
        return session::WriteInterruptedRun(interrupted, reason);
      },
      [&auditor] { return session::DescribeRunning(auditor); });
  BenchmarkRun run;
  // The library allows exactly one call per process; it closes the file.
  run.matched = benchmark::RunSpecifiedBenchmarks(&display, file.get());
  session::EndBenchmarks();
  benchmark::Shutdown();
  if (file != nullptr) {
    uint64_t bytes = 0;
    run.results_file = file->OutputStatus(&bytes);
    if (run.results_file.ok() && !results->writes_through()) {
      run.results_file = CheckFileSize(results->temp_path(), bytes);
    }
  }
  return run;
}

// An empty shard's run: the result file gets the context and no benchmarks,
// as the library would write it, and no benchmark runs.
BenchmarkRun WriteEmptyShard(session::RunAuditor& auditor,
                             const std::optional<AtomicFile>& results) {
  BenchmarkRun run;
  if (results) {
    session::HarnessReporter file(session::MakeFileReporter(benchmark::FLAGS_benchmark_out_format),
                                  auditor);
    size_t runs = 0;
    run.results_file = file.WriteCompletedRuns(benchmark::FLAGS_benchmark_out_format,
                                               results->temp_path(), "", &runs);
  }
  benchmark::Shutdown();
  return run;
}

// The shard the command line asks for, else the one Bazel's variables ask
// for (then said on stderr, and Bazel's status file touched).
Status ResolveShard(const std::string& program, cli::HarnessOptions& options) {
  StatusOr<std::optional<cli::EnvironmentShard>> from_environment = cli::ShardFromEnvironment();
  if (!from_environment.ok()) return from_environment.status();
  if (!from_environment->has_value()) return Status();
  const cli::EnvironmentShard& found = **from_environment;
  if (!found.status_file.empty()) {
    if (Status touched = cli::TouchShardStatusFile(found.status_file); !touched.ok()) {
      return touched;
    }
  }
  if (options.shard) return Status();
  options.shard = found.shard;
  std::fprintf(stderr, "%s: running shard %s (TEST_SHARD_INDEX and TEST_TOTAL_SHARDS)\n",
               program.c_str(), found.shard.Name().c_str());
  return Status();
}

// Everything after the command line: outputs, self-test, the run, the files.
int Run(const std::string& program, const Request& request) {
  // Crash and --timeout reports show stacks whatever was asked for; without
  // the unwinder they show the interrupted instruction, and the profilers
  // that need it refuse to start with this same message.
  (void)collect::LoadStackUnwinder().ok();
  if (Status watching = session::WatchForInterruption(program, request.options.timeout_ns,
                                                      request.options.timeout);
      !watching.ok()) {
    return Fail(program, watching.message() + "; no output file written", kExitHarnessFailure);
  }
  const session::LibraryExitGuard library_exit(program, kExitHarnessFailure);
  // Read before the outputs take file descriptors; a fact the library could
  // not read fails the run, as an unreadable cache size does.
  if (!benchmark::FLAGS_benchmark_list_tests) {
    if (Status facts = cli::CheckMachineFacts(); !facts.ok()) {
      return Fail(program, facts.message() + "; no output file written", kExitHarnessFailure);
    }
  }
  StatusOr<Outputs> outputs = OpenOutputs(request);
  if (!outputs.ok()) return Fail(program, outputs.status().message(), kExitUsage);
  if (outputs->results) benchmark::FLAGS_benchmark_out = outputs->results->temp_path();
  if (Status tested = SelfTest(request); !tested.ok()) {
    return Fail(program, tested.message(), kExitHarnessFailure);
  }
  WarnOfDisturbances(program, request);

  bool empty_shard = false;
  if (const std::optional<cli::Shard>& shard = request.options.shard) {
    StatusOr<session::ShardPlan> plan = session::PlanShard(*shard);
    if (!plan.ok()) return Fail(program, plan.status().message(), kExitUsage);
    // A filter that selects nothing at all is left for the library to say.
    if (!plan->filter.empty()) benchmark::SetBenchmarkFilter(plan->filter);
    empty_shard = plan->empty();
    if (empty_shard) {
      std::fprintf(stderr,
                   "%s: shard %s is empty (the filter selects %zu benchmarks for %zu shards)%s\n",
                   program.c_str(), shard->Name().c_str(), plan->selected, shard->total,
                   benchmark::FLAGS_benchmark_list_tests || !outputs->results
                       ? ""
                       : "; the result file holds none");
      if (benchmark::FLAGS_benchmark_list_tests) return kExitOk;
    }
    benchmark::AddCustomContext("benchprof_shard", shard->Name());
  }

  // Listing benchmarks runs none: nothing to profile.
  const bool profiling = !request.kinds.empty() && !benchmark::FLAGS_benchmark_list_tests;
  session::TimedLoopSettings loop;
  loop.publish_alloc_counters = request.options.benchmem;
  if (profiling) {
    loop.label_profile_segments = true;
    loop.listeners = request.kinds;
  }
  if (!session::ConfigureTimedLoop(loop)) {
    return Fail(program, "too many profile kinds requested at once", kExitUsage);
  }
  benchmark::AddCustomContext("benchprof_version", BENCHPROF_VERSION);
  // 1.9 writes "library_version" itself; 1.7 and 1.8 do not.
  benchmark::AddCustomContext("google_benchmark_version", kBenchmarkVersion);
  benchmark::AddCustomContext("benchprof_benchmem", request.options.benchmem ? "true" : "false");

  session::RunAuditor auditor(/*requires_interception=*/request.NeedsInterception(),
                              /*expect_alloc_counters=*/request.options.benchmem);
  aggregate::RunLabels run_labels;
  auditor.SetSegmentListener([&](uint32_t segment, const aggregate::RunLabel& label) {
    run_labels.NoteReportedRun(segment, label);
    for (Profile* kind : request.kinds) kind->OnReportedRun(segment, label);
  });
  if (profiling) {
    collect::KeepLibrariesLoaded();  // samples in a dlclose()d library stay nameable
    if (Status started = StartProfiles(request, *outputs, program); !started.ok()) {
      return Fail(program, started.message(), kExitHarnessFailure);
    }
  }
  session::InterruptedRun interrupted;
  interrupted.program = program;
  if (profiling) interrupted.kinds = request.kinds;
  interrupted.labels = &run_labels;
  interrupted.auditor = &auditor;
  interrupted.results = outputs->results ? &*outputs->results : nullptr;
  interrupted.results_format = benchmark::FLAGS_benchmark_out_format;
  const BenchmarkRun run = empty_shard ? WriteEmptyShard(auditor, outputs->results)
                                       : RunBenchmarks(auditor, outputs->results, interrupted);
  // The library has said which filter matched nothing.
  if (run.matched == 0 && !empty_shard) return kExitNoBenchmarkMatched;
  session::WrittenOutputs written;
  if (profiling) written = session::FinishKinds(program, request.kinds, run_labels, {});
  if (const uint64_t lost = collect::UncountedAllocations(); lost > 0 && request.options.benchmem) {
    std::fprintf(stderr,
                 "%s: warning: %llu allocations could not be counted (no memory for counter "
                 "slots); allocs/op and B/op are too low\n",
                 program.c_str(), static_cast<unsigned long long>(lost));
  }
  bool results_written = true;
  if (outputs->results && !benchmark::FLAGS_benchmark_list_tests) {
    if (run.results_file.ok()) {
      written.files.insert(written.files.begin(), {&*outputs->results, "--benchmark_out", ""});
    } else {
      // The temporary file goes; the previous result file stays.
      const bool kept = !outputs->results->writes_through();
      Fail(program,
           "--benchmark_out: " + outputs->results->path() + ": " + run.results_file.message() +
               (kept ? "; the file is unchanged" : ""),
           kExitHarnessFailure);
      results_written = false;
    }
  }
  const bool committed = session::CommitOutputs(program, written.files);
  if (!results_written || !written.all_written || !committed) return kExitHarnessFailure;
  return auditor.any_error() ? kExitBenchmarkError : kExitOk;
}

}  // namespace

int Main(int argc, char** argv) {
  const std::string program = ProgramName(argc > 0 ? argv[0] : nullptr);

  Request request;
  const std::vector<std::unique_ptr<Profile>> kinds = profiles::MakeProfiles();
  FlagSet flags(program);
  cli::DeclareHarnessFlags(flags, request.options);
  for (const auto& kind : kinds) kind->DeclareFlags(flags);

  std::vector<std::string> args = NormalizeArguments(argc, argv, flags);
  for (const std::string& arg : args) {
    if (IsHelpFlag(arg)) {
      cli::PrintHelp(flags);
      return kExitOk;
    }
    if (arg == "--version" || arg == "-version") {
      cli::PrintVersion();
      return kExitOk;
    }
  }
  if (kBenchmarkVersionUntested) {
    std::fprintf(stderr,
                 "%s: warning: built against Google Benchmark %s, newer than %s, the newest "
                 "benchprof is tested with\n",
                 program.c_str(), kBenchmarkVersion, kNewestTestedBenchmarkVersion);
  }
  for (const std::string& arg : args) {
    if (!cli::IsBenchmarkFlag(arg)) continue;
    if (Status valid = cli::ValidateBenchmarkFlag(arg); !valid.ok()) {
      return Fail(program, valid.message(), kExitUsage);
    }
  }
  if (Status valid = cli::ValidateBenchmarkEnvironment(); !valid.ok()) {
    return Fail(program, valid.message(), kExitUsage);
  }

  std::vector<char*> library_argv = {argc > 0 ? argv[0] : nullptr};
  for (std::string& arg : args) {
    if (cli::IsBenchmarkFlag(arg)) arg = cli::ForLibrary(arg);
    library_argv.push_back(arg.data());
  }
  library_argv.push_back(nullptr);
  int library_argc = static_cast<int>(library_argv.size()) - 1;
  // The library prints its help only for flags benchprof has already
  // refused; this keeps the full help in that case too.
  static const FlagSet* help_flags;
  help_flags = &flags;
  benchmark::Initialize(&library_argc, library_argv.data(), [] { cli::PrintHelp(*help_flags); });

  const std::vector<std::string> rest(library_argv.begin() + 1,
                                      library_argv.begin() + library_argc);
  if (Status parsed = cli::ParseHarnessFlags(flags, rest); !parsed.ok()) {
    return Fail(program, parsed.message(), kExitUsage);
  }
  if (Status sharded = ResolveShard(program, request.options); !sharded.ok()) {
    return Fail(program, sharded.message(), kExitUsage);
  }
  std::vector<Profile*> requested;
  for (const auto& kind : kinds) {
    if (kind->requested()) requested.push_back(kind.get());
  }
  request.kinds = profiles::InStartOrder(std::move(requested));
  if (Status alone = CheckRunsAlone(request); !alone.ok()) {
    return Fail(program, alone.message(), kExitUsage);
  }
  if (!benchmark::FLAGS_benchmark_list_tests) {
    for (Profile* kind : request.kinds) {
      if (std::optional<int> code = kind->RunElsewhere(argc, argv, {program})) return *code;
    }
  }
  return Run(program, request);
}

}  // namespace benchprof

// Weak, so that a program with its own main() can link benchprof::main and
// call benchprof::Main() itself.
__attribute__((weak)) int main(int argc, char** argv) { return benchprof::Main(argc, argv); }
