// The synthetic newsfeed corpus: deterministic RSS documents with the shape
// of the BBC feed the Go program searched (whose text we may not ship), so
// that parsing them costs what parsing the original cost.
//
// Every document has the original's layout: the same prolog, processing
// instruction, namespaced <rss> root and channel header, then 39 <item>s of
// a CDATA title (12..81 characters) and description (78..148), a link, a
// guid, an RFC 1123 pubDate and a self-closing media:thumbnail, indented
// with 4 spaces so that whitespace text nodes exist. Descriptions are sized
// so that every document is exactly kDocumentBytes long (the original's
// 25,544 bytes).
//
// Hits are planted, never left to chance: the vocabulary is made of
// consonant-vowel syllables, so no word contains two consonants in a row and
// none can contain "president" or "governor". Then, in every document:
//   * items 0, 2, 15, 20, 26, 29, 33: "president" (lowercase, never the
//     first word) in the description — the original's 7 case-sensitive hits;
//   * item 25: "President" in the description; item 35: "President" in the
//     title — the original's 2 capitalised mentions (9 case-insensitive hits);
//   * items 5, 11, 30: "Governor" in the description — a second term that
//     only matches case-insensitively, like "trump" did in the web service's
//     benchmark.
// No item gets a planted word in both its title and its description.
//
// Randomness: splitmix64, seeded per document with
// seed ^ (index * 0x9E3779B97F4A7C15), so each document can be generated on
// its own, in any order or in parallel, and always comes out the same.
//
// Example:
//   std::string xml = GenerateDocument(kDefaultSeed, 42);  // newsfeed-0042.xml
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_BENCHMARKS_RSS_CORPUS_H_
#define BENCHPROF_BENCHMARKS_RSS_CORPUS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace benchprof::rss {

inline constexpr uint64_t kDefaultSeed = 0x5EED5EED;
// The Go program's corpus: 4000 names, searched for "president".
inline constexpr int kDefaultDocuments = 4000;
inline constexpr std::string_view kDefaultTopic = "president";
inline constexpr int kItemsPerDocument = 39;
inline constexpr size_t kDocumentBytes = 25544;

// Where the words are planted (0-based item indices), as described above.
inline constexpr std::array<int, 7> kTopicItems = {0, 2, 15, 20, 26, 29, 33};
inline constexpr int kCapitalizedTopicDescriptionItem = 25;
inline constexpr int kCapitalizedTopicTitleItem = 35;
inline constexpr std::string_view kSecondTerm = "Governor";
inline constexpr std::array<int, 3> kSecondTermItems = {5, 11, 30};

// Per document: case-sensitive hits of kDefaultTopic (title or description),
// case-insensitive ones, and case-insensitive ones in descriptions only (what
// the web service's rssSearch counts).
inline constexpr int kTopicHitsPerDocument = 7;
inline constexpr int kTopicHitsIgnoringCasePerDocument = 9;
inline constexpr int kTopicDescriptionHitsIgnoringCasePerDocument = 8;

// The name the Go program gave document `index`: "newsfeed-0042.xml".
std::string DocumentName(int index);

// Document `index` (0 or more) of the corpus drawn from `seed`.
std::string GenerateDocument(uint64_t seed, int index);

// The generator's word list (256 words, lowercase), exposed for tests.
std::span<const std::string> Vocabulary();

}  // namespace benchprof::rss

#endif  // BENCHPROF_BENCHMARKS_RSS_CORPUS_H_
