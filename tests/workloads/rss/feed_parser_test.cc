// ParseFeed decodes what Go's xml.Unmarshal would into the same structs,
// and reports malformed documents as one-line errors, never a crash.

#include "rss/feed_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rss/feed.h"

namespace benchprof::rss {
namespace {

constexpr const char* kSmallFeed = R"(<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="x.xsl"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title><![CDATA[Channel title]]></title>
    <image>
      <url>http://example.invalid/logo.gif</url>
      <title>News &amp; more</title>
      <link>http://example.invalid/</link>
    </image>
    <item>
      <title><![CDATA[The president speaks]]></title>
      <description><![CDATA[Nothing <b>here</b>.]]></description>
      <link>http://example.invalid/1</link>
      <pubDate>Thu, 09 Nov 2017 15:38:45 GMT</pubDate>
      <media:thumbnail width="976" height="549" url="http://example.invalid/1.jpg"/>
    </item>
    <item>
      <title>Plain &lt;text&gt; title</title>
      <description>Text <em>skipped</em> around a nested element &#233;.</description>
      <unknown><title>not an item field</title></unknown>
    </item>
    <item/>
  </channel>
</rss>
)";

TEST(FeedParserTest, DecodesItemsLikeUnmarshal) {
  Feed feed;
  std::string error;
  ASSERT_TRUE(ParseFeed(kSmallFeed, FeedFields::kTitleAndDescription, &feed, &error)) << error;
  ASSERT_EQ(feed.items.size(), 3u);
  EXPECT_EQ(feed.items[0].title, "The president speaks");
  // CDATA is text, markup inside it included.
  EXPECT_EQ(feed.items[0].description, "Nothing <b>here</b>.");
  // Fields not asked for are skipped.
  EXPECT_EQ(feed.items[0].link, "");
  EXPECT_EQ(feed.items[0].pub_date, "");
  EXPECT_EQ(feed.image.url, "");
  // Entities resolved; text inside a nested element left out, as Go does.
  EXPECT_EQ(feed.items[1].title, "Plain <text> title");
  EXPECT_EQ(feed.items[1].description, "Text  around a nested element \xC3\xA9.");
  EXPECT_EQ(feed.items[2].title, "");
  EXPECT_EQ(CountTopicHits(feed, "president"), 1);
}

TEST(FeedParserTest, DecodesEveryFieldWhenAsked) {
  Feed feed;
  std::string error;
  ASSERT_TRUE(ParseFeed(kSmallFeed, FeedFields::kAll, &feed, &error)) << error;
  EXPECT_EQ(feed.image.url, "http://example.invalid/logo.gif");
  EXPECT_EQ(feed.image.title, "News & more");
  EXPECT_EQ(feed.image.link, "http://example.invalid/");
  ASSERT_EQ(feed.items.size(), 3u);
  EXPECT_EQ(feed.items[0].link, "http://example.invalid/1");
  EXPECT_EQ(feed.items[0].pub_date, "Thu, 09 Nov 2017 15:38:45 GMT");
  // The channel's own <title> is not an item's.
  EXPECT_EQ(feed.items[0].title, "The president speaks");
}

TEST(FeedParserTest, ClearsTheFeedFirst) {
  Feed feed;
  feed.items.resize(5);
  std::string error;
  ASSERT_TRUE(ParseFeed("<rss><channel><item/></channel></rss>", FeedFields::kAll, &feed, &error));
  EXPECT_EQ(feed.items.size(), 1u);
}

TEST(FeedParserTest, EmptyChannelIsNotAnError) {
  Feed feed;
  std::string error;
  EXPECT_TRUE(ParseFeed("<rss/>", FeedFields::kTitleAndDescription, &feed, &error)) << error;
  EXPECT_TRUE(feed.items.empty());
}

struct Malformed {
  const char* what;
  std::string xml;
  std::string message;  // expected in the error, after "line L, column C: "
};

TEST(FeedParserTest, MalformedDocumentsAreOneLineErrors) {
  const std::vector<Malformed> cases = {
      {"empty", "", "no element found"},
      {"truncated between elements",
       std::string(kSmallFeed)
           .substr(0, std::string(kSmallFeed).find("<item>\n      <title>Plain")),
       "no element found"},
      {"truncated in CDATA", std::string(kSmallFeed).substr(0, 400), "unclosed CDATA section"},
      {"mismatched tag", "<rss><channel><item></channel></rss>", "mismatched tag"},
      {"unclosed CDATA", "<rss><channel><item><title><![CDATA[x</title>", "unclosed CDATA"},
      {"bad entity", "<rss><channel><item><title>&bogus;</title></item></channel></rss>",
       "undefined entity"},
      {"junk after root", "<rss/><rss/>", "junk after document element"},
      {"not XML", "{\"json\": true}", "not well-formed (invalid token)"},
      {"wrong root", "<feed><entry/></feed>", "expected element type <rss> but have <feed>"},
      {"binary", std::string("<rss>\x01</rss>", 12), "not well-formed"},
  };
  for (const Malformed& c : cases) {
    Feed feed;
    std::string error;
    EXPECT_FALSE(ParseFeed(c.xml, FeedFields::kTitleAndDescription, &feed, &error)) << c.what;
    EXPECT_EQ(error.rfind("line ", 0), 0u) << c.what << ": " << error;
    EXPECT_NE(error.find(", column "), std::string::npos) << c.what << ": " << error;
    EXPECT_NE(error.find(c.message), std::string::npos) << c.what << ": " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << c.what << ": " << error;
  }
}

TEST(FeedParserTest, ErrorNamesTheLine) {
  Feed feed;
  std::string error;
  ASSERT_FALSE(ParseFeed("<rss>\n<channel>\n<item>\n</channel>", FeedFields::kAll, &feed, &error));
  EXPECT_EQ(error.rfind("line 4, column 3: mismatched tag", 0), 0u) << error;
  // What was decoded before the error is kept.
  EXPECT_EQ(feed.items.size(), 1u);
}

}  // namespace
}  // namespace benchprof::rss
