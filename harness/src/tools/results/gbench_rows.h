// The "benchmarks" array of a Google Benchmark JSON file, read row by row
// from the token stream into GbenchRows (gbench_json.h reads the rest of
// the document): each row's known members checked and typed, every other
// numeric member a counter, and only the current row's members held.
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_TOOLS_RESULTS_GBENCH_ROWS_H_
#define BENCHPROF_TOOLS_RESULTS_GBENCH_ROWS_H_

#include <string_view>
#include <vector>

#include "common/json_tokenizer.h"
#include "common/json_value.h"
#include "common/status.h"
#include "tools/results/gbench_json.h"

namespace benchprof::results {

// Reads the rows of the array whose '[' `tokens` just returned, through its
// ']', appending them to `rows`. The first row's problem goes to `problem`
// (and `rows` is cleared); the rest of the array is then only checked as
// JSON. Fails only on the JSON itself.
Status ReadRows(json::Tokenizer& tokens, std::vector<GbenchRow>& rows, Status& problem);

// The kind of value whose first token is `first`.
json::Kind KindOfFirstToken(json::Token first);

// `<where>: "<key>" is a <kind>, expected <expected>`: the error of a
// member of the wrong kind.
Status WrongKindError(std::string_view where, std::string_view key, json::Kind kind,
                      std::string_view expected);

}  // namespace benchprof::results

#endif  // BENCHPROF_TOOLS_RESULTS_GBENCH_ROWS_H_
