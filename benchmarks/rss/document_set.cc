#include "rss/document_set.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace benchprof::rss {
namespace {

// The largest corpus accepted: 100x the Go program's, 2.5 GB on disk.
constexpr int kMaxDocuments = 400000;

// strerror_r, not strerror: documents are opened on many threads at once.
std::string ErrnoText(int error_number) {
  char buffer[128];
  return strerror_r(error_number, buffer, sizeof buffer);  // the GNU variant
}

bool WriteFile(const std::string& path, std::string_view bytes, std::string* error) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    *error = "cannot write " + path + ": " + ErrnoText(errno);
    return false;
  }
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const int saved = errno;
  if (std::fclose(file) != 0 || !written) {
    *error = "cannot write " + path + ": " + ErrnoText(written ? errno : saved);
    return false;
  }
  return true;
}

}  // namespace

OpenDocument::OpenDocument(OpenDocument&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), memory_(other.memory_) {}

OpenDocument& OpenDocument::operator=(OpenDocument&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    memory_ = other.memory_;
  }
  return *this;
}

OpenDocument::~OpenDocument() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<DocumentSet> DocumentSet::Create(const DocumentSetOptions& options,
                                               std::string* error) {
  if (options.documents < 1 || options.documents > kMaxDocuments) {
    *error = "documents: want 1.." + std::to_string(kMaxDocuments) + ", got " +
             std::to_string(options.documents);
    return std::nullopt;
  }
  if (options.storage == Storage::kDisk && options.directory.empty()) {
    *error = "documents on disk need a directory";
    return std::nullopt;
  }
  DocumentSet set;
  set.storage_ = options.storage;
  set.layout_ = options.layout;
  const size_t count = static_cast<size_t>(options.documents);
  set.names_.reserve(count);
  for (int i = 0; i < options.documents; ++i) set.names_.push_back(DocumentName(i));

  const size_t sources = options.layout == Layout::kSharedFile ? 1 : count;
  for (size_t i = 0; i < sources; ++i) {
    std::string bytes = GenerateDocument(options.seed, static_cast<int>(i));
    if (options.storage == Storage::kMemory) {
      set.buffers_.push_back(std::move(bytes));
      continue;
    }
    std::string path =
        options.directory + "/" +
        (options.layout == Layout::kSharedFile ? std::string(kSharedFileName) : set.names_[i]);
    if (!WriteFile(path, bytes, error)) return std::nullopt;
    set.paths_.push_back(std::move(path));
  }
  return set;
}

const std::string& DocumentSet::path(size_t index) const {
  return storage_ == Storage::kDisk ? paths_[source_of(index)] : no_path_;
}

std::optional<OpenDocument> DocumentSet::Open(size_t index, std::string* error) const {
  if (storage_ == Storage::kMemory) return OpenDocument(-1, buffers_[source_of(index)]);
  const std::string& file = paths_[source_of(index)];
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = "open " + file + ": " + ErrnoText(errno);
    return std::nullopt;
  }
  return OpenDocument(fd, {});
}

bool ReadAll(OpenDocument&& document, std::string* bytes, std::string* error) {
  OpenDocument owned(std::move(document));  // closed on return, like Go's f.Close()
  if (owned.fd_ < 0) {
    bytes->assign(owned.memory_);
    return true;
  }
  // io.ReadAll starts at 512 bytes and grows as it goes: it does not ask the
  // file its size, and neither do we, so the reallocations stay in the cost.
  bytes->clear();
  bytes->resize(512);
  size_t filled = 0;
  for (;;) {
    if (filled == bytes->size()) bytes->resize(bytes->size() * 2);
    const ssize_t n = ::read(owned.fd_, bytes->data() + filled, bytes->size() - filled);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = std::string("read: ") + ErrnoText(errno);
      bytes->clear();
      return false;
    }
    if (n == 0) break;
    filled += static_cast<size_t>(n);
  }
  bytes->resize(filled);
  return true;
}

}  // namespace benchprof::rss
