#include "rss/freq_flags.h"

#include <string_view>

#include "cli/workload_flags.h"

namespace benchprof::rss {

std::optional<FreqFlags> ParseFreqFlags(std::span<const char* const> args, std::string* error) {
  FreqFlags flags;
  bool workers_given = false;
  workload::WorkloadFlagReader reader(
      args, {"help", "h", "distinct"},
      {"variant", "documents", "mode", "topic", "workers", "seed", "dir"});
  workload::WorkloadFlag flag;
  error->clear();
  while (reader.Next(&flag, error)) {
    const std::string_view name = flag.name;
    const std::string_view value = flag.value;
    if (name == "help" || name == "h") {
      flags.help = value == "true";
    } else if (name == "distinct") {
      flags.layout = value == "true" ? Layout::kFilePerDocument : Layout::kSharedFile;
    } else if (name == "variant") {
      const std::optional<Variant> variant = ParseVariant(value);
      if (!variant) {
        *error = workload::UnknownChoice(flag, "variant", kVariantNames);
        return std::nullopt;
      }
      flags.variant = *variant;
    } else if (name == "documents") {
      const std::optional<int64_t> documents =
          workload::ParseWholeNumber(flag, 1, kMaxCliDocuments, error);
      if (!documents) return std::nullopt;
      flags.documents = static_cast<int>(*documents);
    } else if (name == "mode") {
      if (value == "disk") {
        flags.storage = Storage::kDisk;
      } else if (value == "memory") {
        flags.storage = Storage::kMemory;
      } else {
        *error = flag.display + ": want disk or memory, got '" + std::string(value) + "'";
        return std::nullopt;
      }
    } else if (name == "topic" || name == "dir") {
      if (value.empty()) {
        *error = flag.display + ": must not be empty";
        return std::nullopt;
      }
      (name == "topic" ? flags.topic : flags.directory) = value;
    } else if (name == "workers") {
      const std::optional<int64_t> workers =
          workload::ParseWholeNumber(flag, 1, kMaxWorkers, error);
      if (!workers) return std::nullopt;
      flags.workers = static_cast<int>(*workers);
      workers_given = true;
    } else if (name == "seed") {
      const std::optional<uint64_t> seed = workload::ParseUnsigned(flag, error);
      if (!seed) return std::nullopt;
      flags.seed = *seed;
    }
  }
  if (!error->empty()) return std::nullopt;
  if (flags.help) return flags;
  if (workers_given && !UsesWorkers(flags.variant)) {
    *error = "--workers: the " + std::string(VariantName(flags.variant)) +
             " variant has no worker count (only semaphore, pool and pool_tasks)";
    return std::nullopt;
  }
  if (!flags.directory.empty() && flags.storage == Storage::kMemory) {
    *error = "--dir: only with --mode=disk";
    return std::nullopt;
  }
  return flags;
}

std::string FreqUsage() {
  return R"(Usage: rss-search [flags]

Searches a synthetic RSS corpus for a topic the way Go's trace.go case study
does (open, read, decode the XML, count items whose title or description
contains the topic) and prints the hits and the elapsed time, e.g.
  Searching 4000 files, found president 28000 times.

Flags:
  --variant=NAME   how the documents are spread over threads (default sequential):
                     sequential  one loop on this thread (Go: freq)
                     concurrent  one thread per document (freqConcurrent)
                     semaphore   one thread per document, --workers at a time
                                 (freqConcurrentSem)
                     pool        --workers threads fed by a channel (freqProcessors)
                     pool_tasks  the pool, annotated with trace tasks and regions
                                 (freqProcessorsTasks)
                     pipeline    open -> read -> decode -> search, a thread each
                                 (freqActor)
  --documents=N    documents to search, 1..100000 (default 4000)
  --mode=MODE      disk: read files (default); memory: no file I/O
  --distinct       one generated file per document; by default every document
                   is the same file, newsfeed.xml, as in the Go program
  --topic=WORD     what to search for, case-sensitive (default president)
  --workers=N      parallelism of semaphore, pool and pool_tasks
                   (default: the hardware's thread count)
  --seed=N         the corpus generator's seed (default 0x5EED5EED)
  --dir=DIR        write the corpus into DIR and keep it (default: a temporary
                   directory, removed at exit)
  --help           this text

The default corpus has 7 hits of "president" per document (28000 in 4000).
Exit status: 0 on success, 1 if a document failed, 2 on a bad command line.
)";
}

}  // namespace benchprof::rss
