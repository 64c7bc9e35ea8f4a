// DocumentSet: the newsfeed program's list of documents and where their
// bytes live, plus the first two steps of the per-document work — open the
// document and read it all — as the Go program does them (os.OpenFile,
// io.ReadAll, Close).
//
// Storage and layout:
//   * disk, shared file (the default, and what the Go program really did):
//     one file, newsfeed.xml, and every name newsfeed-NNNN.xml opens it. It
//     stays in the page cache, so opening and reading are cheap and the run
//     is bound by decoding.
//   * disk, one file per document: newsfeed-0000.xml ... each different.
//   * memory: no file I/O at all; "opening" finds the bytes and "reading"
//     copies them into a fresh buffer, as ReadAll would. Shared or one per
//     document, as above.
//
// Example:
//   DocumentSetOptions options;
//   options.documents = 200;
//   options.directory = dir;  // must exist (disk storage)
//   std::optional<DocumentSet> set = DocumentSet::Create(options, &error);
//   std::optional<OpenDocument> doc = set->Open(42, &error);
//   std::string bytes;
//   if (doc && ReadAll(std::move(*doc), &bytes, &error)) { ... }
//
// Thread-safety: a DocumentSet is immutable after Create(), so any number of
// threads may open its documents at once. An OpenDocument is
// thread-compatible (one owner at a time; it may move between threads).
#ifndef BENCHPROF_BENCHMARKS_RSS_DOCUMENT_SET_H_
#define BENCHPROF_BENCHMARKS_RSS_DOCUMENT_SET_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rss/corpus.h"

namespace benchprof::rss {

enum class Storage { kDisk, kMemory };

enum class Layout {
  kSharedFile,       // every document is document 0 (newsfeed.xml)
  kFilePerDocument,  // document i is GenerateDocument(seed, i)
};

struct DocumentSetOptions {
  int documents = kDefaultDocuments;
  uint64_t seed = kDefaultSeed;
  Storage storage = Storage::kDisk;
  Layout layout = Layout::kSharedFile;
  std::string directory;  // kDisk: an existing directory the files are written into
};

// An opened document: a file descriptor (disk) or a view of its bytes
// (memory). Closes its descriptor when destroyed. Move-only.
class OpenDocument {
 public:
  OpenDocument(OpenDocument&& other) noexcept;
  OpenDocument& operator=(OpenDocument&& other) noexcept;
  OpenDocument(const OpenDocument&) = delete;
  OpenDocument& operator=(const OpenDocument&) = delete;
  ~OpenDocument();

 private:
  friend class DocumentSet;
  friend bool ReadAll(OpenDocument&& document, std::string* bytes, std::string* error);
  OpenDocument(int fd, std::string_view memory) : fd_(fd), memory_(memory) {}

  int fd_ = -1;
  std::string_view memory_;
};

class DocumentSet {
 public:
  // Generates the documents and writes them into options.directory (disk)
  // or keeps them (memory). Returns nothing, with `*error` set to one line,
  // if options are out of range (documents must be at least 1) or a file
  // cannot be written.
  static std::optional<DocumentSet> Create(const DocumentSetOptions& options, std::string* error);

  // Number of documents.
  size_t size() const { return names_.size(); }

  // The name of document `index`: "newsfeed-0042.xml" (for logs and tasks).
  const std::string& name(size_t index) const { return names_[index]; }

  // Where document `index` is read from: a file path, or "" in memory.
  const std::string& path(size_t index) const;

  Storage storage() const { return storage_; }
  Layout layout() const { return layout_; }

  // Opens document `index` read-only. Returns nothing, with `*error` set to
  // "open <path>: <reason>", if the file cannot be opened.
  std::optional<OpenDocument> Open(size_t index, std::string* error) const;

 private:
  DocumentSet() = default;

  // The source (file path or bytes) of document i is sources_[source_of(i)].
  size_t source_of(size_t index) const { return layout_ == Layout::kSharedFile ? 0 : index; }

  Storage storage_ = Storage::kDisk;
  Layout layout_ = Layout::kSharedFile;
  std::vector<std::string> names_;
  std::vector<std::string> paths_;    // kDisk: one per source
  std::vector<std::string> buffers_;  // kMemory: one per source
  std::string no_path_;
};

// Reads everything from `document` into `*bytes` (replacing its contents),
// growing the buffer as Go's io.ReadAll does, then closes the document.
// Returns false, with `*error` set to one line, on a read error.
bool ReadAll(OpenDocument&& document, std::string* bytes, std::string* error);

// The one-file name the Go program opened for every document.
inline constexpr std::string_view kSharedFileName = "newsfeed.xml";

}  // namespace benchprof::rss

#endif  // BENCHPROF_BENCHMARKS_RSS_DOCUMENT_SET_H_
