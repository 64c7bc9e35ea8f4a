#include "rss/corpus.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace benchprof::rss {
namespace {

// splitmix64 (Steele, Lea and Flood): tiny, fast, and fully determined by
// its 64-bit state, which is what per-document seeding needs.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t state) : state_(state) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n); the modulo bias is below 2^-50 for our small n.
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }

  // Uniform in [0, 1) with 53 random bits.
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // Triangular on [low, high] with the given mode, rounded. Uses only
  // arithmetic and sqrt, which IEEE 754 rounds exactly, so the same seed
  // gives the same document on every conforming machine.
  size_t Triangular(double low, double high, double mode) {
    const double u = Unit();
    const double split = (mode - low) / (high - low);
    const double x = u < split ? low + std::sqrt(u * (high - low) * (mode - low))
                               : high - std::sqrt((1 - u) * (high - low) * (high - mode));
    return static_cast<size_t>(std::lround(x));
  }

 private:
  uint64_t state_;
};

constexpr std::string_view kConsonants = "bdfgklmnprstvz";
constexpr std::string_view kVowels = "aeiou";
constexpr size_t kVocabularySize = 256;
constexpr size_t kMaxWordLetters = 8;                        // 4 syllables
constexpr uint64_t kVocabularySeed = 0x766F636162756C61ULL;  // "vocabula"

// A consonant-vowel pseudo-word of exactly `letters` letters. Because a
// consonant is always followed by a vowel, no word has a consonant cluster,
// so none contains "president" ("pr") or "governor" ("rn").
std::string SyllableWord(SplitMix64& rng, size_t letters) {
  std::string word(letters, ' ');
  for (size_t i = 0; i < letters; ++i) {
    const std::string_view set = i % 2 == 0 ? kConsonants : kVowels;
    word[i] = set[rng.Below(set.size())];
  }
  return word;
}

std::vector<std::string> MakeVocabulary() {
  SplitMix64 rng(kVocabularySeed);
  std::vector<std::string> words;
  words.reserve(kVocabularySize);
  while (words.size() < kVocabularySize) {
    words.push_back(SyllableWord(rng, 2 * (2 + rng.Below(3))));  // 2..4 syllables
  }
  return words;
}

// Appends a sentence of exactly `length` characters to `out`: words from
// the vocabulary separated by single spaces, `planted` (if not empty) at a
// random position — never the first one unless `planted_may_lead`, since the
// first word is capitalised — the first letter upper case, then
// `terminator`.
void AppendSentence(SplitMix64& rng, size_t length, std::string_view planted, bool planted_may_lead,
                    std::string_view terminator, std::string* out) {
  const std::span<const std::string> vocabulary = Vocabulary();
  std::vector<std::string> words;
  size_t used = terminator.size();
  auto add = [&](std::string word) {
    used += words.empty() ? word.size() : word.size() + 1;
    words.push_back(std::move(word));
  };
  if (!planted.empty()) add(std::string(planted));
  // Stop while any word still fits with room for a last filler word, whose
  // exact length then lands the sentence on `length`.
  while (used + (kMaxWordLetters + 1) + 2 <= length) {
    add(vocabulary[rng.Below(vocabulary.size())]);
  }
  size_t gap = length > used ? length - used : 0;
  if (gap == 1 && words.size() > 1 && words.back() != planted) {
    // Too little room for " x": regrow the last word one letter longer.
    gap += words.back().size() + 1;
    used -= words.back().size() + 1;
    words.pop_back();
  }
  if (gap > 0) {
    const size_t letters = words.empty() ? gap : gap - 1;
    if (letters > 0) add(SyllableWord(rng, letters));
  }
  if (!planted.empty() && words.size() > 1) {
    const size_t at = planted_may_lead ? rng.Below(words.size()) : 1 + rng.Below(words.size() - 1);
    std::swap(words[0], words[at]);
  }
  if (!words.empty() && words[0][0] >= 'a' && words[0][0] <= 'z') {
    words[0][0] = static_cast<char>(words[0][0] - 'a' + 'A');
  }
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out->push_back(' ');
    out->append(words[i]);
  }
  out->append(terminator);
}

// 2017-11-09 15:38:45 UTC, the original feed's lastBuildDate.
constexpr int64_t kLastBuildUnixSeconds = 1510241925;
constexpr int64_t kPubDateSpreadSeconds = 2 * 24 * 3600;

// RFC 1123 with "GMT", as Go's time.RFC1123 writes it; computed by hand so
// that neither the locale nor the time zone can change a byte.
std::string Rfc1123(int64_t unix_seconds) {
  static constexpr const char* kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const int64_t days = unix_seconds / 86400;  // the corpus's dates are after 1970
  const int64_t second_of_day = unix_seconds % 86400;
  // Civil date from a day count (H. Hinnant's days_from_civil, inverted).
  const int64_t z = days + 719468;
  const int64_t era = z / 146097;
  const int64_t day_of_era = z - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;  // March = 0
  const int64_t day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  const int64_t month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  char text[40];
  std::snprintf(text, sizeof text, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[days % 7],
                static_cast<int>(day), kMonths[month - 1], static_cast<int>(year),
                static_cast<int>(second_of_day / 3600), static_cast<int>(second_of_day / 60 % 60),
                static_cast<int>(second_of_day % 60));
  return text;
}

// Everything before the first <item>: the original's prolog, stylesheet
// instruction, root with its four namespaces and channel header, in order,
// with the original's one entity reference (&amp;) and two non-ASCII
// characters (the copyright sign).
constexpr std::string_view kHeader =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<?xml-stylesheet title=\"XSL_formatting\" type=\"text/xsl\" "
    "href=\"/shared/xsl/rss/newsfeed.xsl\"?>\n"
    "<rss xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
    "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" "
    "xmlns:atom=\"http://www.w3.org/2005/Atom\" version=\"2.0\" "
    "xmlns:media=\"http://search.yahoo.com/mrss/\">\n"
    "    <channel>\n"
    "        <title><![CDATA[Example News - Synthetic World & Nation]]></title>\n"
    "        <description><![CDATA[Example News - Synthetic World & Nation: generated "
    "deterministically for benchmarking an XML decoder]]></description>\n"
    "        <link>http://example.invalid/news/world/synthetic_nation</link>\n"
    "        <image>\n"
    "            <url>http://example.invalid/news/img/example_news.gif</url>\n"
    "            <title>Example News - Synthetic World &amp; Nation</title>\n"
    "            <link>http://example.invalid/news/world/synthetic_nation</link>\n"
    "        </image>\n"
    "        <generator>benchprof synthetic newsfeed generator</generator>\n"
    "        <lastBuildDate>Thu, 09 Nov 2017 15:38:45 GMT</lastBuildDate>\n"
    "        <copyright><![CDATA[Copyright: \xC2\xA9 2017 Example News. The text of this "
    "feed is pseudo-words made of random syllables; any resemblance to real news is an "
    "accident of the random number generator. Reuse it freely.]]></copyright>\n"
    "        <language><![CDATA[en-gb]]></language>\n"
    "        <ttl>15</ttl>\n"
    "        <atom:link href=\"http://example.invalid/news/world/synthetic_nation/rss.xml\" "
    "rel=\"self\" type=\"application/rss+xml\"/>\n";
constexpr std::string_view kFooter = "    </channel>\n</rss>\n";

struct Thumbnail {
  int width;
  int height;
};
constexpr Thumbnail kThumbnails[] = {{976, 549}, {1024, 576}, {2048, 1152}, {549, 309}};

// An item without its description, which is sized last to fill the document.
struct ItemParts {
  std::string title;
  std::string link;
  std::string pub_date;
  Thumbnail thumbnail;
  uint64_t image_id;
};

void AppendItem(const ItemParts& item, std::string_view description, std::string* out) {
  char thumbnail[160];
  std::snprintf(thumbnail, sizeof thumbnail,
                "            <media:thumbnail width=\"%d\" height=\"%d\" "
                "url=\"http://example.invalid/images/ichef/ic/%dx%d/p05%016llx.jpg\"/>\n",
                item.thumbnail.width, item.thumbnail.height, item.thumbnail.width,
                item.thumbnail.height, static_cast<unsigned long long>(item.image_id));
  out->append("        <item>\n            <title><![CDATA[");
  out->append(item.title);
  out->append("]]></title>\n            <description><![CDATA[");
  out->append(description);
  out->append("]]></description>\n            <link>");
  out->append(item.link);
  out->append("</link>\n            <guid isPermaLink=\"true\">");
  out->append(item.link);
  out->append("</guid>\n            <pubDate>");
  out->append(item.pub_date);
  out->append("</pubDate>\n");
  out->append(thumbnail);
  out->append("        </item>\n");
}

constexpr size_t kMinTitle = 12;
constexpr size_t kMaxTitle = 81;
constexpr size_t kMinDescription = 78;
constexpr size_t kMaxDescription = 148;

bool IsIn(int item, std::span<const int> items) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

}  // namespace

std::span<const std::string> Vocabulary() {
  static const std::vector<std::string> words = MakeVocabulary();
  return words;
}

std::string DocumentName(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "newsfeed-%04d.xml", index);
  return name;
}

std::string GenerateDocument(uint64_t seed, int index) {
  SplitMix64 rng(seed ^ (static_cast<uint64_t>(index) * 0x9E3779B97F4A7C15ULL));
  std::string name = DocumentName(index);
  const std::string stem = name.substr(0, name.size() - 4);  // without ".xml"

  // Titles, links, dates and thumbnails first: what is left of the byte
  // budget then goes to the descriptions.
  std::vector<ItemParts> items(kItemsPerDocument);
  std::vector<size_t> description_lengths(kItemsPerDocument);
  for (int i = 0; i < kItemsPerDocument; ++i) {
    ItemParts& item = items[static_cast<size_t>(i)];
    const bool capital_in_title = i == kCapitalizedTopicTitleItem;
    AppendSentence(rng, rng.Triangular(kMinTitle, kMaxTitle, 27),
                   capital_in_title ? "President" : "", /*planted_may_lead=*/true, "", &item.title);
    char link[96];
    std::snprintf(link, sizeof link, "http://example.invalid/news/%s-%02d", stem.c_str(), i);
    item.link = link;
    item.pub_date =
        Rfc1123(kLastBuildUnixSeconds - static_cast<int64_t>(rng.Below(kPubDateSpreadSeconds)));
    item.thumbnail = kThumbnails[rng.Below(std::size(kThumbnails))];
    item.image_id = rng.Next();
    // Mode at the minimum: the original's descriptions bunch up short.
    description_lengths[static_cast<size_t>(i)] =
        rng.Triangular(kMinDescription, kMaxDescription, kMinDescription);
  }

  size_t fixed = kHeader.size() + kFooter.size();
  std::string scratch;
  for (const ItemParts& item : items) {
    scratch.clear();
    AppendItem(item, "", &scratch);
    fixed += scratch.size();
  }
  // Shift every description by one character at a time, within bounds,
  // until they fill the budget exactly: the shape of the length
  // distribution survives and every document is kDocumentBytes long.
  size_t total = 0;
  for (size_t length : description_lengths) total += length;
  const int64_t budget = static_cast<int64_t>(kDocumentBytes) - static_cast<int64_t>(fixed);
  int64_t delta = budget - static_cast<int64_t>(total);
  for (bool moved = true; delta != 0 && moved;) {
    moved = false;
    for (size_t& length : description_lengths) {
      if (delta == 0) break;
      const size_t next = delta > 0 ? length + 1 : length - 1;
      if (next < kMinDescription || next > kMaxDescription) continue;
      length = next;
      delta += delta > 0 ? -1 : 1;
      moved = true;
    }
  }

  std::string document;
  document.reserve(kDocumentBytes);
  document.append(kHeader);
  std::string description;
  for (int i = 0; i < kItemsPerDocument; ++i) {
    std::string_view planted;
    bool may_lead = true;
    if (IsIn(i, kTopicItems)) {
      planted = kDefaultTopic;
      may_lead = false;  // it would be capitalised
    } else if (i == kCapitalizedTopicDescriptionItem) {
      planted = "President";
    } else if (IsIn(i, kSecondTermItems)) {
      planted = kSecondTerm;
    }
    description.clear();
    AppendSentence(rng, description_lengths[static_cast<size_t>(i)], planted, may_lead, ".",
                   &description);
    AppendItem(items[static_cast<size_t>(i)], description, &document);
  }
  document.append(kFooter);
  return document;
}

}  // namespace benchprof::rss
