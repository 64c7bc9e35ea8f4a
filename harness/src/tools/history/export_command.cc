#include "tools/history/export_command.h"

#include <charconv>
#include <cmath>
#include <ctime>
#include <memory>
#include <optional>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/json_value.h"
#include "tools/history/database.h"
#include "tools/history/store_flags.h"
#include "tools/tool_command.h"

namespace benchprof::history {
namespace {

using tools::kExitBadInput;
using tools::kExitOk;

constexpr std::string_view kProgram = "benchprof history export";

constexpr std::string_view kIntro =
    R"(Usage: benchprof history export --format=csv|json [--db=LOCATION] [-o FILE]
         [--metric=NAME] [--branch=NAME] [--testbed=NAME] [PATTERN]

Writes every stored value of the series whose benchmark name PATTERN matches
(every benchmark if none) to standard output, or atomically to FILE: one row
per run x benchmark x metric, series by series, runs in git ancestry order.
Columns: time (the commit's committer time, else the recording time, RFC 3339
UTC), commit, branch, testbed, benchmark, metric, unit, run, n, median, values
(the raw repetitions in the order they ran; in CSV separated by spaces). CSV
follows RFC 4180; JSON is an array of objects with the same members (values an
array, a non-finite value null). Apache Otava reads the CSV of one series
(one PATTERN and --metric): its time column is "time", its metric "median",
its attribute "commit".

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "written (nothing but the header when no series matches)"},
    {kExitBadInput,
     "bad input: a bad flag or pattern, an unwritable -o, no database there, a file that is "
     "not a history database or is of a newer schema"},
    {kExitDatabaseUnavailable, kStoreUnavailableMeaning},
};

struct ExportSettings {
  StoreFlags store;
  SeriesFilterFlags filter;
  std::string format;
  std::string out_path;
};

void DeclareFlags(FlagSet& flags, ExportSettings* s) {
  DeclareStoreFlags(flags, &s->store);
  DeclareSeriesFilterFlags(flags, &s->filter);
  flags.Choice("format", {"csv", "json"}, &s->format, "the output format (required)");
  flags.File("o", &s->out_path, "write to FILE (atomically) instead of standard output");
}

std::string Rfc3339(int64_t ns) {
  const std::time_t seconds = static_cast<std::time_t>(ns / 1'000'000'000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// The shortest decimal that reads back as `v` ("nan", "inf", "-inf" for the
// non-finite).
std::string Number(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, result.ptr);
}

}  // namespace

std::string CsvField(const std::string& field) {
  const bool quote = field.find_first_of(",\"\r\n") != std::string::npos ||
                     (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!quote) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string ExportSeries(const std::vector<Series>& series,
                         const std::map<std::string, CommitInfo>& commits, bool json) {
  std::string out =
      json ? "[" : "time,commit,branch,testbed,benchmark,metric,unit,run,n,median,values\r\n";
  bool first = true;
  for (const Series& s : series) {
    for (const SeriesPoint& p : s.points) {
      const auto c = commits.find(p.commit);
      const std::string time = Rfc3339(c != commits.end() && c->second.committer_time_ns != 0
                                           ? c->second.committer_time_ns
                                           : p.recorded_at_ns);
      if (json) {
        out += first ? "\n" : ",\n";
        out += "{\"time\":\"" + time + "\",\"commit\":";
        json::AppendQuoted(out, p.commit);
        out += ",\"branch\":";
        json::AppendQuoted(out, s.key.branch);
        out += ",\"testbed\":";
        json::AppendQuoted(out, s.key.testbed);
        out += ",\"benchmark\":";
        json::AppendQuoted(out, s.key.benchmark);
        out += ",\"metric\":";
        json::AppendQuoted(out, s.key.metric);
        out += ",\"unit\":";
        json::AppendQuoted(out, s.info.unit);
        out += ",\"run\":" + std::to_string(p.run_id) +
               ",\"n\":" + std::to_string(p.values.size()) +
               ",\"median\":" + (std::isfinite(p.median) ? Number(p.median) : "null") +
               ",\"values\":[";
        for (size_t i = 0; i < p.values.size(); ++i) {
          if (i > 0) out += ',';
          out += std::isfinite(p.values[i]) ? Number(p.values[i]) : "null";
        }
        out += "]}";
      } else {
        std::string values;
        for (size_t i = 0; i < p.values.size(); ++i) {
          if (i > 0) values += ' ';
          values += Number(p.values[i]);
        }
        out += time + "," + CsvField(p.commit) + "," + CsvField(s.key.branch) + "," +
               CsvField(s.key.testbed) + "," + CsvField(s.key.benchmark) + "," +
               CsvField(s.key.metric) + "," + CsvField(s.info.unit) + "," +
               std::to_string(p.run_id) + "," + std::to_string(p.values.size()) + "," +
               Number(p.median) + "," + values + "\r\n";
      }
      first = false;
    }
  }
  if (json) out += first ? "]\n" : "\n]\n";
  return out;
}

std::string ExportHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunExportCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  ExportSettings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                             &settings, &cl, out, err)) {
    return *done;
  }
  if (settings.format.empty()) {
    return tools::Fail(err, kProgram, "--format=csv or --format=json is required");
  }
  StatusOr<SeriesSelection> selection = SelectSeries(kProgram, cl, settings.filter);
  if (!selection.ok()) return tools::Fail(err, kProgram, selection.status().message());

  // The output first: an unwritable path is reported before the work.
  std::optional<AtomicFile> output;
  if (!settings.out_path.empty()) {
    StatusOr<AtomicFile> file = AtomicFile::Create(settings.out_path);
    if (!file.ok()) return tools::Fail(err, kProgram, "-o: " + file.status().message());
    output.emplace(std::move(*file));
  }
  std::unique_ptr<HistoryStore> store;
  SelectedSeries selected;
  if (int code = LoadSelectedSeries(kProgram, settings.store, *selection, /*required=*/false,
                                    &store, &selected, err)) {
    return code;
  }
  const std::string text =
      ExportSeries(selected.series, selected.commits, settings.format == "json");
  if (!output) {
    out += text;
    return kExitOk;
  }
  if (Status s = output->WriteAndCommit(text); !s.ok()) {
    return tools::Fail(err, kProgram, "-o: " + s.message());
  }
  return kExitOk;
}

}  // namespace benchprof::history
