// The one number parser of every benchprof command line: whole numbers,
// decimal numbers and booleans, strict (the whole text must be one number,
// with no space, suffix or locale-dependent separator) and never throwing.
//
//   ParseInteger("0x10", IntegerSyntax::kDecimalOrHex)  // 16
//   ParseInteger("0x10", IntegerSyntax::kDecimal)       // nothing
//   ParseNumber("2e-3")                                  // 0.002
//   ParseBool("off")                                     // false
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_COMMON_NUMBER_PARSER_H_
#define BENCHPROF_COMMON_NUMBER_PARSER_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace benchprof {

// Which spellings of a whole number are accepted. benchprof's own flags take
// Go's (decimal or 0x hexadecimal); Google Benchmark's flags take what the
// library itself parses (decimal only).
enum class IntegerSyntax { kDecimal, kDecimalOrHex };

// A whole number with an optional '+' or '-' sign; nothing if `text` is not
// one or does not fit.
std::optional<int64_t> ParseInteger(std::string_view text,
                                    IntegerSyntax syntax = IntegerSyntax::kDecimalOrHex);

// A whole number from 0 to 2^64 - 1, without a sign.
std::optional<uint64_t> ParseUnsigned(std::string_view text,
                                      IntegerSyntax syntax = IntegerSyntax::kDecimalOrHex);

// A finite decimal number in the "C" locale's syntax, optionally signed
// ("0.5", "+0.5", "-3", "2e-3"); nothing for infinities, NaN, hexadecimal
// floats and anything else.
std::optional<double> ParseNumber(std::string_view text);

// true/false, yes/no, on/off, 1/0, t/f, y/n in any case.
std::optional<bool> ParseBool(std::string_view text);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_NUMBER_PARSER_H_
