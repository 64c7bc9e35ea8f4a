#include "rss/rss_search.h"

#include <algorithm>
#include <utility>

#include "rss/corpus.h"
#include "rss/feed_parser.h"

namespace benchprof::rss {
namespace {

bool HasAsciiUpper(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

Result MakeResult(std::string_view engine, const Item& item) {
  return Result{std::string(engine), item.title, item.link, item.description};
}

std::shared_ptr<const Document> MakeDocument(Feed feed, SearchVersion version) {
  auto document = std::make_shared<Document>();
  document->image =
      Image{std::move(feed.image.url), std::move(feed.image.title), std::move(feed.image.link)};
  document->items.reserve(feed.items.size());
  for (FeedItem& in : feed.items) {
    Item& item = document->items.emplace_back();
    item.pub_date = std::move(in.pub_date);
    item.title = std::move(in.title);
    item.description = std::move(in.description);
    item.link = std::move(in.link);
    // The fix: pay for lower-casing once per cache fill (every 15 minutes),
    // not once per item per request.
    if (version == SearchVersion::kAfter) item.description_lower = ToLowerAscii(item.description);
  }
  return document;
}

}  // namespace

std::string_view SearchVersionName(SearchVersion version) {
  return version == SearchVersion::kBefore ? "before" : "after";
}

std::string ToLowerAscii(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

std::vector<Result> SearchBefore(const Document& document, std::string_view term,
                                 std::string_view engine) {
  std::vector<Result> results;
  const bool term_has_upper = HasAsciiUpper(term);
  for (const Item& item : document.items) {
    // strings.Contains(strings.ToLower(item.Description), strings.ToLower(term)):
    // a new string per description, every call. Go's ToLower returns an
    // all-lowercase ASCII string as is, so the term costs nothing unless it
    // has capitals; the description, which starts with one, always costs.
    const std::string description = ToLowerAscii(item.description);
    const bool hit = term_has_upper ? description.find(ToLowerAscii(term)) != std::string::npos
                                    : description.find(term) != std::string::npos;
    if (hit) results.push_back(MakeResult(engine, item));
  }
  return results;
}

std::vector<Result> SearchAfter(const Document& document, std::string_view term,
                                std::string_view engine) {
  std::vector<Result> results;
  const std::string term_lower = ToLowerAscii(term);  // once, outside the loop
  for (const Item& item : document.items) {
    if (item.description_lower.find(term_lower) != std::string::npos) {
      results.push_back(MakeResult(engine, item));
    }
  }
  return results;
}

FeedCache::FeedCache(SearchVersion version, Fetcher fetch, std::chrono::steady_clock::duration ttl)
    : version_(version), fetch_(std::move(fetch)), ttl_(ttl) {}

std::mutex& FeedCache::UriMutex(std::string_view uri) {
  std::lock_guard lock(uri_mutexes_mutex_);
  auto it = uri_mutexes_.find(uri);
  if (it == uri_mutexes_.end()) {
    it = uri_mutexes_.emplace(std::string(uri), std::make_unique<std::mutex>()).first;
  }
  return *it->second;
}

std::shared_ptr<const Document> FeedCache::Get(std::string_view uri, std::string* error) {
  std::lock_guard uri_lock(UriMutex(uri));
  {
    std::shared_lock lock(entries_mutex_);
    const auto it = entries_.find(uri);
    if (it != entries_.end() && std::chrono::steady_clock::now() < it->second.expires) {
      return it->second.document;
    }
  }
  // A miss: only this URI's callers wait while it is fetched and decoded.
  std::optional<Feed> feed = fetch_(uri, error);
  if (!feed) return nullptr;
  std::shared_ptr<const Document> document = MakeDocument(std::move(*feed), version_);
  std::lock_guard lock(entries_mutex_);
  ++fetches_;
  entries_.insert_or_assign(std::string(uri),
                            Entry{document, std::chrono::steady_clock::now() + ttl_});
  return document;
}

int64_t FeedCache::fetches() const {
  std::shared_lock lock(entries_mutex_);
  return fetches_;
}

std::optional<std::vector<Result>> RssSearch(FeedCache& cache, std::string_view term,
                                             std::string_view engine, std::string_view uri,
                                             std::string* error) {
  const std::shared_ptr<const Document> document = cache.Get(uri, error);
  if (document == nullptr) return std::nullopt;
  return cache.version() == SearchVersion::kBefore ? SearchBefore(*document, term, engine)
                                                   : SearchAfter(*document, term, engine);
}

std::optional<Feed> FetchSyntheticFeed(std::string_view uri, std::string* error) {
  int index = 0;
  for (const Engine& engine : kEngines) {
    for (std::string_view feed_uri : engine.feeds) {
      if (feed_uri == uri) {
        Feed feed;
        if (!ParseFeed(GenerateDocument(kDefaultSeed, index), FeedFields::kAll, &feed, error)) {
          return std::nullopt;
        }
        return feed;
      }
      ++index;
    }
  }
  *error = "no such feed: " + std::string(uri);
  return std::nullopt;
}

std::optional<std::vector<Result>> SearchAllFeeds(FeedCache& cache, std::string_view term,
                                                  std::string* error) {
  std::vector<Result> all;
  for (const Engine& engine : kEngines) {
    for (std::string_view uri : engine.feeds) {
      std::optional<std::vector<Result>> results = RssSearch(cache, term, engine.name, uri, error);
      if (!results) return std::nullopt;
      all.insert(all.end(), std::make_move_iterator(results->begin()),
                 std::make_move_iterator(results->end()));
    }
  }
  return all;
}

}  // namespace benchprof::rss
