// Profile: one kind of profile (CPU, heap, trace, ...) as one object behind
// one interface, as Go's runtime/pprof keeps its profiles. The session
// (session/main.cc) knows no kind by name: it asks the registry
// (profile_registry.h) for every kind, lets each declare its flags, and
// drives the kinds that were requested through the calls below, in this
// order:
//
//   DeclareFlags(flags)            every kind, before the command line is parsed
//   requested()                    the kind's flag was given (output_path() non-empty)
//   traits()                       what it needs, when it starts, its thread hooks
//   RunElsewhere(argv, session)    a kind that measures from under another program
//                                  (Valgrind) runs the whole command there instead
//   Start(output, session)         before the first benchmark (StartWithoutFile for a
//                                  kind that writes no file)
//   OnLoop*(state, ...)            on benchmark threads, as timed loops run
//   OnReportedRun(segment, label)  as runs are reported (main thread)
//   Finish(labels, ending)         after the last benchmark, or on an
//                                  interruption: write the file
//
// A kind writes one file. The session opens it (a temporary file beside the
// destination, so an unwritable path is a usage error before anything runs)
// and hands it to Start(); Finish() fills it, and the session moves every
// output into place together (WrittenFile), so that an interruption leaves
// all of them new or all of them old.
//
// Finish() may run on another thread than Start() (the interruption watcher's,
// session/interruption.h) while benchmark threads still run: the session
// first stops the loop events (no OnLoop* call is in progress or follows)
// and the reported runs (no OnReportedRun either), but the benchmark code
// keeps running, so a kind's collector must tolerate stopping while its
// threads still run (they do: CPU timers are deleted, the heap and contention
// samplers stop taking samples, the trace's write path stops without locks).
//
// Adding a kind: its own files in profiles/ (the kind) and in collect/,
// aggregate/ or encode/ as it needs, one line in profile_registry.cc, one
// CMake line, its tests.
//
// Thread-safety: Start, OnReportedRun and Finish run on the main thread. The
// OnLoop* calls run on benchmark threads, concurrently; a kind that acts on
// them must be thread-safe there (and cheap: they run at every loop start,
// finish, pause and resume).
#ifndef BENCHPROF_PROFILES_PROFILE_H_
#define BENCHPROF_PROFILES_PROFILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "aggregate/run_labels.h"
#include "aggregate/symbolizer.h"
#include "benchprof/flags.h"
#include "collect/thread_hooks.h"
#include "common/atomic_file.h"
#include "common/status.h"

namespace benchmark {
class State;
}

namespace benchprof::profiles {

// When a kind starts, relative to the others. The session starts kinds by
// stage, then in registry order.
enum class StartStage : int {
  // Kinds whose own threads must exist before any sampler starts: the
  // samplers then see those threads among the ones already running.
  kFirst = 0,
  kSampler = 1,
};

struct ProfileTraits {
  // What the kind writes, for messages ("CPU profile").
  std::string_view name;
  // The flag (without dashes) whose FILE requests the kind and names its
  // output: "cpuprofile".
  std::string_view output_flag;
  // It reads timed loops, so the --wrap interception must be linked.
  bool needs_timed_loops = true;
  // It sees allocations, so the allocator hooks must be in the build.
  bool needs_allocation_hooks = false;
  StartStage stage = StartStage::kSampler;
  // Its hooks for threads started while it runs; null for none.
  const collect::ThreadListener* thread_listener = nullptr;
  // It writes one file, named by its output flag. A kind that does not
  // (instructions: a counter) is requested by a switch and starts with
  // StartWithoutFile().
  bool writes_file = true;
  // It cannot run with any other kind (the session refuses the pair).
  bool runs_alone = false;
  // Another kind (its output flag) whose figures this one disturbs when
  // both run, and how; the session warns. Empty: none.
  std::string_view disturbs;
  std::string_view disturbance;
};

// How the run ended, for what a kind writes into its file.
struct RunEnding {
  // Empty: the benchmarks completed. Otherwise why they were cut short
  // ("SIGINT", "--timeout=10m"): the file then holds what was collected up
  // to then, says so (a pprof comment, the trace's metadata), and the run
  // that was in progress is incomplete in it.
  std::string interrupted_by;
};

// What Finish() wrote: the file, still at its temporary path (the session
// commits it with the others), and the line to print once it is in place
// ("cpu profile: cpu.pprof (1234 samples, 0 lost)").
struct WrittenFile {
  AtomicFile* file = nullptr;
  std::string flag;  // "--cpuprofile", for errors
  std::string summary;
};

// What the session tells a kind when it starts.
struct SessionInfo {
  std::string program;  // the executable's name, e.g. "bench"
};

class Profile {
 public:
  virtual ~Profile() = default;

  // The kind's fixed description.
  virtual const ProfileTraits& traits() const = 0;

  // Declares the kind's flags on `flags`: its output flag
  // (traits().output_flag, a FILE) and its settings (rates and the like),
  // bound to members of this object.
  virtual void DeclareFlags(FlagSet& flags) = 0;

  // The path given with the output flag; empty when the kind was not
  // requested.
  virtual const std::string& output_path() const = 0;

  // Whether the kind's flag was given.
  virtual bool requested() const { return !output_path().empty(); }

  // Called once the command line is valid, before any output is opened. A
  // kind that must run the benchmarks inside another program (bench under
  // Valgrind) runs this program's command line (`argc`, `argv`, as main()
  // got them) there and returns the exit code to end with; nullopt (the
  // default, and the answer inside that program) means: run here.
  virtual std::optional<int> RunElsewhere(int /*argc*/, char** /*argv*/,
                                          const SessionInfo& /*session*/) {
    return std::nullopt;
  }

  // Starts collecting. `output` is the opened output file; it receives the
  // profile when Finish() succeeds. The error names the flag.
  virtual Status Start(AtomicFile output, const SessionInfo& session) = 0;

  // Starts a kind that writes no file (traits().writes_file false).
  virtual Status StartWithoutFile(const SessionInfo& /*session*/) {
    return Status::Error("this profile kind needs an output file");
  }

  // A benchmark thread's timed loop is about to start (before the library's
  // start barrier). `segment` is the run's new profile segment on thread 0,
  // 0 on other threads.
  virtual void OnLoopStarting(benchmark::State& /*state*/, uint32_t /*segment*/) {}
  // The loop's timer runs (after the barrier).
  virtual void OnLoopStarted(benchmark::State& /*state*/) {}
  // The loop is about to stop its timer.
  virtual void OnLoopFinishing(benchmark::State& /*state*/) {}
  // The loop has finished (after the library's finish barrier).
  virtual void OnLoopFinished(benchmark::State& /*state*/) {}
  // PauseTiming() is about to pause the timer; ResumeTiming() resumed it.
  virtual void OnPausing(benchmark::State& /*state*/) {}
  virtual void OnResumed(benchmark::State& /*state*/) {}

  // The loop announced to OnLoopStarting with `segment` is not a run but a
  // user's manager's extra pass (session/manager_passes.h): forget it. No
  // other event follows for that loop.
  virtual void OnLoopWithdrawn(uint32_t /*segment*/) {}

  // The reported run whose last segment is `segment` is `label`.
  virtual void OnReportedRun(uint32_t /*segment*/, const aggregate::RunLabel& /*label*/) {}

  // Stops collecting and writes the output file at its temporary path;
  // does not move it into place (the session commits every output
  // together). `labels` names the segments' runs; `ending` says whether the
  // run was interrupted; `symbolizer` is the one all kinds of the run share
  // (each object's debug information is loaded once, not once per kind).
  // The error names the flag and the file.
  virtual StatusOr<WrittenFile> Finish(const aggregate::RunLabels& labels,
                                       const RunEnding& ending,
                                       aggregate::Symbolizer& symbolizer) = 0;
};

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_PROFILE_H_
