#include "tools/gate/gate_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <tuple>
#include <utility>

#include "benchprof/files.h"
#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "common/go_duration.h"
#include "tools/compare/comparison.h"
#include "tools/compare/html_output.h"
#include "tools/compare/judging_flags.h"
#include "tools/compare/table_writer.h"
#include "tools/gate/explaining_runs.h"
#include "tools/gate/explanation.h"
#include "tools/gate/side_runner.h"
#include "tools/results/result_reader.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::gate {
namespace {

using compare::Comparison;
using compare::Outcome;
using compare::Row;
using tools::kExitBadInput;
using tools::kExitInconclusive;
using tools::kExitOk;
using tools::kExitRegression;

constexpr std::string_view kProgram = "benchprof gate";

constexpr std::string_view kIntro =
    R"(Usage: benchprof gate [flags] --base=BINARY --head=BINARY [-- BENCHMARK FLAGS...]

Gates a change on performance: runs two built benchmark binaries (the base,
old, and the head, new; linked with benchprof::main, or plain Google Benchmark
binaries, whose regressions are judged but not explained) and judges
them as `benchprof compare` does (same rules, thresholds, Holm correction and
exit codes), then explains every regression by the metric that regressed.
Flags after -- go to every run of both binaries (e.g. --benchmark_filter=Alg
--benchmem). The benchmark output files (--benchmark_out, --callgrind_out),
--instructions and --timeout are the gate's own flags, not theirs.

Time: --rounds rounds, each running both binaries once (one repetition each),
alternating which goes first (base head, head base, ...), so drift of the
machine hits both sides alike; the rounds are the samples. With --benchmem,
allocs/op and B/op are gated exactly.

--instructions: one run per side under Valgrind's callgrind (bench
--instructions --benchmem), gated on instructions/op, allocs/op and B/op
only: deterministic, so one run is enough and --rounds is ignored.

Each regression is explained from profiles benchprof reads itself (no Go
toolchain, no pprof):
  allocs/op, B/op   heap profiles of both sides at rate 1: the allocation
                    sites that are new or grew, each the first frame outside
                    the allocator and the standard library (function and
                    file:line of the program's code that allocates)
  instructions/op   the callgrind files: each function's own instructions
                    per iteration, base and head
  time              CPU profiles at 250 Hz, the head run longer by its
                    slowdown so that both sides do the same work, longer
                    again (up to --max-profile-time) until the change stands
                    out of sampling noise; only functions whose change is
                    significant are named, or it says "not enough samples
                    to explain"
Each cause is ranked by its share of the regression. --html writes the
comparison with the differential flame graph of each explained regression.

Progress goes to the error stream as the runs happen. A binary that fails,
crashes or outlives --timeout ends the gate with one line naming the side
and what it was running (exit 3); a benchmark present on one side only is
listed as missing. SIGINT, SIGTERM or SIGHUP stop the running binary (it
writes what it collected), remove every temporary file, and exit with 128 +
the signal's number.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "no regression"},
    {kExitRegression, "regression: a gated metric got significantly worse, beyond its threshold"},
    {kExitInconclusive, "inconclusive: too few samples for a gated metric, or no common benchmark"},
    {kExitBadInput,
     "bad input (a bad flag, a binary that is not executable) or a side that failed, crashed or "
     "hung"},
};

// Which explanations to give.
struct ExplainKinds {
  bool heap = true, cpu = true, instructions = true;
};

struct GateSettings {
  std::string base, head;
  int rounds = 10;
  bool instructions = false;
  ExplainKinds explain;
  std::string format = "text";
  std::string out, html, keep;
  int64_t timeout_ns = 30LL * 60 * 1'000'000'000;  // per run
  int64_t max_profile_ns = 10'000'000'000;
  std::vector<std::string> trim_paths;
  compare::CompareOptions options;
};

// A Go duration flag bound to `*target`; `positive`: zero is refused.
auto DurationFlag(int64_t* target, bool positive) {
  return [target, positive](std::string_view value) {
    const std::optional<int64_t> ns = ParseGoDuration(value);
    if (!ns || (positive && *ns == 0)) {
      return std::string(positive ? "expected a positive duration, as 90s, 10m or 1h30m"
                                  : "expected a duration, as 90s, 10m or 1h30m, or 0 for none");
    }
    *target = *ns;
    return std::string();
  };
}

void DeclareFlags(FlagSet& flags, GateSettings* s) {
  flags.File("base", &s->base, "the base (old) benchmark binary (required)");
  flags.File("head", &s->head, "the head (new) benchmark binary (required)");
  flags.Int("rounds", "N", 1, 10000, &s->rounds,
            "rounds, i.e. samples per benchmark and side (default 10; 4 at least for a verdict "
            "on time)");
  flags.Bool("instructions", &s->instructions,
             "one run per side under Valgrind's callgrind; gate on instructions/op, allocs/op "
             "and B/op only");
  flags.Custom(
      "explain", "LIST",
      [s](std::string_view value) {
        ExplainKinds kinds{false, false, false};
        if (value != "none") {
          while (!value.empty()) {
            const size_t comma = value.find(',');
            const std::string_view kind = value.substr(0, comma);
            if (kind == "heap") {
              kinds.heap = true;
            } else if (kind == "cpu") {
              kinds.cpu = true;
            } else if (kind == "instructions") {
              kinds.instructions = true;
            } else {
              return std::string(
                  "expected none, or a comma-separated list of heap, cpu and "
                  "instructions");
            }
            value = comma == std::string_view::npos ? "" : value.substr(comma + 1);
          }
        }
        s->explain = kinds;
        return std::string();
      },
      "which regressions to explain with extra profiled runs: heap (allocs/op, B/op), cpu "
      "(time), instructions (instructions/op, from the --instructions run); or none (default "
      "heap,cpu,instructions)");
  flags.Choice("format", {"text", "markdown"}, &s->format,
               "the report's format (default text; markdown for a pull-request comment)");
  flags.File("o", &s->out, "write the report to FILE (atomically) instead of standard output");
  flags.File("html", &s->html,
             "also write the comparison as a self-contained HTML page, with the differential "
             "flame graph of each explained regression");
  flags.Custom("timeout", "DURATION", DurationFlag(&s->timeout_ns, false),
               "each run's limit, as Go's -timeout (default 30m; 0 for none): past it the "
               "binary prints every thread's stack and the gate fails");
  flags.Custom("max-profile-time", "DURATION", DurationFlag(&s->max_profile_ns, true),
               "the longest a side is CPU-profiled to explain a time regression (default 10s)");
  flags.Custom(
      "trim-path", "PREFIX",
      [s](std::string_view value) {
        if (value.empty()) return std::string("expected a path prefix");
        s->trim_paths.emplace_back(value);
        return std::string();
      },
      "show source files without PREFIX (repeatable; e.g. the checkouts the binaries were built "
      "in)");
  flags.Custom(
      "keep", "DIR",
      [s](std::string_view value) {
        if (value.empty()) return std::string("expected a directory");
        s->keep = value;
        return std::string();
      },
      "keep the runs' results, profiles and logs in DIR (created; must not exist or be empty) "
      "instead of a temporary directory");
  compare::DeclareJudgingFlags(flags, &s->options);
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

void Progress(const std::string& line) {
  const std::string text = std::string(kProgram) + ": " + line + "\n";
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

// Checks that `path` (flag `flag`) is an executable regular file.
Status CheckBinary(const std::string& flag, const std::string& path) {
  if (path.empty()) return Status::Error(flag + " is required (see benchprof gate --help)");
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return Status::Error(flag + "=" + path + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode) || access(path.c_str(), X_OK) != 0) {
    return Status::Error(flag + "=" + path + ": not an executable file");
  }
  return Status();
}

// The directory the runs write into: --keep's, made here, or a temporary
// one removed at the end (and on interruption).
class WorkDirectory {
 public:
  static StatusOr<WorkDirectory> Make(const std::string& keep) {
    WorkDirectory dir;
    if (!keep.empty()) {
      std::error_code error;
      std::filesystem::create_directories(keep, error);
      if (error) return Status::Error("--keep=" + keep + ": " + error.message());
      if (!std::filesystem::is_empty(keep, error) || error) {
        return Status::Error("--keep=" + keep + ": not empty");
      }
      dir.path_ = keep;
      return dir;
    }
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern = std::string(tmpdir != nullptr && tmpdir[0] != '\0' ? tmpdir : "/tmp") +
                          "/benchprof-gate-XXXXXX";
    if (!CreateTemporaryDirectory(pattern)) {
      return Status::Error("cannot make a temporary directory " + pattern + ": " +
                           std::strerror(errno));
    }
    dir.path_ = pattern;
    dir.temporary_ = true;
    return dir;
  }
  WorkDirectory(WorkDirectory&& other) noexcept
      : path_(std::move(other.path_)), temporary_(std::exchange(other.temporary_, false)) {}
  WorkDirectory(const WorkDirectory&) = delete;
  WorkDirectory& operator=(const WorkDirectory&) = delete;
  ~WorkDirectory() {
    if (!temporary_) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    KeepOnInterruption(path_);
  }
  const std::string& path() const { return path_; }

 private:
  WorkDirectory() = default;
  std::string path_;
  bool temporary_ = false;
};

// The regressed benchmarks, each with its regressed metrics ("time" for
// the time metric) and its head/base time ratio, in row order.
struct Regressed {
  std::string benchmark;
  std::vector<std::string> metrics;
  double slowdown = 1;
};

std::vector<Regressed> RegressedBenchmarks(const Comparison& comparison) {
  std::vector<Regressed> regressed;
  std::map<std::string, size_t> index;
  std::map<std::string, double> slowdown;
  for (const Row& row : comparison.rows) {
    if (row.is_time_metric && row.base.median > 0 && row.head.median > 0) {
      slowdown[row.benchmark] = row.head.median / row.base.median;
    }
  }
  for (const Row& row : comparison.rows) {
    if (row.outcome != Outcome::kRegression) continue;
    auto [it, added] = index.try_emplace(row.benchmark, regressed.size());
    if (added) regressed.push_back({row.benchmark, {}, 1});
    regressed[it->second].metrics.push_back(row.is_time_metric ? "time" : row.metric);
  }
  for (Regressed& r : regressed) {
    if (const auto found = slowdown.find(r.benchmark); found != slowdown.end()) {
      r.slowdown = found->second;
    }
  }
  return regressed;
}

bool Has(const std::vector<std::string>& metrics, std::string_view metric) {
  return std::find(metrics.begin(), metrics.end(), metric) != metrics.end();
}

// The result files of both sides, and under --instructions the callgrind
// directories.
struct Measured {
  std::vector<std::string> base_files, head_files;
  std::string base_callgrind, head_callgrind;
};

// Runs both sides: interleaved rounds, or once each under callgrind.
StatusOr<Measured> Measure(const GateSettings& s, const SideRunner& runner, const Side& base,
                           const Side& head, const std::string& work) {
  Measured m;
  if (s.instructions) {
    m.base_callgrind = work + "/base-callgrind";
    m.head_callgrind = work + "/head-callgrind";
    for (const auto& [side, dir, files] : {std::tuple{&base, &m.base_callgrind, &m.base_files},
                                           std::tuple{&head, &m.head_callgrind, &m.head_files}}) {
      Progress("running " + side->name + " under callgrind (--instructions)");
      StatusOr<std::string> results = runner.Run(
          *side, "instructions", {"--instructions", "--benchmem", "--callgrind_out=" + *dir});
      if (!results.ok()) return results.status();
      files->push_back(*results);
    }
    return m;
  }
  if (s.rounds < compare::kMinSamplesPerSide) {
    Progress("warning: --rounds=" + std::to_string(s.rounds) + " gives fewer than " +
             std::to_string(compare::kMinSamplesPerSide) +
             " samples per side: time will be inconclusive");
  }
  for (int round = 1; round <= s.rounds; ++round) {
    const bool base_first = round % 2 == 1;
    Progress("round " + std::to_string(round) + " of " + std::to_string(s.rounds) + ": " +
             (base_first ? "base, head" : "head, base"));
    for (const Side* side : base_first ? std::array{&base, &head} : std::array{&head, &base}) {
      StatusOr<std::string> results = runner.Run(*side, "round-" + std::to_string(round), {});
      if (!results.ok()) return results.status();
      (side == &base ? m.base_files : m.head_files).push_back(*results);
    }
  }
  return m;
}

// The comparison of the runs, the runs' files named by their file names
// alone: they are the gate's own, in a directory that is gone when the
// report is read.
StatusOr<Comparison> Judge(const Measured& m, const compare::CompareOptions& options,
                           const std::string& work) {
  StatusOr<results::ResultSet> base = results::ReadResultFiles(m.base_files);
  if (!base.ok()) return base.status();
  StatusOr<results::ResultSet> head = results::ReadResultFiles(m.head_files);
  if (!head.ok()) return head.status();
  Comparison comparison = compare::Compare(*base, *head, options);
  const std::string work_prefix = work + "/";
  for (auto* names : {&comparison.base_files, &comparison.head_files, &comparison.warnings}) {
    for (std::string& name : *names) {
      for (size_t at; (at = name.find(work_prefix)) != std::string::npos;) {
        name.erase(at, work_prefix.size());
      }
    }
  }
  return comparison;
}

// Each regression explained by the metric that regressed, as --explain
// allows.
std::vector<Explanation> Explain(const Comparison& comparison, const GateSettings& s,
                                 const Measured& m, ExplainingRuns& explaining) {
  std::vector<Explanation> explanations;
  for (const Regressed& r : RegressedBenchmarks(comparison)) {
    std::vector<std::string> allocation_metrics;
    for (const char* metric : {"allocs/op", "B/op"}) {
      if (Has(r.metrics, metric)) allocation_metrics.emplace_back(metric);
    }
    if (!allocation_metrics.empty() && s.explain.heap) {
      for (Explanation& e : explaining.Allocations(r.benchmark, allocation_metrics)) {
        explanations.push_back(std::move(e));
      }
    }
    if (Has(r.metrics, results::kInstructionsMetric) && s.explain.instructions && s.instructions) {
      explanations.push_back(
          explaining.Instructions(r.benchmark, m.base_callgrind, m.head_callgrind));
    }
    if (Has(r.metrics, "time") && s.explain.cpu) {
      explanations.push_back(explaining.Time(r.benchmark, r.slowdown));
    }
  }
  return explanations;
}

// Source paths as the reader knows them: without the --trim-path prefixes.
void TrimPaths(std::vector<Explanation>& explanations, const std::vector<std::string>& prefixes) {
  for (Explanation& e : explanations) {
    for (Cause& cause : e.causes) {
      for (std::string prefix : prefixes) {
        if (!prefix.ends_with('/')) prefix += '/';
        if (cause.file.starts_with(prefix)) {
          cause.file.erase(0, prefix.size());
          break;
        }
      }
    }
  }
}

std::string RenderExplanations(const std::vector<Explanation>& explanations, bool markdown) {
  if (explanations.empty()) return "";
  std::string text = markdown ? "\n### Why\n\n" : "\nWhy (head minus base, per iteration):\n";
  for (const Explanation& e : explanations) {
    text += markdown ? RenderExplanationMarkdown(e) + "\n" : RenderExplanationText(e) + "\n";
  }
  return text;
}

compare::ProfilePair PairOf(const std::vector<ExplainingProfile>& profiles) {
  compare::ProfilePair pair;
  for (const ExplainingProfile& p : profiles) {
    pair.base.push_back({p.base_path, p.base});
    pair.head.push_back({p.head_path, p.head});
  }
  return pair;
}

// Writes `text` to `file`; a failure is one line, and the verdict is kept
// unless it was "no regression" (a failed write must hide no regression,
// nor pass for success).
int Commit(AtomicFile& file, const std::string& flag, const std::string& text,
           compare::Verdict verdict, std::string& err) {
  if (Status s = file.WriteAndCommit(text); !s.ok()) {
    const int bad_output = Fail(err, flag + ": " + s.message());
    return verdict == compare::Verdict::kNoRegression ? bad_output : static_cast<int>(verdict);
  }
  return static_cast<int>(verdict);
}

}  // namespace

std::string GateHelp() { return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes); }

int RunGateCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  const auto started = std::chrono::steady_clock::now();
  GateSettings s;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes, &s,
                                             &cl, out, err)) {
    return *done;
  }
  if (!cl.operands.empty()) {
    return Fail(err, "unexpected argument \"" + tools::OneLine(cl.operands[0]) +
                         "\": benchmark flags go after -- (see benchprof gate --help)");
  }
  for (const auto& [flag, path] : {std::pair{"--base", s.base}, std::pair{"--head", s.head}}) {
    if (Status ok = CheckBinary(flag, path); !ok.ok()) return Fail(err, ok.message());
  }
  const std::vector<std::string>& bench_args = cl.after_separator;
  if (const std::string reserved = ReservedBenchFlag(bench_args); !reserved.empty()) {
    return Fail(err, tools::OneLine(reserved) +
                         ": the gate sets this flag itself (see benchprof gate --help)");
  }
  // Outputs are checked before anything runs.
  std::vector<NamedPath> named;
  if (!s.out.empty()) named.push_back({"-o", s.out});
  if (!s.html.empty()) named.push_back({"--html", s.html});
  named.push_back({"--base", s.base});
  named.push_back({"--head", s.head});
  for (size_t i = 0; i + 2 < named.size(); ++i) {
    for (size_t j = i + 1; j < named.size(); ++j) {
      const NamedPath pair[] = {named[i], named[j]};
      if (Status distinct = CheckDistinctFiles(pair); !distinct.ok()) {
        return Fail(err, distinct.message());
      }
    }
  }
  std::optional<AtomicFile> report_file, html_file;
  for (auto [path, flag, slot] :
       {std::tuple{&s.out, "-o", &report_file}, std::tuple{&s.html, "--html", &html_file}}) {
    if (path->empty()) continue;
    StatusOr<AtomicFile> file = AtomicFile::Create(*path);
    if (!file.ok()) return Fail(err, std::string(flag) + ": " + file.status().message());
    slot->emplace(std::move(*file));
  }
  StatusOr<WorkDirectory> work = WorkDirectory::Make(s.keep);
  if (!work.ok()) return Fail(err, work.status().message());

  const SideRunner runner(work->path(), bench_args, s.timeout_ns);
  Side base{"base", s.base}, head{"head", s.head};
  for (Side* side : {&base, &head}) {
    StatusOr<bool> linked = runner.LinksBenchprof(side->name, side->binary);
    if (!linked.ok()) return Fail(err, linked.status().message());
    side->benchprof = *linked;
    if (!side->benchprof && s.instructions) {
      return Fail(err, "--instructions: " + side->name + " (" + tools::OneLine(side->binary) +
                           ") is not linked with benchprof::main");
    }
  }
  if (!base.benchprof || !head.benchprof) {
    Progress(
        "note: a binary not linked with benchprof::main has no profiles: regressions are "
        "judged, not explained");
  }
  StatusOr<Measured> measured = Measure(s, runner, base, head, work->path());
  if (!measured.ok()) return Fail(err, measured.status().message());
  StatusOr<Comparison> judged = Judge(*measured, s.options, work->path());
  if (!judged.ok()) return Fail(err, judged.status().message());
  const Comparison& comparison = *judged;
  ExplainingRuns explaining(runner, base, head, s.max_profile_ns,
                            [](const std::string& line) { Progress(line); });
  std::vector<Explanation> explanations;
  if (base.benchprof && head.benchprof) {
    explanations = Explain(comparison, s, *measured, explaining);
  }
  TrimPaths(explanations, s.trim_paths);

  const bool markdown = s.format == "markdown";
  const std::string report =
      compare::RenderComparison(
          comparison, markdown ? compare::OutputFormat::kMarkdown : compare::OutputFormat::kText) +
      RenderExplanations(explanations, markdown);
  int code = static_cast<int>(comparison.verdict);
  if (html_file) {
    compare::HtmlProfiles profiles;
    if (!explaining.cpu_profiles().empty()) profiles.cpu = PairOf(explaining.cpu_profiles());
    if (!explaining.heap_profiles().empty()) profiles.heap = PairOf(explaining.heap_profiles());
    for (const Explanation& e : explanations) {
      std::string& text = profiles.explanations[e.benchmark];
      text += (text.empty() ? "" : "\n") + RenderExplanationText(e);
    }
    code = Commit(*html_file, "--html", compare::ComparisonHtml(comparison, profiles),
                  comparison.verdict, err);
  }
  if (report_file) {
    const int written = Commit(*report_file, "-o", report, comparison.verdict, err);
    if (written != static_cast<int>(comparison.verdict)) code = written;
  } else {
    out += report;
  }
  if (html_file && code == static_cast<int>(comparison.verdict)) {
    Progress("HTML page: " + tools::OneLine(s.html));
  }
  // What the gate adds to the benchmarks' own time: starting them, reading,
  // comparing, explaining, writing.
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const double own = total - runner.RunSeconds();
  Progress(
      tools::StringPrintf("%.1f s in all: the runs %.1f s, the gate's own work %.2f s (%.1f%%)",
                          total, runner.RunSeconds(), own, total > 0 ? 100 * own / total : 0));
  return code;
}

}  // namespace benchprof::gate
