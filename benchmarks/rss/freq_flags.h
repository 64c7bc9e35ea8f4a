// The rss-search CLI's command line: flags, defaults, validation, help and
// exit codes, in the convention of every benchprof program
// (<benchprof/flags.h>).
//
//   rss-search --variant=pool --documents=4000 --mode=disk --topic=president
//              --workers=2 --distinct --dir=/tmp/feeds --seed=1
//
// Every flag takes `--name=value` or `--name value` (one dash works too). A
// bad command line gets one line naming the argument and the problem.
//
// Example:
//   std::string error;
//   std::optional<FreqFlags> flags = ParseFreqFlags(args, &error);
//   if (!flags) { std::cerr << "rss-search: " << error << "\n"; return kExitUsage; }
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_BENCHMARKS_RSS_FREQ_FLAGS_H_
#define BENCHPROF_BENCHMARKS_RSS_FREQ_FLAGS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "benchprof/flags.h"
#include "rss/corpus.h"
#include "rss/document_set.h"
#include "rss/freq.h"

namespace benchprof::rss {

struct FreqFlags {
  Variant variant = Variant::kSequential;
  int documents = kDefaultDocuments;
  Storage storage = Storage::kDisk;
  Layout layout = Layout::kSharedFile;
  std::string topic = std::string(kDefaultTopic);
  int workers = 0;  // 0: DefaultWorkers()
  uint64_t seed = kDefaultSeed;
  std::string directory;  // empty: a temporary directory, removed at exit
  bool help = false;
};

// The largest accepted --documents and --workers.
inline constexpr int kMaxCliDocuments = 100000;
inline constexpr int kMaxWorkers = 1024;

// The exit codes, as --help lists them.
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr ExitCodeInfo kFreqExitCodes[] = {
    {0, "success"},
    {kExitFailed, "a document failed (one line names the first)"},
    {kExitUsage, "bad command line"},
};

// Parses the arguments after the program name. On a bad command line returns
// nothing and sets `*error` to one line (no program name, no newline).
std::optional<FreqFlags> ParseFreqFlags(std::span<const char* const> args, std::string* error);

// The --help text.
std::string FreqUsage();

}  // namespace benchprof::rss

#endif  // BENCHPROF_BENCHMARKS_RSS_FREQ_FLAGS_H_
