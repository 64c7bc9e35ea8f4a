#include "rss/freq_flags.h"

#include <functional>
#include <string_view>

namespace benchprof::rss {
namespace {

constexpr std::string_view kIntro = R"(Usage: rss-search [flags]

Searches a synthetic RSS corpus for a topic the way Go's trace.go case study
does (open, read, decode the XML, count items whose title or description
contains the topic) and prints the hits and the elapsed time, e.g.
  Searching 4000 files, found president 28000 times.

)";

constexpr std::string_view kVariants = R"(
Variants:
  sequential  one loop on this thread (Go: freq)
  concurrent  one thread per document (freqConcurrent)
  semaphore   one thread per document, --workers at a time
              (freqConcurrentSem)
  pool        --workers threads fed by a channel (freqProcessors)
  pool_tasks  the pool, annotated with trace tasks and regions
              (freqProcessorsTasks)
  pipeline    open -> read -> decode -> search, a thread each
              (freqActor)

The default corpus has 7 hits of "president" per document (28000 in 4000).

)";

// A value that must not be empty, stored in `*target`.
std::function<std::string(std::string_view)> NonEmpty(std::string* target,
                                                      std::string_view expected) {
  return [target, message = std::string(expected)](std::string_view value) {
    if (value.empty()) return message;
    *target = value;
    return std::string();
  };
}

// Declares rss-search's flags in `flags`, bound to `*settings` and, for
// --distinct, `*distinct`; the help lines are those docs/workloads.md documents.
void DeclareFlags(FlagSet& flags, FreqFlags* settings, bool* distinct) {
  flags.Custom(
      "variant", "NAME",
      [settings](std::string_view value) {
        const std::optional<Variant> variant = ParseVariant(value);
        if (!variant) return "expected one of " + std::string(kVariantNames);
        settings->variant = *variant;
        return std::string();
      },
      "how the documents are spread over threads (default sequential): " +
          std::string(kVariantNames) + " (see Variants below)");
  flags.Int("documents", "N", 1, kMaxCliDocuments, &settings->documents,
            "documents to search, 1.." + std::to_string(kMaxCliDocuments) + " (default " +
                std::to_string(kDefaultDocuments) + ")");
  flags.Custom(
      "mode", "MODE",
      [settings](std::string_view value) {
        if (value == "disk") {
          settings->storage = Storage::kDisk;
        } else if (value == "memory") {
          settings->storage = Storage::kMemory;
        } else {
          return std::string("expected disk or memory");
        }
        return std::string();
      },
      "disk: read files (default); memory: no file I/O");
  flags.Bool("distinct", distinct,
             "one generated file per document; by default every document is the same file, "
             "newsfeed.xml, as in the Go program");
  flags.Custom("topic", "WORD", NonEmpty(&settings->topic, "expected a word to search for"),
               "what to search for, case-sensitive (default " + std::string(kDefaultTopic) + ")");
  flags.Int("workers", "N", 1, kMaxWorkers, &settings->workers,
            "parallelism of semaphore, pool and pool_tasks (default: the hardware's thread "
            "count)");
  flags.Uint64("seed", "N", &settings->seed, "the corpus generator's seed (default 0x5EED5EED)");
  flags.Custom("dir", "DIR", NonEmpty(&settings->directory, "expected a directory name"),
               "write the corpus into DIR and keep it (default: a temporary directory, removed "
               "at exit)");
}

}  // namespace

std::optional<FreqFlags> ParseFreqFlags(std::span<const char* const> args, std::string* error) {
  FreqFlags settings;
  bool distinct = false;
  FlagSet flags("rss-search");
  DeclareFlags(flags, &settings, &distinct);
  if (!flags.ParseFlagsOnly(args, &settings.help, error)) return std::nullopt;
  if (settings.help) return settings;
  settings.layout = distinct ? Layout::kFilePerDocument : Layout::kSharedFile;
  // --workers is 0 unless given.
  if (settings.workers != 0 && !UsesWorkers(settings.variant)) {
    *error = "--workers=" + std::to_string(settings.workers) + ": the " +
             std::string(VariantName(settings.variant)) +
             " variant has no worker count (only semaphore, pool and pool_tasks)";
    return std::nullopt;
  }
  if (!settings.directory.empty() && settings.storage == Storage::kMemory) {
    *error = "--dir=" + settings.directory + ": only with --mode=disk";
    return std::nullopt;
  }
  return settings;
}

std::string FreqUsage() {
  FreqFlags unused;
  bool unused_distinct = false;
  FlagSet flags("rss-search");
  DeclareFlags(flags, &unused, &unused_distinct);
  return std::string(kIntro) + "Flags:\n" + flags.Usage() + std::string(kVariants) +
         FormatExitCodes(kFreqExitCodes);
}

}  // namespace benchprof::rss
