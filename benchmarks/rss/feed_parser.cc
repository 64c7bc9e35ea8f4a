#include "rss/feed_parser.h"

#include <expat.h>

#include <climits>
#include <cstring>
#include <memory>

namespace benchprof::rss {
namespace {

// The element depths of the mapped path rss > channel > (item | image) > field.
constexpr int kRootDepth = 1;
constexpr int kChannelDepth = 2;
constexpr int kEntryDepth = 3;
constexpr int kFieldDepth = 4;

bool Named(const XML_Char* name, const char* want) { return std::strcmp(name, want) == 0; }

// The decoder driven by expat's callbacks. Where the parser is in the
// mapped path is a handful of flags and a depth: no stack to allocate.
class FeedDecoder {
 public:
  FeedDecoder(XML_Parser parser, FeedFields fields, Feed* feed)
      : parser_(parser), all_(fields == FeedFields::kAll), feed_(feed) {}

  static void XMLCALL OnStart(void* self, const XML_Char* name, const XML_Char** /*attrs*/) {
    static_cast<FeedDecoder*>(self)->Start(name);
  }
  static void XMLCALL OnEnd(void* self, const XML_Char* /*name*/) {
    static_cast<FeedDecoder*>(self)->End();
  }
  static void XMLCALL OnText(void* self, const XML_Char* text, int length) {
    FeedDecoder* decoder = static_cast<FeedDecoder*>(self);
    // Only text directly inside the field's element, as Go's decoder keeps.
    if (decoder->text_ != nullptr && decoder->depth_ == kFieldDepth) {
      decoder->text_->append(text, static_cast<size_t>(length));
    }
  }

  // Set when the decoder, not expat, stopped the parse.
  const std::string& error() const { return error_; }

 private:
  void Start(const XML_Char* name) {
    ++depth_;
    switch (depth_) {
      case kRootDepth:
        if (!Named(name, "rss")) {
          // Go's Unmarshal: "expected element type <rss> but have <x>".
          error_ = "expected element type <rss> but have <" + std::string(name) + ">";
          XML_StopParser(parser_, XML_FALSE);
        }
        break;
      case kChannelDepth:
        in_channel_ = Named(name, "channel");
        break;
      case kEntryDepth:
        if (!in_channel_) break;
        if (Named(name, "item")) {
          in_item_ = true;
          feed_->items.emplace_back();
        } else if (all_ && Named(name, "image")) {
          in_image_ = true;
        }
        break;
      case kFieldDepth:
        text_ = in_item_ ? ItemField(name) : in_image_ ? ImageField(name) : nullptr;
        break;
      default:
        break;
    }
  }

  void End() {
    switch (depth_) {
      case kChannelDepth:
        in_channel_ = false;
        break;
      case kEntryDepth:
        in_item_ = in_image_ = false;
        break;
      case kFieldDepth:
        text_ = nullptr;
        break;
      default:
        break;
    }
    --depth_;
  }

  std::string* ItemField(const XML_Char* name) {
    FeedItem& item = feed_->items.back();
    if (Named(name, "title")) return &item.title;
    if (Named(name, "description")) return &item.description;
    if (!all_) return nullptr;
    if (Named(name, "link")) return &item.link;
    if (Named(name, "pubDate")) return &item.pub_date;
    return nullptr;
  }

  std::string* ImageField(const XML_Char* name) {
    if (Named(name, "url")) return &feed_->image.url;
    if (Named(name, "title")) return &feed_->image.title;
    if (Named(name, "link")) return &feed_->image.link;
    return nullptr;
  }

  XML_Parser parser_;
  const bool all_;
  Feed* feed_;
  int depth_ = 0;
  bool in_channel_ = false;
  bool in_item_ = false;
  bool in_image_ = false;
  std::string* text_ = nullptr;  // the field receiving character data, if any
  std::string error_;
};

struct ParserDeleter {
  void operator()(XML_ParserStruct* parser) const { XML_ParserFree(parser); }
};

}  // namespace

bool ParseFeed(std::string_view xml, FeedFields fields, Feed* feed, std::string* error) {
  *feed = Feed();
  // A fresh parser per document, as Go's Unmarshal makes a fresh decoder:
  // its setup is part of the per-document cost being measured.
  std::unique_ptr<XML_ParserStruct, ParserDeleter> parser(XML_ParserCreate(nullptr));
  if (parser == nullptr) {
    *error = "cannot create an XML parser (out of memory)";
    return false;
  }
  FeedDecoder decoder(parser.get(), fields, feed);
  XML_SetUserData(parser.get(), &decoder);
  XML_SetElementHandler(parser.get(), &FeedDecoder::OnStart, &FeedDecoder::OnEnd);
  XML_SetCharacterDataHandler(parser.get(), &FeedDecoder::OnText);

  // XML_Parse takes an int length: feed larger inputs in pieces.
  constexpr size_t kMaxPiece = INT_MAX / 2;
  do {
    const size_t piece = xml.size() < kMaxPiece ? xml.size() : kMaxPiece;
    const bool last = piece == xml.size();
    if (XML_Parse(parser.get(), xml.data(), static_cast<int>(piece), last ? XML_TRUE : XML_FALSE) !=
        XML_STATUS_OK) {
      const std::string what = !decoder.error().empty()
                                   ? decoder.error()
                                   : XML_ErrorString(XML_GetErrorCode(parser.get()));
      *error = "line " + std::to_string(XML_GetCurrentLineNumber(parser.get())) + ", column " +
               std::to_string(XML_GetCurrentColumnNumber(parser.get()) + 1) + ": " + what;
      return false;
    }
    xml.remove_prefix(piece);
  } while (!xml.empty());
  return true;
}

}  // namespace benchprof::rss
