// An RSS 2.0 feed as the newsfeed programs decode it, and the rule by which
// the newsfeed search counts a topic's hits in it.
//
// The Go originals decode into structs with string fields and skip every
// other element: trace.go keeps each item's title and description; the web
// service's rssSearch also keeps the link, the publication date and the
// channel image. Feed holds both shapes; feed_parser.h fills the fields the
// caller asks for.
//
// Example:
//   Feed feed;
//   if (ParseFeed(bytes, FeedFields::kTitleAndDescription, &feed, &error)) {
//     hits += CountTopicHits(feed, "president");
//   }
//
// Thread-safety: thread-compatible (plain values); the functions are
// thread-safe.
#ifndef BENCHPROF_BENCHMARKS_RSS_FEED_H_
#define BENCHPROF_BENCHMARKS_RSS_FEED_H_

#include <string>
#include <string_view>
#include <vector>

namespace benchprof::rss {

// One <item> of the channel.
struct FeedItem {
  std::string title;
  std::string description;
  std::string link;      // FeedFields::kAll only
  std::string pub_date;  // FeedFields::kAll only, as written (RFC 1123)
};

// The channel's <image>.
struct FeedImage {
  std::string url;
  std::string title;
  std::string link;
};

// <rss><channel>: its image and its items, in document order.
struct Feed {
  FeedImage image;  // FeedFields::kAll only
  std::vector<FeedItem> items;
};

enum class Case {
  kSensitive,    // byte for byte, like Go's strings.Contains
  kInsensitive,  // ASCII letters compared without case
};

// True if `text` contains `needle` (an empty needle is always contained).
bool Contains(std::string_view text, std::string_view needle, Case match);

// The newsfeed program's hit rule: each item counts at most once, if its
// title contains `topic` or, failing that, its description does.
// Occurrences are not counted.
int CountTopicHits(const Feed& feed, std::string_view topic, Case match = Case::kSensitive);

}  // namespace benchprof::rss

#endif  // BENCHPROF_BENCHMARKS_RSS_FEED_H_
