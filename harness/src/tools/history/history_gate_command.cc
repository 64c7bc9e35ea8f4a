#include "tools/history/history_gate_command.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "tools/compare/cell_format.h"
#include "tools/compare/judging_flags.h"
#include "tools/compare/table_writer.h"
#include "tools/history/database.h"
#include "tools/history/detect_flags.h"
#include "tools/history/git_metadata.h"
#include "tools/history/history_gate.h"
#include "tools/history/run_files.h"
#include "tools/history/store_flags.h"
#include "tools/history/testbed.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::history {
namespace {

using compare::OutputFormat;
using compare::Verdict;
using tools::kExitBadInput;
using tools::kExitInconclusive;
using tools::kExitOk;
using tools::kExitRegression;
using tools::OneLine;

constexpr std::string_view kProgram = "benchprof history gate";

constexpr std::string_view kIntro =
    R"(Usage: benchprof history gate [--db=LOCATION] [--base-branch=NAME] [--testbed=NAME]
         [--commit=SHA] [--repo=DIR] [--runs=N] [--threshold=...] [--alpha=A]
         [--format=text|markdown|json] [-o FILE] RESULT...

Judges a run (its RESULT files, as `history record` takes them) against the
history of its base branch: for each benchmark and metric, the baseline is the
newest --runs runs of --base-branch on the run's testbed along the run's git
ancestry (for a pull request: its fork point and before), after the series'
last change point, their repetitions pooled. The run's commit and its
ancestry come from git in --repo (or the current directory), or from
--commit and the commits the database holds. The compare engine judges the
run against the baseline with its rules and thresholds (see benchprof
compare --help); a statistical regression must also lie beyond the spread of
the baseline runs' own medians (their median + 3 x 1.4826 x their median
absolute deviation, given 3 runs or more), so that a noisy runner's
run-to-run variation is not taken for a regression. Exact metrics (allocs/op,
B/op, instructions/op) are judged exactly. The run is not recorded.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "no regression"},
    {kExitRegression, "regression: a gated metric got worse than its baseline, beyond its "
                      "threshold and the baseline runs' spread"},
    {kExitInconclusive,
     "inconclusive: no baseline (no run of the base branch on this testbed along the run's "
     "ancestry), or too few samples for a gated metric"},
    {kExitBadInput,
     "bad input: an unreadable or malformed result file, a bad flag, no commit to be found, "
     "no database there, a file that is not a history database or is of a newer schema"},
    {kExitDatabaseUnavailable, kStoreUnavailableMeaning},
};

struct GateSettings {
  StoreFlags store;
  std::string base_branch = "main";
  std::string testbed;
  CommitFlags commit;
  int runs = 20;
  DetectOptions detect;
  compare::CompareOptions judging;
  OutputFormat format = OutputFormat::kText;
  std::string out;
};

void DeclareFlags(FlagSet& flags, GateSettings* s) {
  DeclareStoreFlags(flags, &s->store);
  flags.String("base-branch", "NAME", &s->base_branch,
               "the branch whose history is the baseline (default main)");
  flags.String("testbed", "NAME", &s->testbed,
               "the testbed the run is compared on, as recorded with --testbed (default: the "
               "testbed detected from this machine and the result files, as record does)");
  flags.String("commit", "SHA", &s->commit.commit,
               "the run's commit (default: HEAD of --repo); its ancestry comes from git, else "
               "from the commits the database holds");
  flags.String("repo", "DIR", &s->commit.repo,
               "the run's git checkout (default: the current directory)");
  flags.Int("runs", "N", 1, 10000, &s->runs,
            "the most runs a baseline pools, the newest (default 20)");
  DeclareDetectFlags(flags, &s->detect, /*with_thresholds=*/false);
  compare::DeclareJudgingFlags(flags, &s->judging);
  flags.Custom(
      "format", "text|markdown|json",
      [s](std::string_view value) {
        const std::optional<OutputFormat> format = compare::ParseOutputFormat(value);
        if (!format || *format == OutputFormat::kHtml) {
          return std::string("expected text, markdown or json");
        }
        s->format = *format;
        return std::string();
      },
      "output format (default text; markdown for a pull-request comment; json for tools)");
  flags.File("o", &s->out, "write the report to FILE (atomically) instead of standard output");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

// The run's commit and its first-parent ancestors, newest first: from git
// when it gave them, else by the parents the store holds.
StatusOr<std::vector<std::string>> HeadChain(const RunCommit& commit, HistoryStore& store) {
  std::vector<std::string> chain = {commit.commit.hash};
  for (const CommitInfo& c : commit.ancestry) chain.push_back(c.hash);
  if (chain.size() > 1) return chain;
  std::set<std::string> seen = {commit.commit.hash};
  std::vector<std::string> parents = commit.commit.parents;
  while (!parents.empty() && chain.size() <= static_cast<size_t>(kAncestryDepth)) {
    const std::string parent = parents.front();
    if (!seen.insert(parent).second) break;
    chain.push_back(parent);
    StatusOr<std::map<std::string, CommitInfo>> known = store.Commits({parent});
    if (!known.ok()) return known.status();
    const auto it = known->find(parent);
    parents = it == known->end() ? std::vector<std::string>() : it->second.parents;
  }
  if (chain.size() == 1) {
    // Given by --commit alone: the store may know its parents.
    StatusOr<std::map<std::string, CommitInfo>> known = store.Commits({commit.commit.hash});
    if (!known.ok()) return known.status();
    const auto it = known->find(commit.commit.hash);
    if (it != known->end() && !it->second.parents.empty()) {
      RunCommit with_parents = commit;
      with_parents.commit.parents = it->second.parents;
      return HeadChain(with_parents, store);
    }
  }
  return chain;
}

// "main on testbed T: 20 runs, 1a2b3c4d5e..6f7a8b9c0d".
std::string BaselineName(const HistoryBaseline& b, const std::string& branch,
                         const std::string& testbed) {
  std::string name = OneLine(branch) + " on testbed " + OneLine(testbed) + ": " +
                     std::to_string(b.runs) + (b.runs == 1 ? " run" : " runs");
  if (!b.commits.empty()) {
    name += ", " + OneLine(b.commits.front().substr(0, 10));
    if (b.commits.size() > 1) name += ".." + OneLine(b.commits.back().substr(0, 10));
  }
  return name;
}

}  // namespace

std::string HistoryGateHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunHistoryGateCommand(const std::vector<std::string>& args, std::string& out,
                          std::string& err) {
  GateSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                              &settings, &cl, out, err)) {
    return *done;
  }
  // The baseline is cut at change points by the same thresholds that judge.
  settings.detect.thresholds = settings.judging.thresholds;
  std::vector<std::string> files = cl.operands;
  files.insert(files.end(), cl.after_separator.begin(), cl.after_separator.end());
  if (files.empty()) return Fail(err, "no result file (see benchprof history gate --help)");
  if (settings.base_branch.empty()) return Fail(err, "--base-branch: expected a branch name");

  std::optional<AtomicFile> output;
  if (!settings.out.empty()) {
    std::vector<NamedPath> named = {{"-o", settings.out}};
    if (!settings.store.db.empty() && !IsDatabaseUrl(settings.store.db)) {
      named.push_back({"--db", settings.store.db});
    }
    for (const std::string& path : files) named.push_back({"input", path});
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

  StatusOr<RunFiles> run = ReadRunFiles(files);
  if (!run.ok()) return Fail(err, run.status().message());
  // The head's branch is not needed (the baseline's is --base-branch): a
  // detached HEAD without CI variables is fine.
  CommitFlags commit_flags = settings.commit;
  commit_flags.branch = settings.base_branch;
  StatusOr<RunCommit> commit = ResolveRunCommit(commit_flags, run->context, SystemEnvironment);
  if (!commit.ok()) return Fail(err, commit.status().message());
  const TestbedIdentity testbed =
      MakeTestbed(ReadMachineFacts(MachineFiles{}), run->context, settings.testbed);

  std::unique_ptr<HistoryStore> store;
  if (int code = OpenStoreForCommand(kProgram, settings.store, StoreUse::kRead, &store, err)) {
    return code;
  }
  SeriesFilter filter;
  filter.branch = settings.base_branch;
  filter.testbed = testbed.name;
  StatusOr<std::vector<Series>> series = store->LoadSeries(filter);
  if (!series.ok()) return StoreFailure(kProgram, *store, series.status(), err);
  StatusOr<std::vector<std::string>> chain = HeadChain(*commit, *store);
  if (!chain.ok()) return StoreFailure(kProgram, *store, chain.status(), err);

  BaselineOptions options;
  options.max_runs = static_cast<size_t>(settings.runs);
  options.detect = settings.detect;
  StatusOr<std::vector<RunInfo>> runs = store->Runs();
  if (!runs.ok()) return StoreFailure(kProgram, *store, runs.status(), err);
  for (const RunInfo& r : *runs) {
    if (r.content_hash == run->content_hash) options.exclude_run_id = r.id;
  }
  const HistoryBaseline baseline = SelectBaseline(*series, *chain, run->results, options);
  if (baseline.runs == 0) {
    err += std::string(kProgram) + ": inconclusive: no run of branch " +
           OneLine(settings.base_branch) + " on testbed " + OneLine(testbed.name) +
           " along the ancestry of " + OneLine(commit->commit.hash.substr(0, 12)) +
           " (record runs of the base branch with `benchprof history record`)\n";
    return kExitInconclusive;
  }

  compare::Comparison comparison =
      JudgeAgainstHistory(baseline, BaselineName(baseline, settings.base_branch, testbed.name),
                          run->results, settings.judging);
  for (const auto& [key, change] : baseline.cut_at) {
    comparison.warnings.push_back(
        key.first + ": " + key.second + ": the baseline starts at " +
        change.first_bad_commit.substr(0, 10) + ", after a change point of " +
        compare::FormatDelta(change.change) + " (last good " +
        change.last_good_commit.substr(0, 10) + ")");
  }
  const std::string report = compare::RenderComparison(comparison, settings.format);
  const int verdict = static_cast<int>(comparison.verdict);
  if (output) {
    if (Status s = output->WriteAndCommit(report); !s.ok()) {
      // A failed write must hide no regression, nor pass for success.
      const int bad_output = Fail(err, "-o: " + s.message());
      return comparison.verdict == Verdict::kNoRegression ? bad_output : verdict;
    }
  } else {
    out += report;
  }
  return verdict;
}

}  // namespace benchprof::history
