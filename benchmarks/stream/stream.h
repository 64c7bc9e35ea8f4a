// The "Elvis" stream workload: streaming find/replace, ported from the Go
// profiling tutorial (ardanlabs/gotraining, topics/go/profiling/memcpu).
//
// Replace every occurrence of `find` with `repl` in a byte stream without
// buffering the whole stream first. Matching is case-sensitive, leftmost and
// non-overlapping: after a match, matching restarts right after it. An empty
// `find` copies the input unchanged. Two implementations are kept on purpose:
// algOne is the naive one (virtual byte reads, a sliding window, two heap
// allocations per call) and algTwo the fast one (no allocations), so a profile
// of the benchmarks has something to explain. They keep the Go original's
// names, against the house style, so that the case study's commands work as
// written: `go tool pprof -list algOne mem.pprof`.
//
// Example:
//   std::string out;
//   algTwo("abcelvis", "elvis", "Elvis", out);  // out == "abcElvis"
//
// Thread-safety: all functions are thread-safe; each call touches only its
// arguments, and concurrent calls must not share `output`.

#ifndef BENCHPROF_BENCHMARKS_STREAM_STREAM_H_
#define BENCHPROF_BENCHMARKS_STREAM_STREAM_H_

#include <span>
#include <string>
#include <string_view>

namespace benchprof::stream {

// Naive streaming replace, mirroring Go's algOne: reads `data` one byte at a
// time through a heap-allocated Reader (byte_reader.h) into a heap window of
// `find.size()` bytes, compares the whole window with `find` on every byte and
// shifts it left with memmove. Appends the result to `output` (existing
// content is kept). Makes exactly two heap allocations when `find` is
// non-empty and none when it is empty; writes to `output` allocate only if its
// capacity is too small.
void algOne(std::string_view data, std::string_view find, std::string_view repl,
            std::string& output);

// Fast streaming replace: reads `data` byte by byte through a stack reader and
// tracks how much of `find` has matched, falling back KMP-style (without a
// table) on a mismatch so self-overlapping patterns such as "aab" are handled,
// and flushing a partial match at the end of the stream. Appends the result to
// `output` (existing content is kept). Never allocates, apart from growing
// `output` when its capacity is too small.
void algTwo(std::string_view data, std::string_view find, std::string_view repl,
            std::string& output);

// One row of the tutorial's data table: `output` is what replacing "elvis"
// with "Elvis" must produce from `input`.
struct StreamCase {
  std::string_view input;
  std::string_view output;
};

// The tutorial's 13 test rows, in order. The views point at static storage.
std::span<const StreamCase> DataTable();

// All DataTable() inputs concatenated in order with no separator (119 bytes):
// the stream the benchmarks run on.
std::string AssembleInputStream();

// All DataTable() outputs concatenated in order with no separator (119
// bytes): the expected result of replacing "elvis" in AssembleInputStream().
std::string AssembleOutputStream();

}  // namespace benchprof::stream

#endif  // BENCHPROF_BENCHMARKS_STREAM_STREAM_H_
