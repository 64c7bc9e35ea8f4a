#include "tools/convert/convert_command.h"

#include <optional>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "tools/convert/go_format_writer.h"
#include "tools/results/gbench_json.h"
#include "tools/results/result_reader.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::convert {

using results::GbenchResults;
using results::ReadGbenchFile;
using tools::kExitBadInput;
using tools::kExitOk;
using tools::OneLine;

namespace {

constexpr std::string_view kProgram = "benchprof convert";

constexpr std::string_view kIntro =
    R"(Usage: benchprof convert [--to=go] [--out=FILE] [--assume-exact] FILE...

Converts Google Benchmark JSON (--benchmark_out=FILE --benchmark_out_format=json)
to Go benchmark text, which benchstat and other Go tools read. Each raw
repetition becomes one line, e.g.

  BenchmarkBM_Foo/8-2  123456  863.6 ns/op  812.0 cpu-ns/op  37 B/op  2 allocs/op

Names: "threads:N" becomes the "-N" suffix (none for 1), "key:value" parts
become "key=value", "real_time"/"manual_time" become "time=real"/"time=manual",
"process_time" becomes "cpu=process", spaces become '_'. ns/op is real_time,
cpu-ns/op is cpu_time; user counters follow as "<value> <name>", then B/op and
allocs/op. Failed repetitions (SkipWithError), skipped ones (SkipWithMessage)
and aggregates (_mean, _median, ...) are left out, the first two with a
warning; a benchmark with only aggregates contributes its median, with a
warning. Google Benchmark 1.7.1 to 1.9.x files are read.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "converted (warnings, if any, on standard error)"},
    {kExitBadInput, "bad input: an unreadable or malformed file, or a bad flag"},
};

// What the flags set.
struct ConvertSettings {
  GoFormatOptions options;
  std::string out_path;  // empty: standard output
};

// Declares convert's flags in `flags`, bound to `*settings`.
void DeclareFlags(FlagSet& flags, ConvertSettings* settings) {
  flags.Custom(
      "to", "go",
      [](std::string_view value) {
        return value == "go" ? std::string() : std::string("the only output format is go");
      },
      "the output format (the only one)");
  flags.File("out", &settings->out_path, "write to FILE (atomically) instead of standard output");
  flags.Bool("assume-exact", &settings->options.assume_exact,
             "add \"Unit U assume=exact\" for allocs/op, B/op and instructions/op (those "
             "present), so benchstat compares them exactly");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

}  // namespace

std::string ConvertHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunConvertCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  ConvertSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                              &settings, &cl, out, err)) {
    return *done;
  }
  const std::string& out_path = settings.out_path;
  std::vector<std::string> files = cl.operands;
  files.insert(files.end(), cl.after_separator.begin(), cl.after_separator.end());
  if (files.empty()) return Fail(err, "no input file (see benchprof convert --help)");

  std::optional<AtomicFile> output;
  if (!out_path.empty()) {
    std::vector<NamedPath> named = {{"--out", out_path}};
    for (const std::string& path : files) named.push_back({"input", path});
    if (Status distinct = CheckDistinctFiles(named); !distinct.ok()) {
      return Fail(err, distinct.message());
    }
    StatusOr<AtomicFile> file = AtomicFile::Create(out_path);
    if (!file.ok()) return Fail(err, "--out: " + file.status().message());
    output.emplace(std::move(*file));
  }

  GoTextWriter writer(settings.options);
  for (const std::string& path : files) {
    StatusOr<GbenchResults> results = ReadGbenchFile(path, "Go benchmark text needs no conversion");
    if (!results.ok()) return Fail(err, results.status().message());
    if (results->rows.empty()) return Fail(err, path + ": no benchmark results");
    writer.Add(path, *results);
  }
  for (const std::string& w : writer.warnings()) {
    err += "benchprof convert: warning: " + OneLine(w) + "\n";
  }
  const std::string text = writer.Finish();
  if (!output) {
    out += text;
    return kExitOk;
  }
  if (Status s = output->WriteAndCommit(text); !s.ok()) return Fail(err, s.message());
  return kExitOk;
}

}  // namespace benchprof::convert
