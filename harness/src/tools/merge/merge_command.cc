#include "tools/merge/merge_command.h"

#include <new>
#include <optional>
#include <string_view>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "common/json_value.h"
#include "common/whole_file.h"
#include "encode/pprof_reader.h"
#include "encode/pprof_writer.h"
#include "tools/merge/profile_merge.h"
#include "tools/merge/result_merge.h"
#include "tools/results/gbench_json.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::merge {

using tools::kExitBadInput;
using tools::kExitOk;

namespace {

constexpr std::string_view kProgram = "benchprof merge";

constexpr std::string_view kIntro =
    R"(Usage: benchprof merge -o FILE [--allow-different-binaries] FILE...

Joins the files of one run's shards (bench --shard=I/N, one per CI job) into
one, as if one machine had run them:

  benchprof merge r.0.json r.1.json r.2.json r.3.json -o r.json
  benchprof merge cpu.*.pprof -o cpu.pprof

Google Benchmark JSON result files become one result file that compare and
history read as one run: the first shard's context, the shards named in
"benchprof_shards" ("0/4,1/4,2/4,3/4"), the benchmarks in the order one
unsharded run reports them. Refused: a benchmark in two files, a shard given
twice, shards of different splits, and results of different benchmark
binaries (the context's "executable"; --allow-different-binaries merges them
anyway).

pprof profiles of one kind (every CPU profile, or every heap profile, ...)
become one profile: the samples of all, with their labels (so -tagfocus
still picks one benchmark), the mappings, functions and locations they
share kept once; go tool pprof shows the sum of the shards. Profiles with
different sample types (a heap and a CPU profile) are refused.

Whether the files are results or profiles is read from their contents.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "merged"},
    {kExitBadInput,
     "bad input: an unreadable or malformed file, files that are not one run's, a bad flag"},
};

struct MergeSettings {
  std::string out;
  ResultMergeOptions results;
};

void DeclareFlags(FlagSet& flags, MergeSettings* settings) {
  flags.File("o", &settings->out, "write the merged file to FILE (atomically; required)");
  flags.Bool("allow-different-binaries", &settings->results.allow_different_binaries,
             "merge result files whose context names different executables");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

bool LooksLikeJson(std::string_view bytes) {
  const size_t first = bytes.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && bytes[first] == '{';
}

// Reads and merges result files; `first` is the first file's bytes.
StatusOr<std::string> MergeResultFiles(const std::vector<std::string>& paths,
                                       std::string first_bytes, const ResultMergeOptions& options) {
  std::vector<NamedResults> files;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string bytes;
    if (i == 0) {
      bytes = std::move(first_bytes);
    } else {
      StatusOr<std::string> read = ReadWholeFile(paths[i], encode::kMaxProfileBytes);
      if (!read.ok()) return read.status();
      bytes = std::move(*read);
    }
    if (!LooksLikeJson(bytes)) {
      return Status::Error(paths[0] + " is a result file and " + paths[i] +
                           " is not: merge results and profiles separately");
    }
    StatusOr<results::GbenchResults> valid = results::ParseGbenchJson(bytes);
    if (!valid.ok()) {
      return Status::Error(paths[i] + ": not Google Benchmark JSON (" + valid.status().message() +
                           ")");
    }
    StatusOr<json::Value> document = json::Parse(bytes);
    if (!document.ok()) return document.status().WithContext(paths[i]);
    files.push_back({paths[i], std::move(*document)});
  }
  StatusOr<json::Value> merged = MergeResults(files, options);
  if (!merged.ok()) return merged.status();
  return FormatResults(*merged);
}

// Reads and merges profiles; `first` is the first file's bytes.
StatusOr<encode::ProfileData> MergeProfileFiles(const std::vector<std::string>& paths,
                                                std::string first_bytes) {
  std::vector<NamedProfile> profiles;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string bytes;
    if (i == 0) {
      bytes = std::move(first_bytes);
    } else {
      StatusOr<std::string> read = ReadWholeFile(paths[i], encode::kMaxProfileBytes);
      if (!read.ok()) return read.status();
      bytes = std::move(*read);
    }
    if (LooksLikeJson(bytes)) {
      return Status::Error(paths[0] + " is a profile and " + paths[i] +
                           " a result file: merge results and profiles separately");
    }
    StatusOr<encode::ProfileData> profile = encode::ReadProfile(bytes);
    if (!profile.ok()) {
      return Status::Error(paths[i] + ": neither Google Benchmark JSON nor a pprof profile (" +
                           profile.status().message() + ")");
    }
    profiles.push_back({paths[i], std::move(*profile)});
  }
  return MergeProfiles(profiles);
}

}  // namespace

std::string MergeHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunMergeCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  MergeSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                             &settings, &cl, out, err)) {
    return *done;
  }
  std::vector<std::string> paths = cl.operands;
  paths.insert(paths.end(), cl.after_separator.begin(), cl.after_separator.end());
  if (paths.empty()) return Fail(err, "no input file (see benchprof merge --help)");
  if (settings.out.empty()) return Fail(err, "-o FILE is required (see benchprof merge --help)");
  std::vector<NamedPath> named = {{"-o", settings.out}};
  for (const std::string& path : paths) named.push_back({"input", path});
  if (Status distinct = CheckDistinctFiles(named); !distinct.ok()) {
    return Fail(err, distinct.message());
  }
  StatusOr<AtomicFile> output = AtomicFile::Create(settings.out);
  if (!output.ok()) return Fail(err, "-o: " + output.status().message());

  StatusOr<std::string> first = ReadWholeFile(paths[0], encode::kMaxProfileBytes);
  if (!first.ok()) return Fail(err, first.status().message());
  if (LooksLikeJson(*first)) {
    StatusOr<std::string> merged = MergeResultFiles(paths, std::move(*first), settings.results);
    if (!merged.ok()) return Fail(err, merged.status().message());
    if (Status written = output->WriteAndCommit(*merged); !written.ok()) {
      return Fail(err, written.message());
    }
    err += "benchprof merge: " + std::to_string(paths.size()) + " result files into " +
           tools::OneLine(settings.out) + "\n";
    return kExitOk;
  }
  StatusOr<encode::ProfileData> merged = MergeProfileFiles(paths, std::move(*first));
  if (!merged.ok()) return Fail(err, merged.status().message());
  if (Status written = encode::WriteProfileFile(*merged, output->temp_path()); !written.ok()) {
    return Fail(err, settings.out + ": " + written.message());
  }
  if (Status committed = output->Commit(); !committed.ok()) return Fail(err, committed.message());
  err += "benchprof merge: " + std::to_string(paths.size()) + " profiles into " +
         tools::OneLine(settings.out) + " (" + std::to_string(merged->samples.size()) +
         " samples)\n";
  return kExitOk;
}

}  // namespace benchprof::merge
