// ParseFeed: decodes an RSS document into a Feed, the newsfeed program's
// `xml.Unmarshal(data, &d)`.
//
// Why expat (libexpat1-dev), not libxml2 or pugixml:
//   * It does what Go's encoding/xml does: a streaming tokenizer whose events
//     we decode into our own structs with std::string fields, skipping every
//     element we do not map (Go's Decoder.Skip). The work per document is the
//     same kind as the original's: tokenize every byte, copy the mapped text.
//     pugixml parses in place into its own DOM (no structs, and so cheap that
//     opening and reading would no longer be negligible next to it); libxml2's
//     usual entry points also build a DOM we would then walk and copy.
//   * Each parser is an independent object with no global state, so the
//     threaded variants need nothing but one parser per document. libxml2
//     needs xmlInitParser() on the main thread before any other thread parses
//     and reports errors through process-wide handlers.
//   * Errors come with a line and column (XML_GetCurrentLineNumber), which
//     makes the "malformed document" message useful; expat 2.4+ also limits
//     entity expansion (billion laughs) by default.
//   * It is small, ubiquitous and already on our machines; pugixml is not.
//
// Example:
//   Feed feed;
//   std::string error;
//   if (!ParseFeed(bytes, FeedFields::kTitleAndDescription, &feed, &error)) {
//     std::cerr << name << ": " << error << "\n";
//   }
//
// Thread-safety: thread-safe (each call has its own parser).
#ifndef BENCHPROF_BENCHMARKS_RSS_FEED_PARSER_H_
#define BENCHPROF_BENCHMARKS_RSS_FEED_PARSER_H_

#include <string>
#include <string_view>

#include "rss/feed.h"

namespace benchprof::rss {

// Which fields ParseFeed() decodes; the others are skipped like unmapped
// elements.
enum class FeedFields {
  kTitleAndDescription,  // trace.go's item struct
  kAll,                  // the web service's Item and Image structs
};

// Decodes `xml`, an <rss> document, into `*feed` (which is cleared first):
// the items of <rss><channel>, and with kAll the channel's <image>. A text
// field receives the character data directly inside its element (CDATA
// included, entities resolved); text inside a nested element is skipped, as
// Go's decoder skips it. Returns false, with `*error` set to one line
// ("line L, column C: what"), if `xml` is not well-formed or its root
// element is not <rss>; `*feed` then holds what was decoded before the error.
bool ParseFeed(std::string_view xml, FeedFields fields, Feed* feed, std::string* error);

}  // namespace benchprof::rss

#endif  // BENCHPROF_BENCHMARKS_RSS_FEED_PARSER_H_
