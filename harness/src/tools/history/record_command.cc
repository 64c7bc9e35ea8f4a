#include "tools/history/record_command.h"

#include <algorithm>
#include <memory>
#include <set>

#include "benchprof/flags.h"
#include "common/whole_file.h"
#include "tools/history/database.h"
#include "tools/history/git_metadata.h"
#include "tools/history/history_store.h"
#include "tools/history/run_files.h"
#include "tools/history/store_flags.h"
#include "tools/history/testbed.h"
#include "tools/results/result_reader.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

#ifndef BENCHPROF_VERSION
#error "BENCHPROF_VERSION must be defined (the project's version)"
#endif

namespace benchprof::history {
namespace {

using tools::kExitBadInput;
using tools::kExitOk;
using tools::OneLine;

constexpr std::string_view kProgram = "benchprof history record";

constexpr std::string_view kIntro =
    R"(Usage: benchprof history record [--db=LOCATION] [--commit=SHA [--parent=SHA]...]
         [--branch=NAME] [--commit-time=TIME] [--subject=TEXT] [--testbed=NAME]
         [--repo=DIR] [--attach=FILE]... [--run-key=KEY] RESULT...

Stores one run in the history: every raw repetition of every metric of the
result files (Google Benchmark JSON or Go benchmark text; several files are
one run), with its commit, branch and testbed. Recording the same files again
stores nothing and says so.

The commit (hash, parents, committer time, subject) and the branch come from
git in --repo (default: the current directory), with the first-parent chain
of up to 1,000 ancestors, so that runs order by ancestry. On a detached HEAD
the branch comes from CI's variables (GITHUB_HEAD_REF, GITHUB_REF_NAME,
CI_COMMIT_REF_NAME). Each flag overrides its field; without git and without
--commit, the result file's context keys "commit" and "branch" (written by
--benchmark_context=commit=SHA,branch=NAME) are used.

The testbed is named by --testbed, or derived from the machine's stable facts
(CPU model, cores, memory, OS, kernel series) and the build's (Google
Benchmark version, build type, compiler), never from its clock speed.

Shards (bench --shard=I/N) given together are one run, as `benchprof merge`
joins them. One shard's file recorded alone, as each job of a CI matrix
would, is added to the run its other shards make: the shards of one run are
those recorded with the same --run-key (default: GitHub Actions'
GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT, or GitLab's CI_PIPELINE_ID) and count.
A shard recorded twice is stored once.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "recorded (or recorded before)"},
    {kExitBadInput,
     "bad input: a bad flag, an unreadable or malformed file, no commit or branch to be "
     "found, a file that is not a history database or is of a newer schema"},
    {kExitDatabaseUnavailable, kStoreUnavailableMeaning},
};

struct RecordSettings {
  StoreFlags store;
  CommitFlags commit;
  std::string testbed;
  std::vector<std::string> attach;
  std::string run_key;
};

std::function<std::string(std::string_view)> Append(std::vector<std::string>* to, bool commas) {
  return [to, commas](std::string_view value) -> std::string {
    if (value.empty()) return "expected a value";
    while (commas) {
      const size_t comma = value.find(',');
      if (comma == std::string_view::npos) break;
      if (comma > 0) to->emplace_back(value.substr(0, comma));
      value.remove_prefix(comma + 1);
    }
    if (!value.empty()) to->emplace_back(value);
    return "";
  };
}

void DeclareFlags(FlagSet& flags, RecordSettings* s) {
  DeclareStoreFlags(flags, &s->store);
  flags.String("commit", "SHA", &s->commit.commit,
               "the commit measured (default: git's HEAD in --repo, else the context's commit)");
  flags.Custom("parent", "SHA", Append(&s->commit.parents, false),
               "a parent of --commit (repeat for a merge, first parent first)");
  flags.String("branch", "NAME", &s->commit.branch,
               "the branch (default: git's, CI's variables on a detached HEAD, the context's)");
  flags.String("commit-time", "TIME", &s->commit.commit_time,
               "the committer time: seconds since the epoch or RFC 3339 (2024-05-01T12:00:00Z)");
  flags.String("subject", "TEXT", &s->commit.subject, "the commit's subject line");
  flags.String("repo", "DIR", &s->commit.repo,
               "the git checkout to read (default: the current directory)");
  flags.String("testbed", "NAME", &s->testbed,
               "the testbed's name (default: derived from the machine's stable facts)");
  flags.Custom("attach", "FILE", Append(&s->attach, true),
               "store FILE with the run, compressed (a profile, a trace); repeatable, or "
               "FILE,FILE");
  flags.String("run-key", "KEY", &s->run_key,
               "for one shard's file recorded alone: the run it belongs to, the same for every "
               "shard of the run (default: GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT, or CI_PIPELINE_ID)");
}

// The run key of a shard recorded alone: --run-key, else the CI system's
// id of the pipeline run all its shard jobs share; "" if none.
std::string RunKey(const std::string& flag) {
  if (!flag.empty()) return flag;
  const std::string run = SystemEnvironment("GITHUB_RUN_ID").value_or("");
  if (!run.empty()) {
    const std::string attempt = SystemEnvironment("GITHUB_RUN_ATTEMPT").value_or("");
    return "github:" + run + "-" + (attempt.empty() ? "1" : attempt);
  }
  const std::string pipeline = SystemEnvironment("CI_PIPELINE_ID").value_or("");
  return pipeline.empty() ? "" : "gitlab:" + pipeline;
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string AttachmentKind(const std::string& name) {
  if (name.ends_with(".pprof") || name.ends_with(".pb.gz") || name.ends_with(".prof")) {
    return "pprof";
  }
  if (name.find("trace") != std::string::npos || name.ends_with(".perfetto")) return "trace";
  return "file";
}

__extension__ typedef unsigned __int128 Uint128;

Uint128 Fnv1a128(std::string_view bytes) {
  constexpr Uint128 kPrime = (Uint128{1} << 88) + 0x13b;
  Uint128 hash = (Uint128{0x6c62272e07bb0142ULL} << 64) | 0x62b821756295c58dULL;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= kPrime;
  }
  return hash;
}

std::string Hex(Uint128 v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 31; i >= 0; --i, v >>= 4) out[i] = kDigits[static_cast<int>(v & 0xf)];
  return out;
}

}  // namespace

std::string ContentHash(const std::vector<std::string>& file_contents) {
  std::vector<std::string> digests;
  for (const std::string& bytes : file_contents) digests.push_back(Hex(Fnv1a128(bytes)));
  std::sort(digests.begin(), digests.end());
  std::string joined;
  for (const std::string& d : digests) joined += d + "\n";
  return Hex(Fnv1a128(joined));
}

std::string RecordHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunRecordCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  RecordSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                              &settings, &cl, out, err)) {
    return *done;
  }
  std::vector<std::string> files = cl.operands;
  files.insert(files.end(), cl.after_separator.begin(), cl.after_separator.end());
  if (files.empty()) return Fail(err, "no result file (see benchprof history record --help)");

  StatusOr<RunFiles> read = ReadRunFiles(files);
  if (!read.ok()) return Fail(err, read.status().message());
  const results::ResultSet* results = &read->results;
  const std::vector<std::pair<std::string, std::string>>& context = read->context;

  std::vector<Attachment> attachments;
  std::set<std::string> attachment_names;
  for (const std::string& path : settings.attach) {
    StatusOr<std::string> bytes = ReadWholeFile(path, size_t{1} << 32);
    if (!bytes.ok()) return Fail(err, "--attach: " + bytes.status().message());
    const std::string name = BaseName(path);
    if (!attachment_names.insert(name).second) {
      return Fail(err, "--attach: two files named " + name);
    }
    attachments.push_back({name, AttachmentKind(name), std::move(*bytes)});
  }

  StatusOr<RunCommit> commit = ResolveRunCommit(settings.commit, context, SystemEnvironment);
  if (!commit.ok()) return Fail(err, commit.status().message());

  RunToRecord run;
  run.content_hash = read->content_hash;
  run.results = results;
  run.commit = commit->commit;
  run.branch = commit->branch;
  run.ancestry = commit->ancestry;
  run.testbed = MakeTestbed(ReadMachineFacts(MachineFiles{}), context, settings.testbed);
  run.benchprof_version = BENCHPROF_VERSION;
  for (const auto& [key, value] : context) {
    if (key == "benchprof_version" && !value.empty()) run.benchprof_version = value;
  }
  for (const std::string& v : results->gbench_versions) {
    if (!v.empty()) {
      run.gbench_version = v;
      break;
    }
  }
  run.context = context;
  run.attachments = std::move(attachments);
  std::string shard_name;
  if (read->shard) {
    const std::string key = RunKey(settings.run_key);
    shard_name = std::to_string(read->shard->index) + "/" + std::to_string(read->shard->total);
    if (key.empty()) {
      return Fail(err, files.front() + " is shard " + shard_name +
                           " of a run: recorded alone it needs --run-key=KEY, the same for every "
                           "shard of the run (or record the shards together)");
    }
    run.shard = RunShard{key, static_cast<int64_t>(read->shard->index),
                         static_cast<int64_t>(read->shard->total)};
  } else if (!settings.run_key.empty()) {
    return Fail(err, "--run-key is for one shard's file recorded alone; " + files.front() +
                         " is not a shard's");
  }

  std::unique_ptr<HistoryStore> store;
  if (int code = OpenStoreForCommand(kProgram, settings.store, StoreUse::kWrite, &store, err)) {
    return code;
  }
  for (const std::string& w : results->warnings) {
    err += std::string(kProgram) + ": warning: " + OneLine(w) + "\n";
  }
  StatusOr<RecordOutcome> outcome = store->Record(run);
  if (!outcome.ok()) return StoreFailure(kProgram, *store, outcome.status(), err);
  for (const std::string& w : outcome->warnings) {
    err += std::string(kProgram) + ": warning: " + OneLine(w) + "\n";
  }
  const std::string as_shard =
      run.shard ? "shard " + shard_name + " of run " + OneLine(run.shard->run_key) + " " : "";
  if (outcome->already_recorded) {
    out += "already recorded " + as_shard + "as run " + std::to_string(outcome->run_id) + "\n";
    return kExitOk;
  }
  out += "recorded " + (run.shard ? as_shard + "into run " : std::string("run ")) +
         std::to_string(outcome->run_id) + ": " +
         std::to_string(outcome->benchmarks) + " benchmarks, " +
         std::to_string(outcome->metrics) + " metrics, commit " +
         run.commit.hash.substr(0, 12) + " on " + OneLine(run.branch) + ", testbed " +
         OneLine(run.testbed.name) + "\n";
  return kExitOk;
}

}  // namespace benchprof::history
