// SearchDocumentTraced: the only file of the workload that includes the
// trace API, so that the rest builds without the trace recorder.

#include <benchprof/trace.h>

#include "rss/feed.h"
#include "rss/feed_parser.h"
#include "rss/freq.h"

namespace benchprof::rss {

std::optional<int> SearchDocumentTraced(const DocumentSet& set, size_t index,
                                        std::string_view topic, std::string* error) {
  // Go named each task after its document; benchprof groups tasks by type,
  // so the type is fixed and the name goes into the task's log instead.
  const Task task = NewTask("document");
  Log(task, "document", set.name(index));

  std::optional<OpenDocument> document =
      WithRegion(task, "OpenFile", [&] { return set.Open(index, error); });
  if (!document) {
    *error = "opening: " + *error;
    return std::nullopt;
  }
  std::string bytes;
  if (!WithRegion(task, "ReadAll", [&] { return ReadAll(std::move(*document), &bytes, error); })) {
    *error = "reading: " + *error;
    return std::nullopt;
  }
  Feed feed;
  if (!WithRegion(task, "Unmarshal", [&] {
        return ParseFeed(bytes, FeedFields::kTitleAndDescription, &feed, error);
      })) {
    *error = "decoding: " + *error;
    return std::nullopt;
  }
  return WithRegion(task, "Search", [&] { return CountTopicHits(feed, topic); });
}

}  // namespace benchprof::rss
