// How bench's arguments are spelled before anyone parses them: Google
// Benchmark's flags are `--name` or `--name=value`, and Go's single-dash
// forms `-name` and `-name=value` work too (NormalizeDashes turns them into
// the double-dash forms the library reads).
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_CLI_FLAG_SPELLING_H_
#define BENCHPROF_CLI_FLAG_SPELLING_H_

#include <optional>
#include <string>
#include <string_view>

namespace benchprof::cli {

// A flag argument split at its first '='.
struct FlagSpelling {
  std::string_view name;                  // without the leading dashes
  std::optional<std::string_view> value;  // absent when there is no '='
};

// Splits `--name=value`. REQUIRES: arg starts with "--".
FlagSpelling SplitFlag(std::string_view arg);

// Go's flag package accepts `-name` for `--name`; so do we. Returns `arg`
// with a second dash when it is a single-dash word flag, else `arg` unchanged
// ("-", "--", "--x", "-5" and non-flags stay as they are).
std::string NormalizeDashes(std::string_view arg);

}  // namespace benchprof::cli

#endif  // BENCHPROF_CLI_FLAG_SPELLING_H_
