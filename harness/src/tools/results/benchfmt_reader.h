// Reads the Go benchmark text format (`go test -bench` output, what
// benchstat reads; also what `benchprof convert --to=go` writes).
//
// The grammar is golang.org/x/perf's benchfmt:
//   - configuration lines `key: value` (the key starts with a lower-case
//     letter and has no space or upper case; an empty value deletes the key);
//   - result lines `Benchmark<Name> <iterations> <value> <unit> [<value> <unit>]...`;
//   - unit metadata lines `Unit <unit> key=value...` (better=higher|lower,
//     assume=nothing|exact);
//   - every other line (PASS, ok, blank, comments, test logs) is ignored.
// Unlike benchstat, a malformed result line is an error, not a warning: a
// gate must not pass because half of a file was unreadable. So is a last
// result line without its newline: a file cut inside its last unit ("339
// allo") would otherwise read as complete.
//
//   StatusOr<GoBenchText> text = ParseGoBenchText(contents);
//   if (!text.ok()) return text.status().WithContext(path);  // "line 7: missing units"
//   for (const GoBenchResult& r : text->results) ... r.name, r.values ...
//
// Thread-safety: thread-safe (a pure function).
#ifndef BENCHPROF_TOOLS_RESULTS_BENCHFMT_READER_H_
#define BENCHPROF_TOOLS_RESULTS_BENCHFMT_READER_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace benchprof::results {

// One result line.
struct GoBenchResult {
  int line = 0;      // 1-based, for messages
  std::string name;  // without the "Benchmark" prefix, e.g. "Encode/format=json-8"
  int64_t iterations = 0;
  std::vector<std::pair<std::string, double>> values;  // (unit, value) in line order
};

// Metadata given by `Unit` lines.
struct GoUnitInfo {
  std::string better;  // "higher", "lower" or "" (unspecified)
  std::string assume;  // "exact", "nothing" or "" (unspecified)
};

struct GoBenchText {
  std::vector<GoBenchResult> results;
  // The configuration in force at the first result, in first-seen order.
  std::vector<std::pair<std::string, std::string>> config;
  std::map<std::string, GoUnitInfo> units;
};

// Parses a whole file. Fails with "line N: <problem>" on a result line
// without an integer iteration count, without measurements, with a value
// that is not a number or without a unit, or that is the last line and has
// no newline (a cut file), and on a malformed Unit line.
// A file without any result line is not an error here.
StatusOr<GoBenchText> ParseGoBenchText(std::string_view text);

}  // namespace benchprof::results

#endif  // BENCHPROF_TOOLS_RESULTS_BENCHFMT_READER_H_
