// The newsfeed search of Go's execution-tracing case study (trace.go): count
// the documents' items that mention a topic, in six ways that do the same
// work per document and differ only in how they spread it over threads.
//
// Per document, every variant does what the Go program does: open the file,
// read it all, close it, decode the XML into item structs (feed_parser.h)
// and apply the hit rule (feed.h). Decoding dominates: the file is in the
// page cache.
//
//   variant      Go original          what it does
//   sequential   freq                 one loop on the calling thread
//   concurrent   freqConcurrent       one thread per document, all at once
//   semaphore    freqConcurrentSem    the same, at most `workers` working
//                                     (std::counting_semaphore)
//   pool         freqProcessors       `workers` threads fed document indices
//                                     by a channel (Go's held GOMAXPROCS;
//                                     ours 64, see kPoolBuffer in freq.cc)
//   pool_tasks   freqProcessorsTasks  the pool, each document a trace task
//                                     with regions OpenFile, ReadAll,
//                                     Unmarshal and Search (trace.h)
//   pipeline     freqActor            4 threads, one per step (open, read,
//                                     decode, search), linked by channels of
//                                     capacity 100: only as fast as decoding
//
// Go's goroutines are cheap and threads are not: `concurrent` and
// `semaphore` really start one std::thread per document (4000 for the full
// corpus), which is the point of the comparison.
//
// Unlike the originals, a failing document never stops or deadlocks a
// variant (Go's freq returned 0, its worker pool could block forever and its
// semaphore leaked a slot): every variant counts the failure, keeps going,
// and reports the first failing document (by index) in FreqResult.
//
// Example:
//   FreqResult r = Freq(Variant::kPool, set, "president");
//   std::printf("Searching %zu files, found president %lld times.\n", set.size(), r.hits);
//
// Thread-safety: thread-safe; each call starts and joins its own threads.
#ifndef BENCHPROF_BENCHMARKS_RSS_FREQ_H_
#define BENCHPROF_BENCHMARKS_RSS_FREQ_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rss/document_set.h"

namespace benchprof::rss {

enum class Variant { kSequential, kConcurrent, kSemaphore, kPool, kPoolTasks, kPipeline };

inline constexpr std::array<Variant, 6> kAllVariants = {Variant::kSequential, Variant::kConcurrent,
                                                        Variant::kSemaphore,  Variant::kPool,
                                                        Variant::kPoolTasks,  Variant::kPipeline};
inline constexpr std::string_view kVariantNames =
    "sequential, concurrent, semaphore, pool, pool_tasks, pipeline";

// "sequential", "concurrent", "semaphore", "pool", "pool_tasks", "pipeline".
std::string_view VariantName(Variant variant);

// The variant named `name` (as VariantName() spells it), if any.
std::optional<Variant> ParseVariant(std::string_view name);

// True for the variants whose parallelism `workers` sets.
bool UsesWorkers(Variant variant);

// The parallelism of the bounded variants by default, Go's GOMAXPROCS(0):
// std::thread::hardware_concurrency(), at least 1.
int DefaultWorkers();

struct FreqResult {
  int64_t hits = 0;
  // Documents that could not be opened, read or decoded (or whose thread
  // could not be started); their hits are not counted.
  int64_t failed_documents = 0;
  // The failure of the lowest-numbered failing document, one line:
  // "newsfeed-0042.xml: decoding: line 3, column 7: mismatched tag"; "" if none.
  std::string first_error;
};

// Searches every document of `set` for `topic` (case-sensitive) with
// `variant`. `workers` is the parallelism of semaphore, pool and pool_tasks
// (0 or less: DefaultWorkers()); the other variants ignore it.
FreqResult Freq(Variant variant, const DocumentSet& set, std::string_view topic, int workers = 0);

// One document's work as every variant does it: open, read, decode, count.
// Returns the document's hits, or nothing with `*error` set to the failed
// step and its error ("decoding: line 3, column 7: ...").
std::optional<int> SearchDocument(const DocumentSet& set, size_t index, std::string_view topic,
                                  std::string* error);

// SearchDocument() annotated for the execution trace, as
// freqProcessorsTasks is: a task of type "document" (its log message
// "document" names the file) holding four regions, OpenFile, ReadAll,
// Unmarshal and Search. Same results as SearchDocument().
std::optional<int> SearchDocumentTraced(const DocumentSet& set, size_t index,
                                        std::string_view topic, std::string* error);

}  // namespace benchprof::rss

#endif  // BENCHPROF_BENCHMARKS_RSS_FREQ_H_
