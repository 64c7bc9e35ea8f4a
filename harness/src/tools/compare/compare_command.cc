#include "tools/compare/compare_command.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "common/atomic_file.h"
#include "tools/command_line.h"
#include "tools/compare/comparison.h"
#include "tools/results/result_reader.h"
#include "tools/compare/table_writer.h"
#include "tools/text_format.h"

namespace benchprof::compare {

using results::FormatName;
using results::ReadResultFiles;
using results::ResultSet;
using tools::CommandLine;
using tools::Flag;
using tools::OneLine;
using tools::ParseCommandLine;
using tools::StringPrintf;
using tools::kExitBadInput;
using tools::kExitOk;

namespace {

int Fail(std::string& err, const std::string& message) {
  err += "benchprof compare: " + OneLine(message) + "\n";
  return kExitBadInput;
}

bool ParseLevel(const std::string& text, double& out) {
  if (text.empty() || text.find_first_not_of("0123456789.eE-+") != std::string::npos) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && out > 0 && out < 1;
}

Status WriteLines(AtomicFile& file, const std::vector<std::string>& lines) {
  {
    std::ofstream stream(file.temp_path(), std::ios::binary | std::ios::trunc);
    for (const std::string& line : lines) stream << line << '\n';
    stream.flush();
    if (!stream) return Status::Error(file.path() + ": write failed");
  }
  return file.Commit();
}

}  // namespace

std::string CompareHelp() {
  return R"(Usage: benchprof compare [flags] BASE HEAD
       benchprof compare [flags] BASE... -- HEAD...

Compares benchmark results of a base (old) and a head (new) build the way
benchstat does, and exits with a code a CI job can act on.

Inputs are Google Benchmark JSON (--benchmark_out=FILE
--benchmark_out_format=json; use --benchmark_repetitions=10 or more) or Go
benchmark text. Several files per side are pooled, e.g. one per round of an
interleaved run. Flags come before the files.

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
  - any other metric named in --threshold.
A gated metric with fewer than 4 samples on a side, or too few samples to
reach significance after the correction, makes the result inconclusive.

Flags:
  --format=text|markdown|json  output format (default text; markdown for a
                               pull-request comment)
  --threshold=[REGEX=]METRIC:VALUE[,METRIC:VALUE...]
                               gate METRIC with VALUE: N% (relative), N
                               (absolute, in the metric's unit; ns for time)
                               or off. METRIC "time" is each benchmark's time
                               metric. With REGEX=, only for benchmarks whose
                               name matches. Repeatable; later flags win.
                               Default: time:5%,allocs/op:0,B/op:0
  --alpha=A                    significance level (default 0.05)
  --confidence=C               confidence level of the intervals (default 0.95)
  --filter=REGEX               compare only benchmarks whose name matches
                               (POSIX extended syntax, as --benchmark_filter)
  --regressions-file=FILE      also write one line per regressed benchmark to
                               FILE: its name, a tab, and the ratio of its
                               head to base median time (for scripts)
  --help                       print this help

Exit codes:
  0  no regression
  1  regression: a gated metric got worse, significantly and beyond its threshold
  2  inconclusive: a gated metric has too few samples, or no benchmark is in
     both sides (a regression, if any, wins)
  3  bad input: an unreadable, empty, malformed, truncated or mismatched file,
     or a bad flag
)";
}

int RunCompareCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  const CommandLine cl = ParseCommandLine(
      args, {"format", "threshold", "alpha", "confidence", "filter", "regressions-file"});
  if (!cl.error.empty()) return Fail(err, cl.error + " (see benchprof compare --help)");

  CompareOptions options;
  OutputFormat format = OutputFormat::kText;
  std::string regressions_file;
  for (const Flag& flag : cl.flags) {
    const std::string spelled = "--" + flag.name + (flag.has_value ? "=" + flag.value : "");
    if (flag.name == "help" || flag.name == "h") {
      out += CompareHelp();
      return kExitOk;
    }
    if (flag.name == "format") {
      const std::optional<OutputFormat> f = ParseOutputFormat(flag.value);
      if (!f) return Fail(err, spelled + ": expected text, markdown or json");
      format = *f;
    } else if (flag.name == "threshold") {
      if (Status s = options.thresholds.Add(flag.value); !s.ok()) {
        return Fail(err, spelled + ": " + s.message());
      }
    } else if (flag.name == "alpha") {
      if (!ParseLevel(flag.value, options.alpha)) {
        return Fail(err, spelled + ": expected a number between 0 and 1 (exclusive)");
      }
    } else if (flag.name == "confidence") {
      if (!ParseLevel(flag.value, options.confidence)) {
        return Fail(err, spelled + ": expected a number between 0 and 1 (exclusive)");
      }
    } else if (flag.name == "filter") {
      StatusOr<NamePattern> pattern = NamePattern::Compile(flag.value);
      if (!pattern.ok()) {
        return Fail(err, spelled + ": invalid regular expression: " + pattern.status().message());
      }
      options.filter = std::move(*pattern);
    } else if (flag.name == "regressions-file") {
      if (flag.value.empty()) return Fail(err, spelled + ": expected a file name");
      regressions_file = flag.value;
    } else {
      return Fail(err, "unknown flag " + spelled + " (see benchprof compare --help)");
    }
  }

  // An unwritable output is reported before any input is read.
  std::optional<AtomicFile> regressions;
  if (!regressions_file.empty()) {
    StatusOr<AtomicFile> file = AtomicFile::Create(regressions_file);
    if (!file.ok()) return Fail(err, "--regressions-file: " + file.status().message());
    regressions.emplace(std::move(*file));
  }

  std::vector<std::string> base_files, head_files;
  if (cl.has_separator) {
    base_files = cl.operands;
    head_files = cl.after_separator;
  } else if (cl.operands.size() == 2) {
    base_files = {cl.operands[0]};
    head_files = {cl.operands[1]};
  } else {
    return Fail(err, "expected two files, BASE and HEAD, or BASE... -- HEAD... (got " +
                         std::to_string(cl.operands.size()) + "; see benchprof compare --help)");
  }
  if (base_files.empty() || head_files.empty()) {
    return Fail(err, std::string("no ") + (base_files.empty() ? "base" : "head") +
                         " file (BASE... -- HEAD...)");
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

  const Comparison comparison = Compare(*base, *head, options);
  if (regressions) {
    // "name<TAB>ratio": the ratio of the head to the base median of the
    // benchmark's time, which lets a script profile equal amounts of work.
    std::map<std::string, double> time_ratio;
    for (const Row& row : comparison.rows) {
      if (row.is_time_metric && row.rule == Rule::kStatistical && row.base.median > 0) {
        time_ratio[row.benchmark] = row.head.median / row.base.median;
      }
    }
    std::vector<std::string> lines;
    std::set<std::string> seen;
    for (const Row& row : comparison.rows) {
      if (row.outcome == Outcome::kRegression && seen.insert(row.benchmark).second) {
        const auto ratio = time_ratio.find(row.benchmark);
        lines.push_back(OneLine(row.benchmark) + "\t" +
                        StringPrintf("%.6g", ratio == time_ratio.end() ? 1.0 : ratio->second));
      }
    }
    if (Status s = WriteLines(*regressions, lines); !s.ok()) {
      return Fail(err, "--regressions-file: " + s.message());
    }
  }
  out += RenderComparison(comparison, format);
  return static_cast<int>(comparison.verdict);
}

}  // namespace benchprof::compare
