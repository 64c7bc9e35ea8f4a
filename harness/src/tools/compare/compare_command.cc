#include "tools/compare/compare_command.h"

#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "tools/compare/comparison.h"
#include "tools/compare/html_output.h"
#include "tools/compare/judging_flags.h"
#include "tools/compare/table_writer.h"
#include "tools/flamegraph/profile_input.h"
#include "tools/results/result_reader.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::compare {

using results::FormatName;
using results::ReadResultFiles;
using results::ResultSet;
using tools::kExitBadInput;
using tools::kExitInconclusive;
using tools::kExitOk;
using tools::kExitRegression;
using tools::OneLine;
using tools::StringPrintf;

// The verdict is the exit code.
static_assert(static_cast<int>(Verdict::kNoRegression) == kExitOk);
static_assert(static_cast<int>(Verdict::kRegression) == kExitRegression);
static_assert(static_cast<int>(Verdict::kInconclusive) == kExitInconclusive);

namespace {

constexpr std::string_view kProgram = "benchprof compare";

constexpr std::string_view kIntro = R"(Usage: benchprof compare [flags] BASE HEAD
       benchprof compare [flags] BASE... -- HEAD...
       benchprof compare --format=html [--base-cpuprofile=F --head-cpuprofile=F] BASE HEAD -o FILE

Compares benchmark results of a base (old) and a head (new) build the way
benchstat does, and exits with a code a CI job can act on.

Inputs are Google Benchmark JSON (--benchmark_out=FILE
--benchmark_out_format=json; use --benchmark_repetitions=10 or more) from
Google Benchmark 1.7.1 to 1.9.x, or Go benchmark text. Several files per side
are pooled, e.g. one per round of an interleaved run. Flags come before the
files. Failed repetitions are left out with a warning; benchmarks that skipped
themselves (State::SkipWithMessage) are listed as skipped and never change the
exit code.

Each row is one benchmark and metric (cpu_time, real_time, allocs/op, B/op,
user counters): the median and its 95% confidence interval on each side,
the change of the median, or ~ when a two-sided Mann-Whitney U test finds no
significant difference, and the p-value and sample counts.

What gates (can fail the comparison):
  - each benchmark's time: cpu_time, or real_time for benchmarks that use
    real or manual time (ns/op in Go text). A regression needs a p-value
    <= alpha after Holm's correction over all gated tests AND a median
    change beyond the threshold (default 5%).
  - allocs/op and B/op: exact metrics. When the values are constant on both
    sides, any increase beyond the threshold (default 0) is a regression,
    without statistics; when they vary, as for time.
  - instructions/op (bench --instructions): exact. A change of the median
    beyond the threshold (default 1%) is a regression, also with one run
    per side. Files written under --instructions carry no comparable times:
    their cpu_time and real_time are left out, with a warning.
  - any other metric named in --threshold.
A gated metric with fewer than 4 samples on a side, or too few samples to
reach significance after the correction, makes the result inconclusive; a
regression, if any, wins. An unreadable, empty, malformed, truncated or
mismatched file is bad input: one line on the error stream.

Names, messages and paths from the files print on one line: a line break
or TAB becomes a space; other control characters, bidirectional formatting
characters and malformed UTF-8 become U+FFFD, as does what would start a
CI runner's command (a leading "::", "##"). JSON keeps them exactly,
escaped. Markdown puts them in code spans.

--format=html writes one self-contained page (no network, no external
script or font): the tables with each row coloured by its gate, the
findings and the verdict, and, for each regressed benchmark with samples in
both profiles of a kind, its differential flame graph (as `benchprof
flamegraph --diff_base` draws it, from the samples labelled with the
benchmark's name). A heap graph is drawn also when the base's heap profiles
have no samples of the benchmark (it did not allocate): all of it new.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "no regression"},
    {kExitRegression, "regression: a gated metric got significantly worse, beyond its threshold"},
    {kExitInconclusive, "inconclusive: too few samples for a gated metric, or no common benchmark"},
    {kExitBadInput, "bad input: an unreadable, malformed or mismatched file, or a bad flag"},
};

// What the flags set.
struct CompareSettings {
  CompareOptions options;
  OutputFormat format = OutputFormat::kText;
  std::string regressions_file;  // empty: none
  std::string out;               // empty: standard output
  // Profiles for --format=html, by kind: base and head.
  std::vector<std::string> base_cpuprofile, head_cpuprofile, base_memprofile, head_memprofile;
};

// Declares compare's flags in `flags`, bound to `*settings`.
void DeclareFlags(FlagSet& flags, CompareSettings* settings) {
  flags.Custom(
      "format", "text|markdown|json",
      [settings](std::string_view value) {
        const std::optional<OutputFormat> format = ParseOutputFormat(value);
        if (!format) return std::string("expected text, markdown, json or html");
        settings->format = *format;
        return std::string();
      },
      "output format (default text; markdown for a pull-request comment; html for a "
      "self-contained page, with differential flame graphs of the regressions given "
      "--base-cpuprofile and --head-cpuprofile)");
  flags.File("o", &settings->out,
             "write the report to FILE (atomically) instead of standard output");
  for (auto [name, profile_files, help] :
       {std::tuple{"base-cpuprofile", &settings->base_cpuprofile,
                   "a CPU profile of the base, for --format=html (repeatable: samples are pooled)"},
        std::tuple{"head-cpuprofile", &settings->head_cpuprofile,
                   "a CPU profile of the head, for --format=html (repeatable)"},
        std::tuple{"base-memprofile", &settings->base_memprofile,
                   "a heap profile of the base, for --format=html (repeatable)"},
        std::tuple{"head-memprofile", &settings->head_memprofile,
                   "a heap profile of the head, for --format=html (repeatable)"}}) {
    flags.Custom(
        name, "FILE",
        // A copy: clang 14 cannot capture a structured binding.
        [files = profile_files](std::string_view value) {
          if (value.empty()) return std::string("expected a file name");
          files->emplace_back(value);
          return std::string();
        },
        help);
  }
  DeclareJudgingFlags(flags, &settings->options);
  flags.Custom(
      "filter", "REGEX",
      [settings](std::string_view value) {
        StatusOr<NamePattern> pattern = NamePattern::Compile(value);
        if (!pattern.ok()) return "invalid regular expression: " + pattern.status().message();
        settings->options.filter = std::move(*pattern);
        return std::string();
      },
      "compare only benchmarks whose name matches (POSIX extended syntax, as "
      "--benchmark_filter)");
  flags.File("regressions-file", &settings->regressions_file,
             "also write one line per regressed benchmark to FILE: its name, a tab, the "
             "ratio of its head to base median time, a tab, and the regressed metrics, "
             "comma-separated (\"time\" for its time metric; for scripts)");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

Status WriteLines(AtomicFile& file, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + '\n';
  return file.WriteAndCommit(text);
}

// Splits the operands into the base and the head files; returns "" or the
// problem.
std::string SplitSides(const CommandLine& cl, std::vector<std::string>* base_files,
                       std::vector<std::string>* head_files) {
  if (cl.has_separator) {
    *base_files = cl.operands;
    *head_files = cl.after_separator;
  } else if (cl.operands.size() == 2) {
    *base_files = {cl.operands[0]};
    *head_files = {cl.operands[1]};
  } else {
    return "expected two files, BASE and HEAD, or BASE... -- HEAD... (got " +
           std::to_string(cl.operands.size()) + "; see benchprof compare --help)";
  }
  if (base_files->empty() || head_files->empty()) {
    return std::string("no ") + (base_files->empty() ? "base" : "head") +
           " file (BASE... -- HEAD...)";
  }
  return "";
}

// One line per regressed benchmark, "name<TAB>ratio": the ratio of the head
// to the base median of the benchmark's time, which lets a script profile
// equal amounts of work.
std::vector<std::string> RegressionLines(const Comparison& comparison) {
  std::map<std::string, double> time_ratio;
  for (const Row& row : comparison.rows) {
    if (row.is_time_metric && row.rule == Rule::kStatistical && row.base.median > 0) {
      time_ratio[row.benchmark] = row.head.median / row.base.median;
    }
  }
  // Benchmark -> the metrics that regressed, in row order ("time" for the
  // time metric), so that a script explains each with the right profile.
  std::vector<std::pair<std::string, std::string>> regressed;
  std::map<std::string, size_t> index;
  for (const Row& row : comparison.rows) {
    if (row.outcome != Outcome::kRegression) continue;
    const std::string metric = row.is_time_metric ? "time" : row.metric;
    auto [it, inserted] = index.try_emplace(row.benchmark, regressed.size());
    if (inserted) {
      regressed.emplace_back(row.benchmark, metric);
    } else {
      regressed[it->second].second += "," + metric;
    }
  }
  std::vector<std::string> lines;
  for (const auto& [benchmark, metrics] : regressed) {
    const auto ratio = time_ratio.find(benchmark);
    lines.push_back(OneLine(benchmark) + "\t" +
                    StringPrintf("%.6g", ratio == time_ratio.end() ? 1.0 : ratio->second) + "\t" +
                    OneLine(metrics));
  }
  return lines;
}

}  // namespace

std::string CompareHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunCompareCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  CompareSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                              &settings, &cl, out, err)) {
    return *done;
  }
  std::vector<std::string> base_files, head_files;
  if (std::string problem = SplitSides(cl, &base_files, &head_files); !problem.empty()) {
    return Fail(err, problem);
  }
  // An unwritable output, or one that is an input, is reported before any
  // input is read.
  std::optional<AtomicFile> regressions;
  if (!settings.regressions_file.empty()) {
    std::vector<NamedPath> named = {{"--regressions-file", settings.regressions_file}};
    for (const std::string& path : base_files) named.push_back({"input", path});
    for (const std::string& path : head_files) named.push_back({"input", path});
    if (Status distinct = CheckDistinctFiles(named); !distinct.ok()) {
      return Fail(err, distinct.message());
    }
    StatusOr<AtomicFile> file = AtomicFile::Create(settings.regressions_file);
    if (!file.ok()) return Fail(err, "--regressions-file: " + file.status().message());
    regressions.emplace(std::move(*file));
  }
  const bool any_profile = !settings.base_cpuprofile.empty() || !settings.head_cpuprofile.empty() ||
                           !settings.base_memprofile.empty() || !settings.head_memprofile.empty();
  if (any_profile && settings.format != OutputFormat::kHtml) {
    return Fail(err, "the profile flags need --format=html");
  }
  if (settings.base_cpuprofile.empty() != settings.head_cpuprofile.empty() ||
      settings.base_memprofile.empty() != settings.head_memprofile.empty()) {
    return Fail(err,
                "profiles come in pairs: --base-cpuprofile with --head-cpuprofile, "
                "--base-memprofile with --head-memprofile");
  }
  std::optional<AtomicFile> output;
  if (!settings.out.empty()) {
    std::vector<NamedPath> named = {{"-o", settings.out}};
    if (!settings.regressions_file.empty()) {
      named.push_back({"--regressions-file", settings.regressions_file});
    }
    for (const auto* paths : {&settings.base_cpuprofile, &settings.head_cpuprofile,
                              &settings.base_memprofile, &settings.head_memprofile}) {
      for (const std::string& path : *paths) named.push_back({"input", path});
    }
    for (const std::string& path : base_files) named.push_back({"input", path});
    for (const std::string& path : head_files) named.push_back({"input", path});
    // Inputs may repeat (a profile against itself); the outputs may be none of them.
    for (size_t i = 1; i < named.size(); ++i) {
      const NamedPath pair[] = {named[0], named[i]};
      if (Status distinct = CheckDistinctFiles(pair); !distinct.ok()) {
        return Fail(err, distinct.message());
      }
    }
    StatusOr<AtomicFile> file = AtomicFile::Create(settings.out);
    if (!file.ok()) return Fail(err, "-o: " + file.status().message());
    output.emplace(std::move(*file));
  }
  HtmlProfiles profiles;
  for (auto [base_paths, head_paths, slot] :
       {std::tuple{&settings.base_cpuprofile, &settings.head_cpuprofile, &profiles.cpu},
        std::tuple{&settings.base_memprofile, &settings.head_memprofile, &profiles.heap}}) {
    if (base_paths->empty()) continue;
    ProfilePair pair;
    for (auto [paths, side] :
         {std::pair{base_paths, &pair.base}, std::pair{head_paths, &pair.head}}) {
      for (const std::string& path : *paths) {
        StatusOr<encode::ProfileData> profile = flamegraph::ReadProfileFile(path);
        if (!profile.ok()) return Fail(err, profile.status().message());
        side->push_back(NamedProfile{path, std::move(*profile)});
      }
    }
    *slot = std::move(pair);
  }
  StatusOr<ResultSet> base = ReadResultFiles(base_files);
  if (!base.ok()) return Fail(err, base.status().message());
  StatusOr<ResultSet> head = ReadResultFiles(head_files);
  if (!head.ok()) return Fail(err, head.status().message());
  if (base->format != head->format) {
    return Fail(err, head_files.front() + ": is " + std::string(FormatName(head->format)) +
                         " but " + base_files.front() + " is " +
                         std::string(FormatName(base->format)) +
                         "; convert the JSON with `benchprof convert --to=go` to compare them");
  }

  const Comparison comparison = Compare(*base, *head, settings.options);
  const std::string report = settings.format == OutputFormat::kHtml
                                 ? ComparisonHtml(comparison, profiles)
                                 : RenderComparison(comparison, settings.format);
  if (output) {
    if (Status s = output->WriteAndCommit(report); !s.ok()) {
      // A failed write must hide no regression, nor pass for success.
      const int bad_output = Fail(err, "-o: " + s.message());
      return comparison.verdict == Verdict::kNoRegression ? bad_output
                                                          : static_cast<int>(comparison.verdict);
    }
  } else {
    out += report;
  }
  if (regressions) {
    if (Status s = WriteLines(*regressions, RegressionLines(comparison)); !s.ok()) {
      // A failed write must hide no regression, nor pass for success.
      const int bad_output = Fail(err, "--regressions-file: " + s.message());
      return comparison.verdict == Verdict::kNoRegression ? bad_output
                                                          : static_cast<int>(comparison.verdict);
    }
  }
  return static_cast<int>(comparison.verdict);
}

}  // namespace benchprof::compare
