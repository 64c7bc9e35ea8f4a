// Running one of the two benchmark binaries a gate compares: one process
// per run, its results as Google Benchmark JSON in the gate's work
// directory, its output in a log beside them. A run that does not end well
// is one line naming the side, the binary, the run and what went wrong,
// with the benchmark it was running when the binary says (a crash or a
// --timeout report names it, a failed benchmark prints ERROR OCCURRED).
//
//   SideRunner runner(work_dir, {"--benchmark_filter=Alg", "--benchmem"}, timeout_ns);
//   StatusOr<std::string> json = runner.Run(base, "round-1", {});
//
// Thread-safety: thread-compatible; runs start children from the calling
// thread, which must outlive them (common/child_process.h).
#ifndef BENCHPROF_TOOLS_GATE_SIDE_RUNNER_H_
#define BENCHPROF_TOOLS_GATE_SIDE_RUNNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace benchprof::gate {

// One side of the gate.
struct Side {
  std::string name;    // "base" or "head"
  std::string binary;  // the benchmark binary's path
  // Linked with benchprof::main (it has --timeout, the profiles and
  // --instructions), not only with Google Benchmark.
  bool benchprof = true;
};

class SideRunner {
 public:
  // `work_dir`: an existing directory for results, profiles and logs.
  // `bench_args`: the user's flags for every run. `timeout_ns`: each run's
  // limit (0: none), passed to a benchprof binary as --timeout so that it
  // prints every thread's stack, and enforced with SIGKILL a minute later
  // (at once for a plain Google Benchmark binary).
  SideRunner(std::string work_dir, std::vector<std::string> bench_args, int64_t timeout_ns);

  // Runs `side` once: --benchmark_repetitions=1, the user's flags, then
  // `extra` (so they win), then --benchmark_out to `<work_dir>/<side>-<tag>.json`.
  // Returns that file's path, or one line saying why the run failed.
  StatusOr<std::string> Run(const Side& side, const std::string& tag,
                            const std::vector<std::string>& extra) const;

  // Whether `binary` is linked with benchprof::main: it answers --version
  // with "benchprof ..." (a plain Google Benchmark binary refuses the flag).
  // Fails only if it cannot be run at all.
  StatusOr<bool> LinksBenchprof(const std::string& name, const std::string& binary) const;

  // The wall time the runs have taken so far, in seconds: what the gate
  // spent waiting for the binaries, as opposed to its own work.
  double RunSeconds() const { return run_seconds_; }

  // `<work_dir>/<side>-<tag><suffix>`: where a run's other files go.
  std::string PathFor(const Side& side, const std::string& tag, const std::string& suffix) const;

 private:
  std::string work_dir_;
  std::vector<std::string> bench_args_;
  int64_t timeout_ns_;
  mutable double run_seconds_ = 0;
};

// The flags of a benchmark binary that the gate sets itself, and refuses
// among the user's: "" or the first one found, as the user spelled it.
std::string ReservedBenchFlag(const std::vector<std::string>& bench_args);

// A --benchmark_filter value that matches exactly `name` (a run name such
// as "BM_Foo<int>/8/threads:2"): anchored, regex metacharacters escaped.
std::string ExactFilter(const std::string& name);

}  // namespace benchprof::gate

#endif  // BENCHPROF_TOOLS_GATE_SIDE_RUNNER_H_
