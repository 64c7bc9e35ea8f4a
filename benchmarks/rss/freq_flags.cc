#include "rss/freq_flags.h"

#include <charconv>
#include <limits>
#include <string_view>

namespace benchprof::rss {
namespace {

// A whole integer in [min, max], decimal or (with 0x) hexadecimal.
template <typename Int>
std::optional<Int> ParseInteger(std::string_view text, Int min, Int max) {
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    text.remove_prefix(2);
    base = 16;
  }
  Int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<FreqFlags> ParseFreqFlags(std::span<const char* const> args, std::string* error) {
  FreqFlags flags;
  bool workers_given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (!arg.starts_with("-") || arg == "-" || arg == "--") {
      *error = "unexpected argument '" + std::string(arg) + "' (flags start with --)";
      return std::nullopt;
    }
    arg.remove_prefix(arg.starts_with("--") ? 2 : 1);
    std::string_view name = arg;
    std::optional<std::string_view> value;
    if (const size_t eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    const std::string flag = "--" + std::string(name);

    if (name == "help" || name == "h") {
      flags.help = true;
      continue;
    }
    if (name == "distinct") {
      if (value && *value != "true" && *value != "false") {
        *error = flag + ": want true or false, got '" + std::string(*value) + "'";
        return std::nullopt;
      }
      flags.layout = !value || *value == "true" ? Layout::kFilePerDocument : Layout::kSharedFile;
      continue;
    }
    const bool known = name == "variant" || name == "documents" || name == "mode" ||
                       name == "topic" || name == "workers" || name == "seed" || name == "dir";
    if (!known) {
      *error = "unknown flag " + flag + " (see --help)";
      return std::nullopt;
    }
    if (!value) {
      if (i + 1 >= args.size()) {
        *error = flag + " needs a value";
        return std::nullopt;
      }
      value = args[++i];
    }

    if (name == "variant") {
      const std::optional<Variant> variant = ParseVariant(*value);
      if (!variant) {
        *error = flag + ": unknown variant '" + std::string(*value) + "' (one of " +
                 std::string(kVariantNames) + ")";
        return std::nullopt;
      }
      flags.variant = *variant;
    } else if (name == "documents") {
      const std::optional<int> documents = ParseInteger(*value, 1, kMaxCliDocuments);
      if (!documents) {
        *error = flag + ": want a whole number from 1 to " + std::to_string(kMaxCliDocuments) +
                 ", got '" + std::string(*value) + "'";
        return std::nullopt;
      }
      flags.documents = *documents;
    } else if (name == "mode") {
      if (*value == "disk") {
        flags.storage = Storage::kDisk;
      } else if (*value == "memory") {
        flags.storage = Storage::kMemory;
      } else {
        *error = flag + ": want disk or memory, got '" + std::string(*value) + "'";
        return std::nullopt;
      }
    } else if (name == "topic") {
      if (value->empty()) {
        *error = flag + ": must not be empty";
        return std::nullopt;
      }
      flags.topic = *value;
    } else if (name == "workers") {
      const std::optional<int> workers = ParseInteger(*value, 1, kMaxWorkers);
      if (!workers) {
        *error = flag + ": want a whole number from 1 to " + std::to_string(kMaxWorkers) +
                 ", got '" + std::string(*value) + "'";
        return std::nullopt;
      }
      flags.workers = *workers;
      workers_given = true;
    } else if (name == "seed") {
      const std::optional<uint64_t> seed =
          ParseInteger<uint64_t>(*value, 0, std::numeric_limits<uint64_t>::max());
      if (!seed) {
        *error = flag + ": want a whole number, got '" + std::string(*value) + "'";
        return std::nullopt;
      }
      flags.seed = *seed;
    } else if (name == "dir") {
      if (value->empty()) {
        *error = flag + ": must not be empty";
        return std::nullopt;
      }
      flags.directory = *value;
    }
  }
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
