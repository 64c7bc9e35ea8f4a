// Spelling and value parsing shared by benchmark and harness flags.
//
// Flags are `--name`, `--name=value`, or Go's single-dash forms `-name` and
// `-name=value` (NormalizeDashes turns the latter into the former). Value
// parsers are strict: the whole text must be consumed, and they never change
// anything on failure.
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_CLI_FLAG_VALUES_H_
#define BENCHPROF_CLI_FLAG_VALUES_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

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

// true/false, yes/no, on/off, 1/0, t/f, y/n in any case.
StatusOr<bool> ParseBool(std::string_view text);

// A decimal integer, optionally signed.
StatusOr<int64_t> ParseInt(std::string_view text);

// A decimal floating-point number (the "C" locale's syntax).
StatusOr<double> ParseDouble(std::string_view text);

// OK if `text` is one of `choices`; else an error listing them.
Status CheckOneOf(std::string_view text, std::initializer_list<std::string_view> choices);

}  // namespace benchprof::cli

#endif  // BENCHPROF_CLI_FLAG_VALUES_H_
