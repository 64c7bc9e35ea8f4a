#include "profiles/instructions_profile.h"

#include <benchmark/benchmark.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "profiles/callgrind_dump.h"
#include "profiles/callgrind_requests.h"
#include "profiles/valgrind_launch.h"

namespace benchprof::profiles {
namespace {

void Collect(bool on);

// A thread's collection switch outlives it: Valgrind gives a new thread the
// state its slot's previous thread left. Every thread that turned its own
// off (benchmark threads) turns it back on as it ends, so each new thread
// starts collecting, as --collect-atstart=yes says.
bool HookEveryThread() { return true; }
void CollectAgainAtExit() { Collect(true); }
constexpr collect::ThreadListener kThreadListener{&HookEveryThread, nullptr, &CollectAgainAtExit};

constexpr ProfileTraits kTraits{
    .name = "instruction counts",
    .output_flag = "instructions",
    .needs_timed_loops = true,
    .needs_allocation_hooks = false,
    .stage = StartStage::kSampler,
    .thread_listener = &kThreadListener,
    .writes_file = false,
    // Under Valgrind, times are 20-100x too long and signals come late: a CPU
    // profile, a trace or waiting times would be wrong, not slow.
    .runs_alone = true,
    .disturbs = "",
    .disturbance = "",
};

// Callgrind's collection is a switch per thread, on from each thread's start
// (--collect-atstart=yes). The main thread turns its own off before the
// first benchmark; each benchmark thread turns its own on only inside its
// unpaused timed loop. Every other thread (a pool the benchmark hands work
// to, a thread it starts in the loop) is always on, and the window from
// thread 0's reset before the start barrier to its dump after the finish
// barrier decides what counts. (Valgrind 3.19's instrumentation switch,
// CALLGRIND_START/STOP_INSTRUMENTATION, would be one switch for all threads,
// but counts nothing after its first off-on cycle.)
thread_local bool t_collecting = true;

void Collect(bool on) {
  if (t_collecting == on) return;
  t_collecting = on;
  CALLGRIND_TOGGLE_COLLECT;
}

Status CheckDirectory(const std::string& dir) {
  struct stat info;
  if (stat(dir.c_str(), &info) != 0) {
    if (errno != ENOENT || mkdir(dir.c_str(), 0777) != 0) {
      return Status::Error("--callgrind_out: " + dir + ": " + std::strerror(errno));
    }
    return Status();
  }
  if (!S_ISDIR(info.st_mode)) return Status::Error("--callgrind_out: " + dir + ": not a directory");
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    return Status::Error("--callgrind_out: " + dir + ": " + std::strerror(errno));
  }
  return Status();
}

// Writes the dump `from` to `to` (through an AtomicFile) without its
// uncounted call arcs (callgrind_dump.h), with the run's iterations (of all
// threads) as a "desc: Iterations:" line, so that a reader can put its
// costs per iteration.
Status KeepDump(const std::string& from, const std::string& to, uint64_t iterations) {
  std::string text;
  {
    std::unique_ptr<FILE, int (*)(FILE*)> in(std::fopen(from.c_str(), "rb"), &std::fclose);
    if (in == nullptr) return Status::Error(from + ": " + std::strerror(errno));
    char buffer[1 << 16];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), in.get())) > 0) text.append(buffer, n);
    if (std::ferror(in.get())) return Status::Error(from + ": " + std::strerror(errno));
  }
  text = WithoutUncountedCalls(text);
  if (const size_t trigger = text.find("\ndesc: Trigger:"); trigger != std::string::npos) {
    const size_t end = text.find('\n', trigger + 1);
    if (end != std::string::npos) {
      text.insert(end + 1, "desc: Iterations: " + std::to_string(iterations) + "\n");
    }
  }
  StatusOr<AtomicFile> out = AtomicFile::Create(to);
  if (!out.ok()) return out.status();
  return out->WriteAndCommit(text);
}

class InstructionsProfile final : public Profile {
 public:
  const ProfileTraits& traits() const override { return kTraits; }

  void DeclareFlags(FlagSet& flags) override {
    flags.Bool("instructions", &on_,
               "report instructions/op: instructions executed per iteration in timed loops "
               "(any thread, paused time excluded), counted by running the benchmarks under "
               "Valgrind's callgrind; times are then not comparable");
    flags.String("callgrind_out", "DIR", &keep_dir_,
                 "with --instructions, keep each reported run's callgrind file as "
                 "DIR/callgrind.out.NAME, for callgrind_annotate and KCachegrind");
  }

  const std::string& output_path() const override { return no_file_; }
  // --callgrind_out alone is requested too, to be refused in RunElsewhere.
  bool requested() const override { return on_ || !keep_dir_.empty(); }

  std::optional<int> RunElsewhere(int argc, char** argv, const SessionInfo& session) override {
    if (!on_) {
      std::fprintf(stderr, "%s: --callgrind_out needs --instructions\n", session.program.c_str());
      return 2;
    }
    if (!keep_dir_.empty()) {
      if (Status usable = CheckDirectory(keep_dir_); !usable.ok()) {
        std::fprintf(stderr, "%s: %s\n", session.program.c_str(), usable.message().c_str());
        return 2;
      }
    }
    if (!OnValgrind()) return RunUnderCallgrind(argc, argv, session.program);
    // Inside: tell the parent that Valgrind ran us.
    if (const char* dir = std::getenv(kCallgrindDirEnv); dir != nullptr && *dir != '\0') {
      const std::string marker = std::string(dir) + "/" + kStartedMarker;
      const int fd = open(marker.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
      if (fd >= 0) close(fd);
    }
    return std::nullopt;
  }

  Status Start(AtomicFile, const SessionInfo&) override {
    return Status::Error("--instructions writes no file");
  }

  Status StartWithoutFile(const SessionInfo& session) override {
    const char* dir = std::getenv(kCallgrindDirEnv);
    if (!OnValgrind() || dir == nullptr || *dir == '\0') {
      return Status::Error(
          "--instructions: this process runs under Valgrind, but was not started by bench "
          "--instructions, so its callgrind files cannot be found; run bench --instructions "
          "without valgrind: it starts Valgrind itself");
    }
    dump_dir_ = dir;
    program_ = session.program;
    Collect(false);  // the main thread counts only as a benchmark's thread 0
    benchmark::AddCustomContext("benchprof_instructions", "callgrind");
    benchmark::AddCustomContext(
        "benchprof_timings",
        "not comparable: measured under Valgrind's callgrind (--instructions)");
    std::fprintf(stderr,
                 "%s: --instructions: running under Valgrind's callgrind; times are many times "
                 "too long and not comparable with other runs\n",
                 program_.c_str());
    return Status();
  }

  void OnLoopStarting(benchmark::State& state, uint32_t segment) override {
    Collect(false);
    if (state.thread_index() != 0) return;
    segment_ = segment;
    // Before the start barrier: no benchmark thread of this run times yet.
    CALLGRIND_ZERO_STATS;
  }
  void OnLoopStarted(benchmark::State&) override { Collect(true); }
  void OnLoopFinishing(benchmark::State&) override { Collect(false); }
  void OnPausing(benchmark::State&) override { Collect(false); }
  void OnResumed(benchmark::State&) override { Collect(true); }

  void OnLoopFinished(benchmark::State& state) override {
    if (state.thread_index() != 0) {
      // Every thread's State gets the counter; the library sums them.
      state.counters[kInstructionsPerOpCounter] =
          benchmark::Counter(0, benchmark::Counter::kAvgIterations);
      return;
    }
    // After the finish barrier: no thread counts. Callgrind writes the file
    // before the request returns.
    const std::string label = "benchprof run " + std::to_string(++dumps_);
    CALLGRIND_DUMP_STATS_AT(label.c_str());
    const std::string path =
        dump_dir_ + "/callgrind.out." + std::to_string(getpid()) + "." + std::to_string(dumps_);
    StatusOr<CallgrindDump> dump = ReadCallgrindDump(path);
    std::string problem;
    if (!dump.ok()) {
      problem = dump.status().message();
    } else if (dump->trigger != "Client Request: " + label) {
      problem = path + ": not the dump of " + label + " (" + dump->trigger + ")";
    }
    if (!problem.empty()) {
      unlink(path.c_str());
      state.SkipWithError(("benchprof: --instructions: " + problem).c_str());
      return;
    }
    state.counters[kInstructionsPerOpCounter] = benchmark::Counter(
        static_cast<double>(dump->instructions), benchmark::Counter::kAvgIterations);
    if (keep_dir_.empty() || segment_ == 0) {
      unlink(path.c_str());
    } else {
      std::lock_guard lock(pending_mutex_);
      pending_[segment_] = {
          path, static_cast<uint64_t>(state.iterations()) * static_cast<uint64_t>(state.threads())};
    }
  }

  void OnLoopWithdrawn(uint32_t segment) override {
    std::lock_guard lock(pending_mutex_);
    if (auto it = pending_.find(segment); it != pending_.end()) {
      unlink(it->second.path.c_str());
      pending_.erase(it);
    }
  }

  void OnReportedRun(uint32_t segment, const aggregate::RunLabel& label) override {
    std::lock_guard lock(pending_mutex_);
    // Dumps of earlier segments not reported by now were probe runs.
    for (auto it = pending_.begin(); it != pending_.end() && it->first <= segment;) {
      if (it->first == segment) Keep(it->second, label.benchmark);
      unlink(it->second.path.c_str());
      it = pending_.erase(it);
    }
  }

  // Writes no file of its own: the kept dumps are Valgrind's.
  StatusOr<WrittenFile> Finish(const aggregate::RunLabels&, const RunEnding&,
                               aggregate::Symbolizer&) override {
    {
      std::lock_guard lock(pending_mutex_);
      for (const auto& [segment, dump] : pending_) unlink(dump.path.c_str());
      pending_.clear();
    }
    if (!keep_dir_.empty()) {
      std::fprintf(stderr, "callgrind files: %s (%zu files)\n", keep_dir_.c_str(), kept_.size());
    }
    if (!keep_failure_.empty()) return Status::Error(keep_failure_);
    return WrittenFile{};
  }

 private:
  struct PendingDump {
    std::string path;
    uint64_t iterations = 0;  // of all threads
  };

  void Keep(const PendingDump& dump, const std::string& run_name) {
    std::string name = CallgrindFileName(run_name);
    for (int n = 2; !kept_.insert(name).second; ++n) {
      name = CallgrindFileName(run_name) + "." + std::to_string(n);
    }
    if (Status copied = KeepDump(dump.path, keep_dir_ + "/" + name, dump.iterations);
        !copied.ok()) {
      if (keep_failure_.empty()) keep_failure_ = "--callgrind_out: " + copied.message();
    }
  }

  bool on_ = false;
  std::string keep_dir_;
  std::string no_file_;
  std::string dump_dir_;
  std::string program_;
  // Thread 0 of each run (the main thread) only.
  uint32_t segment_ = 0;
  uint64_t dumps_ = 0;
  std::mutex pending_mutex_;
  std::map<uint32_t, PendingDump> pending_;  // segment -> dump not yet reported
  std::set<std::string> kept_;
  std::string keep_failure_;
};

}  // namespace

std::string CallgrindFileName(std::string_view run_name) {
  std::string name = "callgrind.out.";
  for (char c : run_name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == ':' || c == '=' || c == '-';
    name += c == '/' ? '.' : plain ? c : '_';
  }
  return name;
}

std::unique_ptr<Profile> MakeInstructionsProfile() {
  return std::make_unique<InstructionsProfile>();
}

}  // namespace benchprof::profiles
