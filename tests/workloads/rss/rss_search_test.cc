// rssSearch before and after the fix: the same results for every term; the
// cache fetches each feed once, lower-cases descriptions only for the
// "after" search, and survives failed fetches (the original deadlocked).

#include "rss/rss_search.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "rss/corpus.h"

namespace benchprof::rss {
namespace {

std::vector<Result> SearchAll(FeedCache& cache, std::string_view term) {
  std::string error;
  std::optional<std::vector<Result>> results = SearchAllFeeds(cache, term, &error);
  EXPECT_TRUE(results.has_value()) << error;
  return results.value_or(std::vector<Result>{});
}

TEST(RssSearchTest, ToLowerAscii) {
  EXPECT_EQ(ToLowerAscii("The President, AGAIN 42."), "the president, again 42.");
  EXPECT_EQ(ToLowerAscii(""), "");
}

TEST(RssSearchTest, BeforeAndAfterGiveTheSameResults) {
  FeedCache before(SearchVersion::kBefore, &FetchSyntheticFeed);
  FeedCache after(SearchVersion::kAfter, &FetchSyntheticFeed);
  struct TermCase {
    std::string_view term;
    size_t per_feed;
  };
  // Descriptions only, ignoring case: "president" is planted lowercase in 7
  // descriptions and capitalised in 1 (the title hit does not count here);
  // "Governor" in 3.
  const std::vector<TermCase> cases = {
      {"president", 8}, {"PRESIDENT", 8}, {"President", 8}, {"governor", 3}, {"xyzzy", 0}};
  for (const TermCase& c : cases) {
    const std::vector<Result> old_results = SearchAll(before, c.term);
    const std::vector<Result> new_results = SearchAll(after, c.term);
    EXPECT_EQ(old_results.size(), c.per_feed * 12) << c.term;
    EXPECT_EQ(old_results, new_results) << c.term;
  }
}

TEST(RssSearchTest, ResultsKeepTheOriginalText) {
  FeedCache after(SearchVersion::kAfter, &FetchSyntheticFeed);
  const std::vector<Result> results = SearchAll(after, "governor");
  ASSERT_EQ(results.size(), 36u);
  EXPECT_EQ(results.front().engine, "BBC");
  EXPECT_EQ(results.back().engine, "NYT");
  for (const Result& result : results) {
    // The content is the description as fetched, capitals and all, not the
    // lower-cased copy the search used.
    EXPECT_NE(result.content.find("Governor"), std::string::npos) << result.content;
    EXPECT_TRUE(result.content[0] >= 'A' && result.content[0] <= 'Z') << result.content;
    EXPECT_EQ(result.link.rfind("http://example.invalid/news/newsfeed-00", 0), 0u);
    EXPECT_FALSE(result.title.empty());
  }
}

TEST(RssSearchTest, OnlyTheAfterCacheStoresLowerCasedDescriptions) {
  std::string error;
  FeedCache before(SearchVersion::kBefore, &FetchSyntheticFeed);
  FeedCache after(SearchVersion::kAfter, &FetchSyntheticFeed);
  const std::string_view uri = kEngines[1].feeds[2];
  const std::shared_ptr<const Document> plain = before.Get(uri, &error);
  const std::shared_ptr<const Document> lowered = after.Get(uri, &error);
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(lowered, nullptr);
  ASSERT_EQ(lowered->items.size(), static_cast<size_t>(kItemsPerDocument));
  for (size_t i = 0; i < lowered->items.size(); ++i) {
    EXPECT_TRUE(plain->items[i].description_lower.empty());
    EXPECT_EQ(lowered->items[i].description_lower, ToLowerAscii(lowered->items[i].description));
    EXPECT_EQ(lowered->items[i].description, plain->items[i].description);
  }
  // Feed 6 (engine-major) is corpus document 6, decoded with every field.
  EXPECT_EQ(lowered->items[0].link, "http://example.invalid/news/newsfeed-0006-00");
  EXPECT_FALSE(lowered->items[0].pub_date.empty());
  EXPECT_EQ(lowered->image.url, "http://example.invalid/news/img/example_news.gif");
}

TEST(RssSearchTest, CacheFetchesEachFeedOnce) {
  FeedCache cache(SearchVersion::kAfter, &FetchSyntheticFeed);
  SearchAll(cache, "president");
  SearchAll(cache, "governor");
  EXPECT_EQ(cache.fetches(), 12);
}

TEST(RssSearchTest, ExpiredDocumentsAreFetchedAgain) {
  FeedCache cache(SearchVersion::kBefore, &FetchSyntheticFeed, std::chrono::seconds(0));
  SearchAll(cache, "president");
  SearchAll(cache, "president");
  EXPECT_EQ(cache.fetches(), 24);
}

TEST(RssSearchTest, ConcurrentCallersOfOneFeedShareOneFetch) {
  std::atomic<int> calls{0};
  FeedCache cache(SearchVersion::kAfter, [&](std::string_view uri, std::string* error) {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // others arrive meanwhile
    return FetchSyntheticFeed(uri, error);
  });
  std::vector<std::thread> callers;
  std::atomic<size_t> results{0};
  for (int i = 0; i < 4; ++i) {
    callers.emplace_back([&] {
      std::string error;
      const auto found = RssSearch(cache, "president", "CNN", kEngines[1].feeds[0], &error);
      if (found) results += found->size();
    });
  }
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(results.load(), 4u * 8u);
}

TEST(RssSearchTest, FailedFetchLeavesTheFeedUsable) {
  int calls = 0;
  FeedCache cache(SearchVersion::kBefore, [&](std::string_view uri, std::string* error) {
    if (++calls == 1) {
      *error = "connection refused";
      return std::optional<Feed>();
    }
    return FetchSyntheticFeed(uri, error);
  });
  std::string error;
  const std::string_view uri = kEngines[2].feeds[3];
  EXPECT_EQ(RssSearch(cache, "president", "NYT", uri, &error), std::nullopt);
  EXPECT_EQ(error, "connection refused");
  // The original returned with the feed's mutex held: this call would hang.
  const auto found = RssSearch(cache, "president", "NYT", uri, &error);
  ASSERT_TRUE(found.has_value()) << error;
  EXPECT_EQ(found->size(), 8u);
}

TEST(RssSearchTest, UnknownFeedIsAnError) {
  FeedCache cache(SearchVersion::kAfter, &FetchSyntheticFeed);
  std::string error;
  EXPECT_EQ(RssSearch(cache, "president", "BBC", "http://example.invalid/nope", &error),
            std::nullopt);
  EXPECT_EQ(error, "no such feed: http://example.invalid/nope");
}

}  // namespace
}  // namespace benchprof::rss
