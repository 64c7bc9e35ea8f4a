// rssSearch, the hot function of Go's profiling web-service case study,
// before and after the fix its memory profile pointed to.
//
// The service searches 12 cached feeds (3 engines x 4 feeds) per request.
// The "before" search lower-cases every item's description on every call to
// compare it with the term — one fresh heap string per item per call, 4.48 GB
// of the blog run's 9.56 GB of allocations; the "after" search compares with
// a lower-cased copy made once, when the document enters the cache. Both
// return the same results, with the original (not lower-cased) description
// as the content. `bench --benchmark_filter=RssSearch --benchmem` shows the
// difference in allocs/op.
//
// The cache follows the original: documents live 15 minutes under their URI,
// and a per-URI mutex (made lazily under one global mutex) lets one caller
// fetch a missing feed while the others for that URI wait. Locks are scoped
// here, so a failed fetch cannot leave the URI locked forever as the
// original's early return did.
//
// Example:
//   FeedCache cache(SearchVersion::kAfter, &FetchSyntheticFeed);
//   std::optional<std::vector<Result>> results =
//       RssSearch(cache, "president", "BBC", kEngines[0].feeds[0], &error);
//
// Thread-safety: FeedCache and RssSearch are thread-safe; the search
// functions only read their document.
#ifndef BENCHPROF_BENCHMARKS_RSS_RSS_SEARCH_H_
#define BENCHPROF_BENCHMARKS_RSS_RSS_SEARCH_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rss/feed.h"

namespace benchprof::rss {

// The service's Item, plus the lower-cased description the fix adds.
struct Item {
  std::string pub_date;
  std::string title;
  std::string description;
  std::string link;
  std::string description_lower;  // filled only by a SearchVersion::kAfter cache
};

struct Image {
  std::string url;
  std::string title;
  std::string link;
};

// A cached feed (the service's Document, i.e. its channel).
struct Document {
  Image image;
  std::vector<Item> items;
};

// One hit: the engine, the item's title and link, and its description.
struct Result {
  std::string engine;
  std::string title;
  std::string link;
  std::string content;

  bool operator==(const Result&) const = default;
};

enum class SearchVersion {
  kBefore,  // lower-case each description on every search (allocates per item)
  kAfter,   // search the description lower-cased once, when cached
};

// "before" or "after".
std::string_view SearchVersionName(SearchVersion version);

// ASCII lower case of `text`, in a new string. Go's strings.ToLower also
// maps other letters; the feeds' descriptions are ASCII.
std::string ToLowerAscii(std::string_view text);

// The "before" search: every item whose description contains `term`
// ignoring ASCII case, found by lower-casing both for each item.
std::vector<Result> SearchBefore(const Document& document, std::string_view term,
                                 std::string_view engine);

// The "after" search: the same results, found by searching each item's
// description_lower for the term lower-cased once. `document` must come
// from a kAfter cache (its description_lower filled).
std::vector<Result> SearchAfter(const Document& document, std::string_view term,
                                std::string_view engine);

// The service's feed cache, keyed by URI.
class FeedCache {
 public:
  // Fetches and decodes the feed at `uri`; returns nothing with `*error` set
  // on failure.
  using Fetcher = std::function<std::optional<Feed>(std::string_view uri, std::string* error)>;

  // A cache for the `version` search, which fetches with `fetch` and keeps
  // a document for `ttl` (the service's 15 minutes by default).
  FeedCache(SearchVersion version, Fetcher fetch,
            std::chrono::steady_clock::duration ttl = std::chrono::minutes(15));
  FeedCache(const FeedCache&) = delete;
  FeedCache& operator=(const FeedCache&) = delete;

  // The document cached for `uri`, fetched first if missing or expired
  // (with a kAfter cache, its descriptions are lower-cased then). Returns
  // nullptr, with `*error` set, if the fetch fails; the URI stays usable.
  std::shared_ptr<const Document> Get(std::string_view uri, std::string* error);

  SearchVersion version() const { return version_; }

  // How many fetches have run (each miss runs one).
  int64_t fetches() const;

 private:
  struct Entry {
    std::shared_ptr<const Document> document;
    std::chrono::steady_clock::time_point expires;
  };

  // The mutex that serialises fetches of `uri`, made on first use.
  std::mutex& UriMutex(std::string_view uri);

  // Lets the maps be searched with a string_view: a lookup allocates nothing.
  struct UriHash {
    using is_transparent = void;
    size_t operator()(std::string_view uri) const { return std::hash<std::string_view>{}(uri); }
  };
  template <typename T>
  using UriMap = std::unordered_map<std::string, T, UriHash, std::equal_to<>>;

  const SearchVersion version_;
  const Fetcher fetch_;
  const std::chrono::steady_clock::duration ttl_;

  std::mutex uri_mutexes_mutex_;
  UriMap<std::unique_ptr<std::mutex>> uri_mutexes_;

  mutable std::shared_mutex entries_mutex_;
  UriMap<Entry> entries_;
  int64_t fetches_ = 0;  // guarded by entries_mutex_
};

// rssSearch(uid, term, engine, uri): the results of the cache's version of
// the search over the document at `uri`. Returns nothing, with `*error`
// set, if the document cannot be fetched.
std::optional<std::vector<Result>> RssSearch(FeedCache& cache, std::string_view term,
                                             std::string_view engine, std::string_view uri,
                                             std::string* error);

// A search engine of the service and its four feeds.
struct Engine {
  std::string_view name;
  std::array<std::string_view, 4> feeds;
};

// The service's 12 feeds, on example.invalid: they are never fetched over
// the network, FetchSyntheticFeed() serves them.
inline constexpr std::array<Engine, 3> kEngines = {{
    {"BBC",
     {"http://bbc.example.invalid/news/rss.xml", "http://bbc.example.invalid/news/world/rss.xml",
      "http://bbc.example.invalid/news/politics/rss.xml",
      "http://bbc.example.invalid/news/world/us_and_canada/rss.xml"}},
    {"CNN",
     {"http://cnn.example.invalid/rss/cnn_topstories.rss",
      "http://cnn.example.invalid/rss/cnn_world.rss", "http://cnn.example.invalid/rss/cnn_us.rss",
      "http://cnn.example.invalid/rss/cnn_allpolitics.rss"}},
    {"NYT",
     {"http://nyt.example.invalid/services/xml/rss/nyt/HomePage.xml",
      "http://nyt.example.invalid/services/xml/rss/nyt/US.xml",
      "http://nyt.example.invalid/services/xml/rss/nyt/Politics.xml",
      "http://nyt.example.invalid/services/xml/rss/nyt/Business.xml"}},
}};

// A FeedCache::Fetcher for the 12 feeds above: feed k (engine-major order)
// is corpus document k of kDefaultSeed, decoded with every field. Fails for
// any other URI.
std::optional<Feed> FetchSyntheticFeed(std::string_view uri, std::string* error);

// One request with every engine: each engine searches its four feeds in
// turn and the results are appended in engine, then feed, order.
std::optional<std::vector<Result>> SearchAllFeeds(FeedCache& cache, std::string_view term,
                                                  std::string* error);

}  // namespace benchprof::rss

#endif  // BENCHPROF_BENCHMARKS_RSS_RSS_SEARCH_H_
