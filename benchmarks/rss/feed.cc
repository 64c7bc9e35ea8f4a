#include "rss/feed.h"

#include <algorithm>

namespace benchprof::rss {
namespace {

char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool Contains(std::string_view text, std::string_view needle, Case match) {
  if (match == Case::kSensitive) return text.find(needle) != std::string_view::npos;
  // Compared in place: the case-insensitive count is a test oracle and must
  // not allocate the way the rssSearch "before" version deliberately does.
  return std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return AsciiLower(a) == AsciiLower(b); }) != text.end();
}

int CountTopicHits(const Feed& feed, std::string_view topic, Case match) {
  int hits = 0;
  for (const FeedItem& item : feed.items) {
    if (Contains(item.title, topic, match) || Contains(item.description, topic, match)) ++hits;
  }
  return hits;
}

}  // namespace benchprof::rss
