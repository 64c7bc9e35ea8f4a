// Decodes one Chrome trace event straight from the JSON tokens of the trace
// being read: the members trace-summary uses become a TraceEvent, the rest
// are validated and skipped. Strings without escapes (all that the benchprof
// writer emits) are not copied: the event is held in the tokenizer's buffer
// until it is handed over.
//
//   TraceEventParser parser;
//   TraceEvent event;
//   if (tokens.Next() == json::Token::kBeginObject) {
//     Status s = parser.Parse(tokens, event);
//     if (!s.ok() && tokens.failure() == json::Failure::kNone) ... a field problem ...
//   }
//
// Thread-safety: thread-compatible (one parser per tokenizer).
#ifndef BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_PARSER_H_
#define BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_PARSER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/json_tokenizer.h"
#include "common/status.h"
#include "tools/trace_summary/trace_event.h"

namespace benchprof::trace_summary {

// "an object", "an array", "a string", "a number", "a bool" or "null": the
// kind of the value whose first token is `first`, for messages such as
// "\"ts\" is a string, expected a number".
std::string KindPhrase(json::Token first);

class TraceEventParser {
 public:
  // Reads the event whose kBeginObject `tokens` just returned, through its
  // kEndObject, into `event` (reset first; `line` is the line of its '{').
  // Members it does not use are ignored, so producers may add any.
  //
  // Fails in one of two ways. If the tokens are not JSON (or end), the
  // tokenizer has failed (tokens.failure() says how) and this returns
  // tokens.status(). If they are, but not an event, it returns the first
  // field problem in member order ("\"ts\" is a string, expected a number",
  // "\"args\" is an array, expected an object"), else "event without
  // \"ph\"" or "event without \"ts\"" (only metadata events, 'M', may lack
  // a time), and the tokenizer is after the event.
  //
  // The event's strings are valid until the tokenizer's next Next().
  Status Parse(json::Tokenizer& tokens, TraceEvent& event);

 private:
  // A string member of the event: where it is in the held event, or, if it
  // had escapes, a copy (`copy` keeps its capacity from event to event).
  struct StringField {
    json::Tokenizer::HeldSpan span;
    std::string copy;
    bool copied = false;
    bool set = false;
  };

  // The members decoding looks at, named before their value is read (the
  // key's bytes are gone by then).
  enum class Field : uint8_t;
  enum class ArgField : uint8_t;

  Status ReadMembers();
  Status ReadArgs();
  void DecodeMember(Field field, json::Token value);
  void DecodeArg(ArgField field, json::Token value);
  void KeepString(const char* key, json::Token value, StringField& field);
  void KeepNumericId();
  void MicrosToNanos(const char* key, json::Token value, std::optional<int64_t>& out);
  void ToInteger(const char* key, json::Token value, int64_t& out);
  void KindProblem(const char* key, json::Token value, const char* expected);
  void NumberProblem(const char* key, json::Token value);
  void Problem(std::string problem);
  std::string_view Resolve(const StringField& field) const;
  static Field FieldOf(std::string_view key);

  json::Tokenizer* tokens_ = nullptr;
  TraceEvent* event_ = nullptr;
  bool has_phase_ = false;
  std::string problem_;  // the first field problem of the event
  StringField name_, category_, id_, kind_, arg_name_;
};

}  // namespace benchprof::trace_summary

#endif  // BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_PARSER_H_
