#include "tools/trace_summary/trace_file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <utility>

namespace benchprof::trace_summary {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// Fills `dst` with up to `capacity` bytes; 0 means the end of the input.
using ReadFn = std::function<StatusOr<size_t>(char* dst, size_t capacity)>;

// An open file descriptor, closed on destruction.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// "an object", "a string", ... for the JSON value whose first byte is `c`,
// so that a wrong "traceEvents" can be named without parsing it.
const char* KindOfValueStartingWith(int c) {
  switch (c) {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a bool";
    case 'n':
      return "null";
    default:
      return "a number";
  }
}

// The bytes the bracket matcher must look at; everything else is skipped
// with one table load and one well-predicted branch.
struct ByteClasses {
  bool special[256] = {};
  constexpr ByteClasses() {
    for (const unsigned char c : {'"', '\\', '{', '}', '[', ']', '\n'}) special[c] = true;
  }
};
constexpr ByteClasses kByteClasses;

// The streaming splitter: a small hand-written scanner for the structure
// around the events (top-level object or array, commas, keys) and a
// string-aware bracket matcher that finds where each event ends. Only the
// events (and "otherData") are parsed, each on its own.
class Splitter {
 public:
  Splitter(std::string name, ReadFn read, const TraceReadOptions& options,
           const TraceEventSink& sink)
      : name_(std::move(name)),
        read_(std::move(read)),
        chunk_(std::max<size_t>(options.chunk_bytes, 1)),
        sink_(sink),
        decoder_(options.fast_path) {}

  StatusOr<TraceFileInfo> Run() {
    const Status s = Parse();
    // A read error ends the input early; report it rather than whatever the
    // early end looked like.
    if (!read_error_.ok()) return read_error_;
    if (!s.ok()) return s;
    info_.bytes = base_ + size_;
    info_.slow_decodes = decoder_.slow_decodes();
    if (info_.truncated && info_.events == 0) {
      return Status::Error(name_ + ": " + info_.truncation + " before any complete event");
    }
    return std::move(info_);
  }

 private:
  enum class Scan { kDone, kEof, kTooLarge };

  // --- input ---

  // Reads the next chunk. Bytes before min(pos_, hold_) are consumed and
  // dropped first, so the buffer holds one chunk plus the event being cut
  // out. Returns false at the end of the input (or on a read error, which
  // read_error_ keeps).
  bool Fill() {
    if (eof_) return false;
    const size_t drop = std::min(pos_, hold_);
    if (drop > 0) {
      std::memmove(data_.get(), data_.get() + drop, size_ - drop);
      size_ -= drop;
      pos_ -= drop;
      if (hold_ != kNone) hold_ -= drop;
      base_ += drop;
    }
    if (capacity_ - size_ < chunk_) {
      const size_t capacity = std::max(capacity_ * 2, size_ + chunk_);
      std::unique_ptr<char[]> bigger(new char[capacity]);
      if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_);
      data_ = std::move(bigger);
      capacity_ = capacity;
    }
    StatusOr<size_t> n = read_(data_.get() + size_, chunk_);
    if (!n.ok()) {
      read_error_ = n.status();
      eof_ = true;
      return false;
    }
    if (*n == 0) {
      eof_ = true;
      return false;
    }
    size_ += *n;
    return true;
  }

  // The byte at pos_, or -1 at the end of the input.
  int Peek() {
    if (pos_ == size_ && !Fill()) return -1;
    return static_cast<unsigned char>(data_[pos_]);
  }

  void SkipWhitespace() {
    for (;;) {
      while (pos_ < size_) {
        const char c = data_[pos_];
        if (c == '\n') {
          ++line_;
          line_start_ = base_ + pos_ + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
          return;
        }
        ++pos_;
      }
      if (!Fill()) return;
    }
  }

  // Moves pos_ past the JSON value that starts at pos_: an object, array or
  // string by bracket and quote matching, anything else up to the next
  // delimiter. It does not validate — the decoder (or json::Parse) does that
  // on what it spans — and it stops early at a closing bracket that does not
  // match, or past json::kMaxDepth levels, so the parser reports the error at
  // the right byte instead of this scan swallowing the rest of the file.
  Scan SkipValue() {
    const char first = data_[pos_];
    if (first != '{' && first != '[' && first != '"') {
      for (;;) {
        while (pos_ < size_) {
          const char c = data_[pos_];
          if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            return Scan::kDone;
          }
          ++pos_;
        }
        if (!Fill()) return Scan::kEof;
      }
    }
    char closers[json::kMaxDepth + 1];
    int depth = 0;
    bool in_string = false;
    // A backslash was the last byte of the previous chunk: the byte after
    // it, whatever it is, belongs to the escape.
    bool escape_pending = false;
    for (;;) {
      const char* const begin = data_.get();
      const char* p = begin + pos_;
      const char* const end = begin + size_;
      const auto newline_before = [&](const char* q) {
        ++line_;
        line_start_ = base_ + static_cast<size_t>(q - begin);
      };
      if (escape_pending && p < end) {
        escape_pending = false;
        if (*p++ == '\n') newline_before(p);
      }
      while (p < end) {
        const char c = *p++;
        if (!kByteClasses.special[static_cast<unsigned char>(c)]) continue;
        if (c == '\n') {
          newline_before(p);
        } else if (in_string) {
          if (c == '\\') {
            // Skip the escaped byte here, so that the table above need not
            // know about escapes.
            if (p == end) {
              escape_pending = true;
            } else if (*p++ == '\n') {
              newline_before(p);
            }
          } else if (c == '"') {
            in_string = false;
            if (depth == 0) {
              pos_ = static_cast<size_t>(p - begin);
              return Scan::kDone;
            }
          }
        } else if (c == '"') {
          in_string = true;
        } else if (c == '{' || c == '[') {
          closers[depth++] = c == '{' ? '}' : ']';
          if (depth > json::kMaxDepth) {
            pos_ = static_cast<size_t>(p - begin);
            return Scan::kDone;
          }
        } else if (depth == 0 || closers[depth - 1] != c || --depth == 0) {
          // c is '}' or ']' (the value ends, or a mismatch ends the scan) or
          // a stray backslash, which also ends it, for the parser to report.
          pos_ = static_cast<size_t>(p - begin);
          return Scan::kDone;
        }
      }
      pos_ = size_;
      if (hold_ != kNone && size_ - hold_ > kMaxTraceEventBytes) return Scan::kTooLarge;
      if (!Fill()) return Scan::kEof;
    }
  }

  // --- messages ---

  uint64_t Column() const { return base_ + pos_ - line_start_ + 1; }

  std::string Where() const {
    return "line " + std::to_string(line_) + ", column " + std::to_string(Column());
  }

  Status ErrorAt(const std::string& problem) const {
    if (pos_ < size_ && data_[pos_] == '\0') {
      return Status::Error(name_ + ": " + Where() + ": NUL byte (binary data)");
    }
    return Status::Error(name_ + ": " + Where() + ": " + problem);
  }

  // json::Parse (and with it the decoder) reports "line L, column C:
  // problem" within the text it was given (a documented format); turn that
  // into the position in the file of a text that starts at `line`,
  // `column`. Other messages (a field problem) get just the line.
  Status Relocate(const Status& s, uint64_t line, uint64_t column) const {
    const std::string& m = s.message();
    uint64_t l = 0, c = 0;
    constexpr std::string_view kLine = "line ", kColumn = ", column ";
    const char* p = m.data();
    const char* const end = m.data() + m.size();
    bool ok = m.compare(0, kLine.size(), kLine) == 0;
    if (ok) {
      const auto r = std::from_chars(p + kLine.size(), end, l);
      p = r.ptr;
      ok = r.ec == std::errc() &&
           std::string_view(p, static_cast<size_t>(end - p)).substr(0, kColumn.size()) == kColumn;
    }
    if (ok) {
      const auto r = std::from_chars(p + kColumn.size(), end, c);
      p = r.ptr;
      ok = r.ec == std::errc() && l >= 1 && c >= 1;
    }
    if (!ok) {
      return Status::Error(name_ + ": line " + std::to_string(line) + ": " + m);
    }
    const uint64_t file_line = line + l - 1;
    const uint64_t file_column = l == 1 ? column + c - 1 : c;
    return Status::Error(name_ + ": line " + std::to_string(file_line) + ", column " +
                         std::to_string(file_column) + std::string(p, end));
  }

  void MarkTruncated(uint64_t line, const std::string& where) {
    info_.truncated = true;
    info_.truncation = "line " + std::to_string(line) + ": the file ends " + where;
  }

  // --- structure ---

  // Reads until `n` bytes from pos_ on are buffered or the input ends.
  void EnsureBuffered(size_t n) {
    while (size_ - pos_ < n && Fill()) {
    }
  }

  Status Parse() {
    // A UTF-8 byte order mark is not JSON, but editors add it.
    EnsureBuffered(3);
    if (size_ >= 3 && std::memcmp(data_.get(), "\xEF\xBB\xBF", 3) == 0) pos_ = 3;
    SkipWhitespace();
    const int c = Peek();
    if (c < 0) return Status::Error(name_ + ": empty file");
    if (c == '[') {
      info_.layout = TraceLayout::kArray;
      if (Status s = ParseEventArray(); !s.ok() || info_.truncated) return s;
      return ExpectEnd();
    }
    if (c == '{') return ParseTopObject();
    EnsureBuffered(512);
    if (c == 0x1f && pos_ + 1 < size_ && static_cast<unsigned char>(data_[pos_ + 1]) == 0x8b) {
      return Status::Error(name_ + ": not a trace: gzip-compressed (decompress it first)");
    }
    const size_t probe = std::min(size_ - pos_, size_t{512});
    if (std::memchr(data_.get() + pos_, '\0', probe) != nullptr || c < 0x20 || c == 0x7f) {
      return Status::Error(name_ + ": not a trace: binary file");
    }
    return Status::Error(name_ +
                         ": not a trace: expected a JSON object with a \"traceEvents\" array, "
                         "or an array of events");
  }

  Status ExpectEnd() {
    SkipWhitespace();
    if (Peek() >= 0) return ErrorAt("trailing characters after the trace");
    return Status();
  }

  // The end of the input inside the top-level object: before the events, an
  // error; after them, a truncated file whose events are all there.
  Status TopObjectEndedEarly(bool seen_events) {
    if (!seen_events) {
      return Status::Error(name_ + ": line " + std::to_string(line_) +
                           ": the file ends before the \"traceEvents\" array (truncated?)");
    }
    MarkTruncated(line_, "after the events, inside the top-level object");
    return Status();
  }

  Status ParseTopObject() {
    ++pos_;  // '{'
    bool seen_events = false;
    for (bool first = true;; first = false) {
      SkipWhitespace();
      int c = Peek();
      if (c < 0) return TopObjectEndedEarly(seen_events);
      if (first && c == '}') {
        ++pos_;
        break;
      }
      if (c != '"') return ErrorAt("expected a string key");
      std::string key;
      const uint64_t key_line = line_, key_column = Column();
      hold_ = pos_;
      const Scan scan = SkipValue();
      const size_t key_start = hold_;
      hold_ = kNone;
      if (scan == Scan::kTooLarge) return ErrorAt("object key larger than 64 MiB");
      if (scan == Scan::kEof) return TopObjectEndedEarly(seen_events);
      const std::string_view key_text(data_.get() + key_start, pos_ - key_start);
      if (key_text.find('\\') == std::string_view::npos) {
        key = key_text.substr(1, key_text.size() - 2);
      } else {
        StatusOr<json::Value> parsed = json::Parse(key_text);
        if (!parsed.ok()) return Relocate(parsed.status(), key_line, key_column);
        key = parsed->as_string();
      }
      SkipWhitespace();
      c = Peek();
      if (c < 0) return TopObjectEndedEarly(seen_events);
      if (c != ':') return ErrorAt("expected ':' after an object key");
      ++pos_;
      SkipWhitespace();
      c = Peek();
      if (c < 0) return TopObjectEndedEarly(seen_events);
      if (key == "traceEvents") {
        if (c != '[') {
          return ErrorAt(std::string("not a trace: \"traceEvents\" is ") +
                         KindOfValueStartingWith(c) + ", expected an array");
        }
        seen_events = true;
        if (Status s = ParseEventArray(); !s.ok() || info_.truncated) return s;
      } else if (key == "otherData") {
        const uint64_t line = line_, column = Column();
        hold_ = pos_;
        const Scan other = SkipValue();
        const size_t start = hold_;
        hold_ = kNone;
        if (other == Scan::kTooLarge) return ErrorAt("\"otherData\" larger than 64 MiB");
        if (other == Scan::kEof) return TopObjectEndedEarly(seen_events);
        StatusOr<json::Value> parsed =
            json::Parse(std::string_view(data_.get() + start, pos_ - start));
        if (!parsed.ok()) return Relocate(parsed.status(), line, column);
        info_.other_data = std::move(*parsed);
      } else if (SkipValue() != Scan::kDone) {
        // Other members ("displayTimeUnit", a viewer's "metadata", ...)
        // are skipped by extent only: streaming means not parsing what is
        // not used.
        return TopObjectEndedEarly(seen_events);
      }
      SkipWhitespace();
      c = Peek();
      if (c < 0) return TopObjectEndedEarly(seen_events);
      if (c == ',') {
        ++pos_;
        continue;
      }
      if (c == '}') {
        ++pos_;
        break;
      }
      return ErrorAt("expected ',' or '}' after an object member");
    }
    if (Status s = ExpectEnd(); !s.ok()) return s;
    if (!seen_events) return Status::Error(name_ + ": not a trace: no \"traceEvents\" array");
    return Status();
  }

  // Reads the array at pos_ (which is '['), delivering each event. Sets
  // info_.truncated when the input ends inside it. A comma before the ']'
  // is tolerated, as Chrome does.
  Status ParseEventArray() {
    ++pos_;  // '['
    for (;;) {
      SkipWhitespace();
      int c = Peek();
      if (c < 0) return ArrayEndedEarly();
      if (c == ']') {
        ++pos_;
        return Status();
      }
      if (c != '{') return ErrorAt("expected an event object");
      if (Status s = ReadEvent(); !s.ok() || info_.truncated) return s;
      SkipWhitespace();
      c = Peek();
      if (c < 0) return ArrayEndedEarly();
      if (c == ',') {
        ++pos_;
        continue;
      }
      if (c == ']') {
        ++pos_;
        return Status();
      }
      return ErrorAt("expected ',' or ']' after an event");
    }
  }

  // The end of the input between events: the array format may omit its
  // closing bracket (Chrome's streaming convention); the object format may
  // not, so its trace was cut short.
  Status ArrayEndedEarly() {
    if (info_.layout == TraceLayout::kArray && info_.events > 0) return Status();
    MarkTruncated(line_, "inside the \"traceEvents\" array");
    return Status();
  }

  // Cuts out the event at pos_ (which is '{'), parses, decodes and delivers it.
  Status ReadEvent() {
    const uint64_t line = line_, column = Column();
    hold_ = pos_;
    const Scan scan = SkipValue();
    const size_t start = hold_;
    hold_ = kNone;
    if (scan == Scan::kEof) {
      MarkTruncated(line, "inside an event");
      return Status();
    }
    if (scan == Scan::kTooLarge) {
      return Status::Error(name_ + ": line " + std::to_string(line) +
                           ": event larger than 64 MiB (a string without its closing quote?)");
    }
    event_.line = line;
    const Status s = decoder_.Decode(std::string_view(data_.get() + start, pos_ - start), event_);
    if (!s.ok()) return Relocate(s, line, column);
    ++info_.events;
    sink_(event_);
    return Status();
  }

  const std::string name_;
  const ReadFn read_;
  const size_t chunk_;
  const TraceEventSink& sink_;

  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0;
  size_t size_ = 0;      // bytes in data_
  size_t pos_ = 0;       // next byte to look at
  size_t hold_ = kNone;  // first byte that must stay in data_ (an event being cut out)
  uint64_t base_ = 0;    // offset in the input of data_[0]
  bool eof_ = false;
  Status read_error_;

  uint64_t line_ = 1;        // the line of pos_
  uint64_t line_start_ = 0;  // offset in the input of that line's first byte

  TraceEventDecoder decoder_;
  TraceEvent event_;
  TraceFileInfo info_;
};

}  // namespace

StatusOr<TraceFileInfo> ReadTraceFile(const std::string& path, const TraceEventSink& sink,
                                      const TraceReadOptions& options) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return Status::Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd.get(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return Status::Error(path + ": is a directory");
  }
  ReadFn read = [&](char* dst, size_t capacity) -> StatusOr<size_t> {
    for (;;) {
      const ssize_t n = ::read(fd.get(), dst, capacity);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno != EINTR) return Status::Error(path + ": cannot read: " + std::strerror(errno));
    }
  };
  return Splitter(path, std::move(read), options, sink).Run();
}

StatusOr<TraceFileInfo> ReadTraceText(std::string_view text, const std::string& name,
                                      const TraceEventSink& sink, const TraceReadOptions& options) {
  ReadFn read = [&text](char* dst, size_t capacity) -> StatusOr<size_t> {
    const size_t n = std::min(capacity, text.size());
    std::memcpy(dst, text.data(), n);
    text.remove_prefix(n);
    return n;
  };
  return Splitter(name, std::move(read), options, sink).Run();
}

}  // namespace benchprof::trace_summary
