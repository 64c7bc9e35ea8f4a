// The one JSON lexer of benchprof: a single-pass, streaming pull tokenizer.
// Google Benchmark result files are read through it into a json::Value
// (json_document.h), and Chrome trace files of a gigabyte are walked token by
// token in constant memory (tools/trace_summary/trace_file_reader.h).
//
//   json::Tokenizer tokens(std::move(source));  // a ByteSource (json_byte_source.h)
//   for (json::Token t = tokens.Next(); t != json::Token::kEnd; t = tokens.Next()) {
//     if (t == json::Token::kError) return tokens.status().WithContext(path);
//     if (t == json::Token::kKey && tokens.string() == "ts") ...
//   }
//
// It validates as it goes: strict RFC 8259 plus the bare number tokens NaN,
// Infinity and -Infinity (which Google Benchmark writes), so a consumer only
// ever sees a well-formed token sequence, ended by kEnd after one complete
// top-level value or by kError at the first problem. The problems and their
// positions are those json::Parse documents (json_value.h), "line L, column
// C: <problem>", because json::Parse is this tokenizer. Nesting is capped at
// json::kMaxDepth. Line numbers cost nothing: a raw newline can only occur
// between tokens, so only the whitespace skipper counts them.
//
// Memory is one chunk of input plus the longest token (or held span, see
// Hold()), bounded by TokenizerOptions::max_buffered_bytes.
//
// Thread-safety: thread-compatible (one tokenizer per thread).
#ifndef BENCHPROF_COMMON_JSON_TOKENIZER_H_
#define BENCHPROF_COMMON_JSON_TOKENIZER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/json_byte_source.h"
#include "common/json_input_buffer.h"
#include "common/json_value.h"
#include "common/status.h"

namespace benchprof::json {

enum class Token : uint8_t {
  kBeginObject,
  kEndObject,
  kBeginArray,
  kEndArray,
  kKey,     // an object member's name: string()
  kString,  // string()
  kNumber,  // number(); NaN, Infinity and -Infinity included
  kTrue,
  kFalse,
  kNull,
  kEnd,    // the top-level value is complete and only whitespace follows
  kError,  // status() says what and where; every later Next() returns kError
};

// Why a tokenizer returned kError.
enum class Failure : uint8_t {
  kNone,
  kSyntax,     // the text breaks the grammar, or a number is out of range
  kNulByte,    // a NUL byte where JSON text was expected: binary data, usually
  kTruncated,  // the input ends inside the value
  kEmpty,      // the input is empty or only whitespace
  kTooLarge,   // a token or a held span needs more than max_buffered_bytes
  kSource,     // the ByteSource failed; status() is its error, unchanged
};

struct TokenizerOptions {
  // Bytes asked of the source at a time.
  size_t chunk_bytes = size_t{1} << 20;
  // The most bytes that may stay buffered at once: one string or number
  // token, or a span kept by Hold(). Past it Next() fails (kTooLarge), so a
  // string without its closing quote cannot make the buffer grow unbounded.
  size_t max_buffered_bytes = size_t{64} << 20;
  // Skip a UTF-8 byte order mark at the very start (editors add one). Its
  // bytes still count in columns and offsets.
  bool skip_bom = false;
};

class Tokenizer {
 public:
  explicit Tokenizer(ByteSource source, const TokenizerOptions& options = {});
  // Over text in memory, which must outlive the tokenizer. It is copied into
  // the buffer a chunk at a time; max_buffered_bytes does not apply.
  explicit Tokenizer(std::string_view text);
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Reads the next token. After kEnd or kError it returns the same again.
  Token Next();

  // The last token Next() returned.
  Token token() const { return token_; }

  // kKey, kString: the unescaped bytes, valid until the next Next() (to keep
  // one longer without copying, see Hold()).
  std::string_view string() const { return string_; }
  // The last string had escapes, so string() views a scratch buffer rather
  // than the input, and held_string() does not apply: copy it to keep it.
  bool escaped() const { return escaped_; }

  // kNumber: the value, correctly rounded.
  double number() const { return number_; }

  // How many arrays and objects are open after the last token.
  int depth() const { return depth_; }

  // Where the last token starts: 1-based line and byte column, and the
  // 0-based byte offset in the input. After kError, where the token being
  // read started (so offset() < bytes_read() after a truncation means the
  // input ends inside a token rather than between two).
  uint64_t line() const { return line_; }
  uint64_t column() const { return offset() - line_start_ + 1; }
  uint64_t offset() const { return input_.offset_of(tok_); }

  // Bytes consumed from the source so far.
  uint64_t bytes_read() const { return input_.offset_of(input_.end()); }

  // Reads past the value that the last token began: through the matching
  // kEndObject or kEndArray after kBeginObject or kBeginArray, nothing after
  // a scalar. The value is validated all the same. False at kError.
  bool SkipValue();

  // Keeps the input from the last token's first byte on in the buffer until
  // Release() (it counts against max_buffered_bytes), so that strings read
  // meanwhile can be used without copying. The bytes may move when the
  // buffer is refilled, so such a string is named by its place in the held
  // bytes, held_string(), and looked up with held() once the tokens are read.
  struct HeldSpan {
    size_t offset = 0;
    size_t size = 0;
  };
  void Hold() { hold_ = tok_; }
  void Release() { hold_ = nullptr; }
  // The last kKey or kString, which must have no escapes, while held.
  HeldSpan held_string() const {
    return {static_cast<size_t>(string_.data() - hold_), string_.size()};
  }
  // The bytes of `span`, valid until the next Next().
  std::string_view held(HeldSpan span) const { return {hold_ + span.offset, span.size}; }

  // The array that the last token (kBeginArray) opened accepts one ',' before
  // its ']', as Chrome's trace viewer does. Nothing else is relaxed.
  void AllowTrailingComma() { trailing_comma_depth_ = depth_; }

  // After kError: "line L, column C: <problem>", or the source's own error.
  const Status& status() const { return status_; }
  // After kError: the kind of problem, and (except for kSource) where it is
  // and what it is without the position, for callers that word it their way.
  Failure failure() const { return failure_; }
  bool truncated() const { return failure_ == Failure::kTruncated; }
  uint64_t error_line() const { return error_line_; }
  uint64_t error_column() const { return error_column_; }
  uint64_t error_offset() const { return error_offset_; }
  std::string_view problem() const { return problem_; }

 private:
  enum class State : uint8_t {
    kStart,        // before the top-level value
    kValue,        // a value must follow (after ',' in an array)
    kAfterKey,     // ':' and a value must follow
    kArrayFirst,   // after '[': a value or ']'
    kObjectFirst,  // after '{': a key or '}'
    kAfterValue,   // ',' or the closing bracket must follow
    kDone,         // the top-level value is complete
    kFailed,
  };

  Tokenizer(ByteSource source, const TokenizerOptions& options, size_t max_buffered);

  const char* SkipWhitespace(const char* p);
  const char* SkipWhitespaceLoop(const char* p);
  Token NextInRareState(const char* p);
  Token Start(const char* p);
  Token ScanValue(const char* p);
  Token Open(const char* p, bool object);
  Token ScanKey(const char* p);
  Token ScanString(const char* p, Token kind);
  Token ScanStringSlow(const char* q, Token kind);
  Token EndString(const char* close, const char* run, Token kind);
  Token ScanNumber(const char* p);
  Token ScanNumberSlow();
  Token ScanLiteral(const char* p, std::string_view word, Token kind, double number);
  Token Close(const char* p, Token kind);
  Token AfterScalar(Token kind);
  bool Refill();
  bool Ensure(const char*& p, size_t n);
  Token Fail(const char* at, Failure failure, std::string_view problem);
  void SetError(Failure failure, uint64_t line, uint64_t column, uint64_t offset,
                std::string_view problem);
  Token Unexpected(const char* at, const char* report_at, std::string_view problem);
  Token Unexpected(const char* at, std::string_view problem) { return Unexpected(at, at, problem); }

  InputBuffer input_;
  bool skip_bom_;
  const char* p_;    // the next byte to read
  const char* tok_;  // the first byte of the last token
  const char* hold_ = nullptr;

  uint64_t line_ = 1;
  uint64_t line_start_ = 0;  // offset of the first byte of line_

  State state_ = State::kStart;
  Token token_ = Token::kEnd;
  int depth_ = 0;
  int trailing_comma_depth_ = -1;
  bool in_object_[kMaxDepth + 1] = {};

  std::string_view string_;
  bool escaped_ = false;
  std::string scratch_;
  double number_ = 0;

  Status status_;
  Failure failure_ = Failure::kNone;
  uint64_t error_line_ = 0;
  uint64_t error_column_ = 0;
  uint64_t error_offset_ = 0;
  std::string problem_;
};

}  // namespace benchprof::json

#endif  // BENCHPROF_COMMON_JSON_TOKENIZER_H_
