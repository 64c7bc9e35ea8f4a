// Benchmarks for the RSS workload, compiled into bench:
//
//   BM_Freq/<variant>/docs:200[/workers:N]
//       The newsfeed search (freq.h) over 200 documents on disk — one file,
//       newsfeed.xml, read 200 times, as the Go program read its one file
//       4000 times. One iteration searches every document. The threaded
//       variants report real (wall) time: what they change is how long the
//       search takes, not how much CPU it burns; `--trace` shows why.
//   BM_RssSearch/before, BM_RssSearch/after
//       One request of the web service: "president" searched in the 12
//       cached feeds, lower-casing every description per call (before) or
//       searching descriptions lower-cased when cached (after). Compare
//       allocs/op under --benchmem.
//   BM_RssUnmarshal
//       Decoding one document from memory: the unit every Freq variant is
//       made of.
//
//   bench --benchmark_filter=Freq --benchmem
//   bench --benchmark_filter='Freq/sequential' --trace=seq.json
//   bench --benchmark_filter=RssSearch --benchmem
//
// The corpus is written on first use into a temporary directory, which is
// removed when the process exits.

#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "benchprof/files.h"
#include "rss/corpus.h"
#include "rss/document_set.h"
#include "rss/feed.h"
#include "rss/feed_parser.h"
#include "rss/freq.h"
#include "rss/rss_search.h"

namespace benchprof::rss {
namespace {

// ~20-40 ms per sequential iteration on the machines we measured: long
// enough that thread start-up is a small part of the concurrent variants,
// short enough for several iterations per run.
constexpr int kBenchDocuments = 200;

// The benchmark corpus: created once per process, on first use (so runs
// that filter these benchmarks out write nothing), removed at exit.
class BenchCorpus {
 public:
  static const BenchCorpus& Get() {
    static const BenchCorpus corpus;
    return corpus;
  }

  // The documents, or nullptr if they could not be written (see error()).
  const DocumentSet* set() const { return set_ ? &*set_ : nullptr; }
  const std::string& error() const { return error_; }

  ~BenchCorpus() {
    std::error_code ignored;
    if (directory_.empty()) return;
    std::filesystem::remove_all(directory_, ignored);
    KeepOnInterruption(directory_);
  }

 private:
  BenchCorpus() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/bench-rss-XXXXXX";
    // A run interrupted while benchmarks run never reaches the destructor:
    // the directory is registered for removal as it is made.
    const std::string asked = pattern;  // mkdtemp may change it when it fails
    if (!CreateTemporaryDirectory(pattern)) {
      error_ = "cannot create a temporary directory from " + asked + ": " + std::strerror(errno);
      return;
    }
    directory_ = pattern;
    DocumentSetOptions options;
    options.documents = kBenchDocuments;
    options.directory = directory_;
    set_ = DocumentSet::Create(options, &error_);
  }

  std::string directory_;
  std::optional<DocumentSet> set_;
  std::string error_;
};

void BM_Freq(benchmark::State& state, Variant variant, int workers) {
  const BenchCorpus& corpus = BenchCorpus::Get();
  if (corpus.set() == nullptr) {
    state.SkipWithError(corpus.error().c_str());
    return;
  }
  const DocumentSet& set = *corpus.set();
  FreqResult result;
  for (auto _ : state) {
    result = Freq(variant, set, kDefaultTopic, workers);
    benchmark::DoNotOptimize(result.hits);
  }
  // A variant that is fast because it skipped work is not fast.
  if (result.failed_documents > 0) {
    state.SkipWithError(result.first_error.c_str());
  } else if (result.hits != int64_t{kTopicHitsPerDocument} * kBenchDocuments) {
    state.SkipWithError(("wrong hit count " + std::to_string(result.hits)).c_str());
  }
  state.counters["docs/s"] =
      benchmark::Counter(kBenchDocuments, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_RssSearch(benchmark::State& state, SearchVersion version) {
  FeedCache cache(version, &FetchSyntheticFeed);
  std::string error;
  // Every feed cached before timing, as in the measured service.
  if (!SearchAllFeeds(cache, kDefaultTopic, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  size_t results = 0;
  for (auto _ : state) {
    std::optional<std::vector<Result>> found = SearchAllFeeds(cache, kDefaultTopic, &error);
    results = found ? found->size() : 0;
    benchmark::DoNotOptimize(found);
  }
  state.counters["results"] = static_cast<double>(results);
}

void BM_RssUnmarshal(benchmark::State& state) {
  const std::string document = GenerateDocument(kDefaultSeed, 0);
  std::string error;
  Feed feed;
  for (auto _ : state) {
    if (!ParseFeed(document, FeedFields::kTitleAndDescription, &feed, &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    benchmark::DoNotOptimize(feed);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * document.size()));
}

int RegisterRssBenchmarks() {
  for (Variant variant : kAllVariants) {
    std::string name =
        "BM_Freq/" + std::string(VariantName(variant)) + "/docs:" + std::to_string(kBenchDocuments);
    const int workers = UsesWorkers(variant) ? DefaultWorkers() : 0;
    if (workers > 0) name += "/workers:" + std::to_string(workers);
    benchmark::internal::Benchmark* b =
        benchmark::RegisterBenchmark(name.c_str(), BM_Freq, variant, workers);
    b->Unit(benchmark::kMillisecond);
    if (variant != Variant::kSequential) b->UseRealTime();
  }
  for (SearchVersion version : {SearchVersion::kBefore, SearchVersion::kAfter}) {
    const std::string name = "BM_RssSearch/" + std::string(SearchVersionName(version));
    benchmark::RegisterBenchmark(name.c_str(), BM_RssSearch, version);
  }
  benchmark::RegisterBenchmark("BM_RssUnmarshal", BM_RssUnmarshal)->Unit(benchmark::kMicrosecond);
  return 0;
}

const int kRegistered = RegisterRssBenchmarks();

}  // namespace
}  // namespace benchprof::rss
