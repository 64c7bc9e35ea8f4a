// The fuzz targets: each feeds one reader of untrusted input arbitrary
// bytes and checks what the readers promise for any input — a result or a
// one-line error, never a crash, a hang or an invariant broken.
//
// Each body is built twice: into a libFuzzer binary per target
// (tests/fuzz/libfuzzer_main.cc, preset `fuzz`, run by ci/fuzz), and into
// fuzz_corpus_test, which replays the corpora under tests/fuzz/corpus/ in
// every ordinary and sanitizer build. An input that once crashed a reader is
// kept in its target's corpus, so it stays a regression test.
//
// A broken promise aborts with one line on stderr (FUZZ_CHECK), which both
// libFuzzer and the replay test report as a failure.
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_TESTS_FUZZ_FUZZ_TARGETS_H_
#define BENCHPROF_TESTS_FUZZ_FUZZ_TARGETS_H_

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace benchprof::fuzz {

// Google Benchmark JSON result files: ParseGbenchJson, the sample rows, the
// result model, a comparison of the file against itself with its three
// reports, and `convert`'s Go text, which the Go text reader must read back.
void GbenchJson(std::string_view data);

// Go benchmark text: ParseGoBenchText, the result model, a comparison of
// the file against itself with its three reports.
void GoText(std::string_view data);

// Chrome trace-event JSON (trace-summary's streaming reader and the
// summary). The first byte picks a chunk size, so that chunk boundaries fall
// everywhere; the outcome must be the same as with one chunk.
void Trace(std::string_view data);

// pprof profiles, gzip-compressed or raw: ReadProfile; a profile that
// reads and validates is written again and must read back.
void Pprof(std::string_view data);

// bench's command line: the arguments are the input split at NUL bytes;
// Google Benchmark flag validation and the harness FlagSet with every
// profile kind's flags, as main() runs them before any benchmark.
void Flags(std::string_view data);

struct Target {
  const char* name;  // also the corpus directory's name
  void (*run)(std::string_view data);
};

inline constexpr Target kTargets[] = {
    {"gbench_json", GbenchJson},
    {"go_text", GoText},
    {"trace", Trace},
    {"pprof", Pprof},
    {"flags", Flags},
};

// Aborts with `what` when a promise is broken.
#define FUZZ_CHECK(condition, what)                                                \
  do {                                                                             \
    if (!(condition)) {                                                            \
      std::fprintf(stderr, "fuzz check failed at %s:%d: %s\n", __FILE__, __LINE__, \
                   static_cast<const char*>(what));                                \
      std::abort();                                                                \
    }                                                                              \
  } while (false)

}  // namespace benchprof::fuzz

#endif  // BENCHPROF_TESTS_FUZZ_FUZZ_TARGETS_H_
