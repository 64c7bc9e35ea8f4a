#include "tools/trace_summary/trace_file_reader.h"

#include <optional>
#include <utility>

#include "common/json_byte_source.h"
#include "common/json_document.h"
#include "common/json_tokenizer.h"
#include "encode/gzip.h"
#include "tools/trace_summary/perfetto_trace_reader.h"
#include "tools/trace_summary/trace_event_parser.h"

namespace benchprof::trace_summary {
namespace {

using json::Failure;
using json::Token;

constexpr std::string_view kNotATrace =
    "not a trace: expected a JSON object with a \"traceEvents\" array, or an array of events";
constexpr std::string_view kBinaryData = "NUL byte (binary data)";
// Two of the tokenizer's problems (json_value.h lists them) that the reader
// words its own way, because it knows the array holds events and the value
// is a trace.
constexpr std::string_view kAfterArrayElement = "expected ',' or ']' after an array element";
constexpr std::string_view kAfterJsonValue = "trailing characters after the JSON value";

// How much of the file is looked at before parsing.
constexpr size_t kSniffBytes = 512;

// A file that is not JSON at all gets a better message than "expected a
// value": says what it seems to be, from its first bytes; "" if it may be a
// trace.
std::string_view Sniff(const json::PeekedSource& peeked) {
  std::string_view head = peeked.head;
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return peeked.ended ? "empty file" : "";
  const auto c = static_cast<unsigned char>(head[first]);
  if (c == '{' || c == '[') return "";
  if (head.find('\0') != std::string_view::npos || c < 0x20 || c == 0x7f) {
    return "not a trace: binary file";
  }
  return kNotATrace;
}

// One read of one trace: walks the structure around the events (the
// top-level object or array), hands each event to the parser and then to
// the sink, and turns the tokenizer's failures into the trace's messages.
class TraceReader {
 public:
  TraceReader(const std::string& name, const TraceEventSink& sink) : name_(name), sink_(sink) {}

  StatusOr<TraceFileInfo> Run(json::ByteSource source, size_t chunk_bytes) {
    StatusOr<json::PeekedSource> peeked = json::Peek(std::move(source), kSniffBytes);
    if (!peeked.ok()) return peeked.status().WithContext(name_);
    const std::string_view head = peeked->head;
    if (head.starts_with("\x1f\x8b")) return ReadCompressed(std::move(peeked->source), chunk_bytes);
    // A Perfetto trace starts with a packet (field 1, length-delimited:
    // 0x0A), as a JSON file may start with a newline; JSON's first
    // non-blank byte is '{' or '[', which no packet can be followed by (a
    // group's key, which Perfetto never writes).
    const size_t first_text = head.find_first_not_of(" \t\r\n");
    const bool json_text = first_text != std::string_view::npos &&
                           (head[first_text] == '{' || head[first_text] == '[');
    if (head.starts_with("\x0A") && !json_text) {
      return ReadPerfettoTrace(std::move(peeked->source), name_, sink_, chunk_bytes);
    }
    if (const std::string_view problem = Sniff(*peeked); !problem.empty()) {
      return Status::Error(name_ + ": " + std::string(problem));
    }
    json::TokenizerOptions options;
    options.chunk_bytes = chunk_bytes;
    options.max_buffered_bytes = kMaxTraceEventBytes;
    options.skip_bom = true;
    tokens_.emplace(std::move(peeked->source), options);
    if (Status s = Parse(); !s.ok()) return s;
    info_.bytes = tokens_->bytes_read();
    if (info_.truncated && info_.events == 0) {
      return Status::Error(name_ + ": " + info_.truncation + " before any complete event");
    }
    return std::move(info_);
  }

 private:
  // A gzip-compressed trace: decompressed whole (a trace compresses about
  // tenfold, so the cap bounds memory), then read as either format.
  StatusOr<TraceFileInfo> ReadCompressed(json::ByteSource source, size_t chunk_bytes) {
    std::string packed;
    while (true) {
      const size_t had = packed.size();
      packed.resize(had + kDefaultTraceChunkBytes);
      StatusOr<size_t> got = source(packed.data() + had, kDefaultTraceChunkBytes);
      if (!got.ok()) return got.status().WithContext(name_);
      packed.resize(had + *got);
      if (*got == 0) break;
      if (packed.size() > encode::kMaxGzipOutput) {
        return Status::Error(name_ + ": compressed trace larger than 1 GiB");
      }
    }
    StatusOr<std::string> text = encode::GzipDecompress(packed);
    if (!text.ok()) return text.status().WithContext(name_);
    packed.clear();
    packed.shrink_to_fit();
    if (text->starts_with("\x1f\x8b")) return Status::Error(name_ + ": gzip inside gzip");
    return TraceReader(name_, sink_).Run(json::TextSource(*text, chunk_bytes), chunk_bytes);
  }

  Status Parse() {
    const Token t = tokens_->Next();
    if (t == Token::kBeginArray) {
      info_.layout = TraceLayout::kArray;
      if (Status s = ParseEvents(); !s.ok() || info_.truncated || unclosed_array_) return s;
      return ExpectEnd();
    }
    if (t == Token::kBeginObject) return ParseTopObject();
    if (t == Token::kError && tokens_->failure() == Failure::kEmpty) {
      return Status::Error(name_ + ": empty file");  // more whitespace than was sniffed
    }
    if (t == Token::kError) return StructureError();
    return Status::Error(name_ + ": " + std::string(kNotATrace));
  }

  Status ParseTopObject() {
    bool seen_events = false;
    for (;;) {
      const Token t = tokens_->Next();
      if (t == Token::kEndObject) break;
      if (t == Token::kError && tokens_->failure() == Failure::kTooLarge) {
        return ErrorAtError("object key larger than 64 MiB");
      }
      if (t == Token::kError) return TopObjectError(seen_events);
      if (Status s = ParseTopMember(seen_events); !s.ok() || info_.truncated) return s;
    }
    if (Status s = ExpectEnd(); !s.ok()) return s;
    if (!seen_events) return Status::Error(name_ + ": not a trace: no \"traceEvents\" array");
    return Status();
  }

  // After a key of the top-level object: its value.
  Status ParseTopMember(bool& seen_events) {
    const std::string_view key = tokens_->string();  // valid until Next()
    if (key == "traceEvents") {
      const Token t = tokens_->Next();
      if (t == Token::kError) return TopObjectError(seen_events);
      if (t != Token::kBeginArray) {
        return ErrorAtToken("not a trace: \"traceEvents\" is " + KindPhrase(t) +
                            ", expected an array");
      }
      seen_events = true;
      return ParseEvents();
    }
    if (key == "otherData") return ParseOtherData(seen_events);
    // Other members ("displayTimeUnit", a viewer's "metadata", ...) are
    // checked but not kept.
    tokens_->Next();
    if (!tokens_->SkipValue()) return TopObjectError(seen_events);
    return Status();
  }

  Status ParseOtherData(bool seen_events) {
    const Token first = tokens_->Next();
    if (first == Token::kError) return TopObjectError(seen_events);  // no value yet
    const uint64_t line = tokens_->line(), column = tokens_->column();
    // Held only to bound it by kMaxTraceEventBytes, like an event.
    tokens_->Hold();
    json::Value other;
    const Status s = ReadOtherData(first, other);
    tokens_->Release();
    if (s.ok()) {
      info_.other_data = std::move(other);
      return Status();
    }
    if (tokens_->failure() == Failure::kTooLarge) {
      return Error(line, column, "\"otherData\" larger than 64 MiB");
    }
    if (tokens_->truncated()) return TopObjectError(seen_events);
    return TokenizerError();
  }

  // The value of "otherData", from its first token: a scalar as it is; of
  // an object, the members whose values are scalars, the first
  // kMaxOtherDataMembers of them; arrays and objects (in it, or as it) are
  // checked and skipped. A json::Value costs about 20 times the text it is
  // read from, so 64 MiB of small values would take over a gigabyte.
  Status ReadOtherData(Token first, json::Value& out) {
    if (first == Token::kBeginArray) {
      return tokens_->SkipValue() ? Status() : Status::Error("otherData");
    }
    if (first != Token::kBeginObject) return json::ReadValue(*tokens_, first, out);
    json::Value::Members members;
    for (;;) {
      const Token key = tokens_->Next();
      if (key == Token::kEndObject) break;
      if (key != Token::kKey) return Status::Error("otherData");
      std::string name(tokens_->string());
      const Token value = tokens_->Next();
      if (value == Token::kBeginArray || value == Token::kBeginObject) {
        if (!tokens_->SkipValue()) return Status::Error("otherData");
        continue;
      }
      json::Value scalar;
      if (Status s = json::ReadValue(*tokens_, value, scalar); !s.ok()) return s;
      if (members.size() < kMaxOtherDataMembers) {
        members.emplace_back(std::move(name), std::move(scalar));
      }
    }
    out = json::Value::MakeObject(std::move(members));
    return Status();
  }

  // After the '[' of the events: delivers each event, through the ']'. A
  // comma before the ']' is tolerated, as Chrome does.
  Status ParseEvents() {
    tokens_->AllowTrailingComma();
    for (;;) {
      const Token t = tokens_->Next();
      if (t == Token::kBeginObject) {
        if (Status s = ReadEvent(); !s.ok() || info_.truncated) return s;
        continue;
      }
      if (t == Token::kEndArray) return Status();
      if (t != Token::kError) return ErrorAtToken("expected an event object");
      return EventsError();
    }
  }

  // At an event's '{': decodes it and hands it to the sink.
  Status ReadEvent() {
    const uint64_t line = tokens_->line();
    const Status s = parser_.Parse(*tokens_, event_);
    if (s.ok()) {
      ++info_.events;
      sink_(event_);
      return Status();
    }
    switch (tokens_->failure()) {
      case Failure::kNone:  // a field problem
        return Status::Error(name_ + ": line " + std::to_string(line) + ": " + s.message());
      case Failure::kTruncated:
        MarkTruncated(line, "inside an event");
        return Status();
      case Failure::kTooLarge:
        return Status::Error(name_ + ": line " + std::to_string(line) +
                             ": event larger than 64 MiB (a string without its closing quote?)");
      default:
        return TokenizerError();
    }
  }

  Status ExpectEnd() {
    if (tokens_->Next() == Token::kEnd) return Status();
    if (tokens_->problem() == kAfterJsonValue) {
      return ErrorAtError("trailing characters after the trace");
    }
    return StructureError();
  }

  // --- failures of the tokenizer, by where they happen ---

  // Between two events, or at an element of "traceEvents" that is not one.
  Status EventsError() {
    const json::Tokenizer& t = *tokens_;
    switch (t.failure()) {
      case Failure::kSource:
        return TokenizerError();
      case Failure::kTruncated:
        if (t.offset() < t.bytes_read()) break;  // cut inside a token, which was no event
        // The array format may omit its closing bracket (Chrome's streaming
        // convention); the object format may not, so its trace was cut short.
        if (info_.layout == TraceLayout::kArray && info_.events > 0) {
          unclosed_array_ = true;
          return Status();
        }
        MarkTruncated(t.error_line(), "inside the \"traceEvents\" array");
        return Status();
      case Failure::kNulByte:
        if (t.error_offset() != t.offset()) break;  // inside a token
        return ErrorAtError(kBinaryData);
      case Failure::kSyntax:
        if (t.problem() == kAfterArrayElement) {
          return ErrorAtError("expected ',' or ']' after an event");
        }
        break;
      default:
        break;
    }
    return ErrorAtToken("expected an event object");
  }

  // Inside the top-level object but outside the events: the end of the
  // input before the events is an error; after them, a truncated file whose
  // events are all there.
  Status TopObjectError(bool seen_events) {
    if (!tokens_->truncated()) return StructureError();
    const uint64_t line = tokens_->error_line();
    if (!seen_events) {
      return Status::Error(name_ + ": line " + std::to_string(line) +
                           ": the file ends before the \"traceEvents\" array (truncated?)");
    }
    MarkTruncated(line, "after the events, inside the top-level object");
    return Status();
  }

  // Anywhere outside an event: a NUL byte means a binary file.
  Status StructureError() const {
    if (tokens_->failure() == Failure::kNulByte) return ErrorAtError(kBinaryData);
    return TokenizerError();
  }

  // "line L, column C: <problem>" as the tokenizer words it (or the read
  // error), after the file's name.
  Status TokenizerError() const { return tokens_->status().WithContext(name_); }

  Status Error(uint64_t line, uint64_t column, std::string_view problem) const {
    return Status::Error(name_ + ": line " + std::to_string(line) + ", column " +
                         std::to_string(column) + ": " + std::string(problem));
  }
  Status ErrorAtToken(std::string_view problem) const {
    return Error(tokens_->line(), tokens_->column(), problem);
  }
  Status ErrorAtError(std::string_view problem) const {
    return Error(tokens_->error_line(), tokens_->error_column(), problem);
  }

  void MarkTruncated(uint64_t line, const std::string& where) {
    info_.truncated = true;
    info_.truncation = "line " + std::to_string(line) + ": the file ends " + where;
  }

  const std::string& name_;
  const TraceEventSink& sink_;
  std::optional<json::Tokenizer> tokens_;
  TraceEventParser parser_;
  TraceEvent event_;
  TraceFileInfo info_;
  bool unclosed_array_ = false;  // the array layout's ']' is missing (allowed)
};

}  // namespace

StatusOr<TraceFileInfo> ReadTraceFile(const std::string& path, const TraceEventSink& sink,
                                      const TraceReadOptions& options) {
  StatusOr<json::ByteSource> source = json::OpenFileSource(path);
  if (!source.ok()) return source.status().WithContext(path);
  return TraceReader(path, sink).Run(std::move(*source), options.chunk_bytes);
}

StatusOr<TraceFileInfo> ReadTraceText(std::string_view text, const std::string& name,
                                      const TraceEventSink& sink, const TraceReadOptions& options) {
  // At most chunk_bytes per read, the sniffing included, as from a file.
  return TraceReader(name, sink)
      .Run(json::TextSource(text, options.chunk_bytes), options.chunk_bytes);
}

}  // namespace benchprof::trace_summary
