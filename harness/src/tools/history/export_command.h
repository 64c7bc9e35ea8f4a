// `benchprof history export`: every stored value of the matching series, as
// CSV or JSON, for other tools (spreadsheets, pandas, Apache Otava).
//
// One row per run x benchmark x metric, in series order (benchmark, metric,
// testbed, branch), runs in ancestry order. Columns (CSV, RFC 4180: a header
// line, fields quoted when they hold a comma, a quote or a line break, CRLF
// line ends) and members (JSON: an array of objects):
//   time        the commit's committer time (else the recording time), RFC 3339 UTC
//   commit      the full hash
//   branch, testbed, benchmark, metric, unit
//   run         the run's id in this database
//   n           repetitions
//   median      their median
//   values      the raw repetitions in the order they ran (CSV: separated by
//               spaces; JSON: an array), shortest decimal text that reads back
//               the same double; JSON writes a non-finite value as null
//
//   std::string out, err;
//   RunExportCommand({"--format=csv", "BM_Foo$", "--metric=cpu_time"}, out, err);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_HISTORY_EXPORT_COMMAND_H_
#define BENCHPROF_TOOLS_HISTORY_EXPORT_COMMAND_H_

#include <map>
#include <string>
#include <vector>

#include "tools/history/history_store.h"

namespace benchprof::history {

// The text of `benchprof history export --help`.
std::string ExportHelp();

// Runs `benchprof history export` with `args` (after "export"); returns 0, 3 or 4.
int RunExportCommand(const std::vector<std::string>& args, std::string& out, std::string& err);

// The export of `series` as CSV or JSON (`json` false: CSV); `commits`
// gives the commit times (a commit absent there takes the recording time).
std::string ExportSeries(const std::vector<Series>& series,
                         const std::map<std::string, CommitInfo>& commits, bool json);

// `field` as one RFC 4180 CSV field: quoted (quotes doubled) when it holds
// a comma, a quote, CR or LF, or begins or ends with a space; the bytes are
// kept as they are (a name is data, and a reader gets it back exactly).
std::string CsvField(const std::string& field);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_EXPORT_COMMAND_H_
