#include "rss/freq.h"

#include <pthread.h>

#include <atomic>
#include <limits>
#include <mutex>
#include <semaphore>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "rss/channel.h"
#include "rss/feed.h"
#include "rss/feed_parser.h"

namespace benchprof::rss {
namespace {

// The Go pipeline's channel capacity.
constexpr size_t kPipelineBuffer = 100;

// The pool's channel capacity. Go's was GOMAXPROCS, and refilled one slot
// at a time, which is cheap for goroutines. For threads it is not: with 2
// workers, the feeder slept and was woken for every document, and the
// wake-ups (a futex, a reschedule, often an IPI) cost the pool 36% more CPU
// than the sequential loop on our machines. A deeper channel that the
// feeder refills only when half empty (Channel's resume_at) wakes it once
// per 32 documents, and the pool's CPU matches the sequential loop's.
constexpr size_t kPoolBuffer = 64;

// Failed documents, collected from any thread. Keeps the lowest-numbered
// failure so that the report does not depend on thread scheduling.
class FailureLog {
 public:
  explicit FailureLog(const DocumentSet& set) : set_(set) {}

  void Record(size_t index, std::string_view error) {
    std::lock_guard lock(mutex_);
    ++count_;
    if (index < first_index_) {
      first_index_ = index;
      first_error_ = set_.name(index) + ": " + std::string(error);
    }
  }

  // Records every document as failed, for a variant that could not run.
  void RecordAll(std::string_view error) {
    for (size_t i = 0; i < set_.size(); ++i) Record(i, error);
  }

  FreqResult Result(int64_t hits) {
    std::lock_guard lock(mutex_);
    return FreqResult{hits, count_, first_error_};
  }

 private:
  const DocumentSet& set_;
  std::mutex mutex_;
  int64_t count_ = 0;
  size_t first_index_ = std::numeric_limits<size_t>::max();
  std::string first_error_;
};

// Names the calling thread (15 characters at most), so that each variant's
// threads are recognisable on their tracks in a `bench --trace` file.
void NameThisThread(const char* name) { pthread_setname_np(pthread_self(), name); }

std::string ThreadStartError(const std::system_error& e) {
  return std::string("cannot start a thread: ") + e.what();
}

using DocumentSearch = std::optional<int> (*)(const DocumentSet&, size_t, std::string_view,
                                              std::string*);

FreqResult Sequential(const DocumentSet& set, std::string_view topic) {
  FailureLog failures(set);
  int64_t found = 0;
  std::string error;
  for (size_t i = 0; i < set.size(); ++i) {
    if (const std::optional<int> hits = SearchDocument(set, i, topic, &error)) {
      found += *hits;
    } else {
      failures.Record(i, error);
    }
  }
  return failures.Result(found);
}

// One thread per document, all started before any is joined. With a
// semaphore, each thread waits for one of its `workers` slots before
// working: the threads exist, but only `workers` of them parse at a time.
FreqResult ThreadPerDocument(const DocumentSet& set, std::string_view topic,
                             std::counting_semaphore<>* slots) {
  FailureLog failures(set);
  std::atomic<int64_t> found{0};
  std::vector<std::thread> threads;
  threads.reserve(set.size());
  for (size_t i = 0; i < set.size(); ++i) {
    try {
      threads.emplace_back([&set, &failures, &found, topic, slots, i] {
        NameThisThread(slots != nullptr ? "rss-semaphore" : "rss-concurrent");
        if (slots != nullptr) slots->acquire();
        std::string error;
        const std::optional<int> hits = SearchDocument(set, i, topic, &error);
        // Released before the count is published, as the Go original's
        // deferred atomic add runs after its `<-ch`; and always released, so
        // a failure cannot leak a slot (the original's bug).
        if (slots != nullptr) slots->release();
        if (hits) {
          found.fetch_add(*hits, std::memory_order_relaxed);
        } else {
          failures.Record(i, error);
        }
      });
    } catch (const std::system_error& e) {
      failures.Record(i, ThreadStartError(e));
    }
  }
  for (std::thread& thread : threads) thread.join();
  return failures.Result(found.load());
}

// `workers` threads take document indices from a channel until it is
// closed. A worker keeps going after a failed document
// (the original's returned, and could leave the feeder blocked forever).
FreqResult Pool(const DocumentSet& set, std::string_view topic, int workers,
                DocumentSearch search) {
  FailureLog failures(set);
  std::atomic<int64_t> found{0};
  Channel<size_t> documents(kPoolBuffer, kPoolBuffer / 2);
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(workers));
  for (int w = 0; w < workers; ++w) {
    try {
      pool.emplace_back([&] {
        NameThisThread("rss-pool");
        int64_t local = 0;
        std::string error;
        while (const std::optional<size_t> i = documents.Receive()) {
          if (const std::optional<int> hits = search(set, *i, topic, &error)) {
            local += *hits;
          } else {
            failures.Record(*i, error);
          }
        }
        found.fetch_add(local, std::memory_order_relaxed);
      });
    } catch (const std::system_error& e) {
      if (!pool.empty()) break;  // fewer workers, same result
      failures.RecordAll(ThreadStartError(e));
      return failures.Result(0);
    }
  }
  for (size_t i = 0; i < set.size(); ++i) documents.Send(i);
  documents.Close();
  for (std::thread& thread : pool) thread.join();
  return failures.Result(found.load());
}

// The actor pipeline: open -> read -> decode -> search, one thread each.
// A step that fails on a document records it and goes on with the next one
// (the original broke out, which could leave the step before it blocked on
// a full channel); files opened but not yet read are closed by their owner.
class ActorPipeline {
 public:
  ActorPipeline(const DocumentSet& set, std::string_view topic)
      : set_(set), topic_(topic), failures_(set) {}

  // Starts the four steps, waits for them and counts what they found.
  FreqResult Run();

 private:
  struct Opened {
    size_t index;
    OpenDocument document;
  };
  struct Read {
    size_t index;
    std::string bytes;
  };

  // The steps, each on its own thread, each closing its output channel when
  // its input is exhausted.
  void OpenFiles();
  void ReadFiles();
  void DecodeFeeds();
  void SearchFeeds();

  // After a step could not start: unblocks the steps in `started`, lets
  // them finish, and reports the whole run as failed (a pipeline with a
  // missing step does no work).
  FreqResult Abandon(std::vector<std::thread>& started, const std::system_error& e);

  const DocumentSet& set_;
  const std::string_view topic_;
  FailureLog failures_;
  // Upstream steps run ahead until a channel is full, then sleep until it is
  // half empty (not until the next slot frees: see kPoolBuffer).
  Channel<Opened> files_{kPipelineBuffer, kPipelineBuffer / 2};
  Channel<Read> data_{kPipelineBuffer, kPipelineBuffer / 2};
  Channel<Feed> feeds_{kPipelineBuffer, kPipelineBuffer / 2};
  int64_t found_ = 0;  // written by the search step only, read once it is joined
};

FreqResult ActorPipeline::Run() {
  std::vector<std::thread> steps;
  steps.reserve(4);
  try {
    steps.emplace_back(&ActorPipeline::OpenFiles, this);
    steps.emplace_back(&ActorPipeline::ReadFiles, this);
    steps.emplace_back(&ActorPipeline::DecodeFeeds, this);
    steps.emplace_back(&ActorPipeline::SearchFeeds, this);
  } catch (const std::system_error& e) {
    return Abandon(steps, e);
  }
  for (std::thread& step : steps) step.join();
  return failures_.Result(found_);
}

void ActorPipeline::OpenFiles() {
  NameThisThread("rss-open");
  std::string error;
  for (size_t i = 0; i < set_.size(); ++i) {
    std::optional<OpenDocument> document = set_.Open(i, &error);
    if (!document) {
      failures_.Record(i, "opening: " + error);
      continue;
    }
    files_.Send(Opened{i, std::move(*document)});
  }
  files_.Close();
}

void ActorPipeline::ReadFiles() {
  NameThisThread("rss-read");
  std::string error;
  while (std::optional<Opened> file = files_.Receive()) {
    Read read{file->index, {}};
    if (!ReadAll(std::move(file->document), &read.bytes, &error)) {
      failures_.Record(file->index, "reading: " + error);
      continue;
    }
    data_.Send(std::move(read));
  }
  data_.Close();
}

void ActorPipeline::DecodeFeeds() {
  NameThisThread("rss-decode");
  std::string error;
  while (std::optional<Read> read = data_.Receive()) {
    Feed feed;
    if (!ParseFeed(read->bytes, FeedFields::kTitleAndDescription, &feed, &error)) {
      failures_.Record(read->index, "decoding: " + error);
      continue;
    }
    feeds_.Send(std::move(feed));
  }
  feeds_.Close();
}

void ActorPipeline::SearchFeeds() {
  NameThisThread("rss-search");
  while (std::optional<Feed> feed = feeds_.Receive()) found_ += CountTopicHits(*feed, topic_);
}

FreqResult ActorPipeline::Abandon(std::vector<std::thread>& started, const std::system_error& e) {
  files_.Close();
  data_.Close();
  feeds_.Close();
  for (std::thread& step : started) step.join();
  FailureLog all(set_);
  all.RecordAll(ThreadStartError(e));
  return all.Result(0);
}

}  // namespace

std::string_view VariantName(Variant variant) {
  switch (variant) {
    case Variant::kSequential:
      return "sequential";
    case Variant::kConcurrent:
      return "concurrent";
    case Variant::kSemaphore:
      return "semaphore";
    case Variant::kPool:
      return "pool";
    case Variant::kPoolTasks:
      return "pool_tasks";
    case Variant::kPipeline:
      return "pipeline";
  }
  return "unknown";
}

std::optional<Variant> ParseVariant(std::string_view name) {
  for (Variant variant : kAllVariants) {
    if (VariantName(variant) == name) return variant;
  }
  return std::nullopt;
}

bool UsesWorkers(Variant variant) {
  return variant == Variant::kSemaphore || variant == Variant::kPool ||
         variant == Variant::kPoolTasks;
}

int DefaultWorkers() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

std::optional<int> SearchDocument(const DocumentSet& set, size_t index, std::string_view topic,
                                  std::string* error) {
  std::optional<OpenDocument> document = set.Open(index, error);
  if (!document) {
    *error = "opening: " + *error;
    return std::nullopt;
  }
  std::string bytes;
  if (!ReadAll(std::move(*document), &bytes, error)) {
    *error = "reading: " + *error;
    return std::nullopt;
  }
  Feed feed;
  if (!ParseFeed(bytes, FeedFields::kTitleAndDescription, &feed, error)) {
    *error = "decoding: " + *error;
    return std::nullopt;
  }
  return CountTopicHits(feed, topic);
}

FreqResult Freq(Variant variant, const DocumentSet& set, std::string_view topic, int workers) {
  if (workers <= 0) workers = DefaultWorkers();
  switch (variant) {
    case Variant::kSequential:
      return Sequential(set, topic);
    case Variant::kConcurrent:
      return ThreadPerDocument(set, topic, nullptr);
    case Variant::kSemaphore: {
      std::counting_semaphore<> slots(workers);
      return ThreadPerDocument(set, topic, &slots);
    }
    case Variant::kPool:
      return Pool(set, topic, workers, &SearchDocument);
    case Variant::kPoolTasks:
      return Pool(set, topic, workers, &SearchDocumentTraced);
    case Variant::kPipeline:
      return ActorPipeline(set, topic).Run();
  }
  return FreqResult{};
}

}  // namespace benchprof::rss
