// Decodes one Chrome trace event — the text of one element of the
// "traceEvents" array — into the fields `benchprof trace-summary` uses.
//
//   TraceEventDecoder decoder;
//   TraceEvent event;
//   Status s = decoder.Decode(R"({"ph":"B","name":"Search","tid":7,"ts":12.5})", event);
//   // event.phase == 'B', event.ts_ns == 12500
//
// Two paths give the same result. Events as the benchprof writer emits them
// — one flat object with a flat "args" object, strings without escapes —
// are scanned in place, without building a document. Anything else (an
// escape, a nested array, NaN, a syntax error, a field of the wrong type)
// goes through json::Parse, the project's strict parser, which then either
// decodes it or reports the error. The in-place scan never reports an error
// itself, so every message comes from one place; it makes reading a trace
// about twice as fast (340 vs 154 MB/s measured by trace_summary_scale_test),
// which matters for a trace of 10 million events.
//
// Thread-safety: thread-compatible (one decoder per thread).
#ifndef BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_DECODER_H_
#define BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_DECODER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/json_value.h"
#include "common/status.h"

namespace benchprof::trace_summary {

// One trace event, decoded. The string views point into the decoded text or
// into the decoder, and are valid until the decoder's next Decode() call and
// while the text lives; copy what you keep.
struct TraceEvent {
  // "ph": 'B', 'E', 'b', 'e', 'C', 'i', 'M', 'X', ...; 0 when "ph" is not
  // one character (no such phase exists; the event is then ignored).
  char phase = 0;
  std::string_view name;      // "name"; "" if absent
  std::string_view category;  // "cat"; "" if absent
  int64_t pid = 0;            // "pid"; 0 if absent
  int64_t tid = 0;            // "tid"; 0 if absent
  // "ts" and "dur" (microseconds in the file) in nanoseconds, rounded.
  std::optional<int64_t> ts_ns;
  std::optional<int64_t> dur_ns;
  // "id" as written ("0x2a"); a numeric id as its shortest decimal form.
  std::string_view id;

  // The members of "args" the summary uses.
  std::string_view kind;        // args.kind: "task" or "region" on b/e events
  std::string_view arg_name;    // args.name: the name a thread_name/process_name event sets
  std::optional<double> busy;   // args.busy: CPU counters
  std::optional<double> count;  // args.count: the "benchprof: dropped events" instant

  // The 1-based line of the file where the event starts, for messages (set
  // by the reader, not by the decoder).
  uint64_t line = 0;
};

class TraceEventDecoder {
 public:
  // `fast_path` false sends every event through json::Parse (tests compare
  // the two paths).
  explicit TraceEventDecoder(bool fast_path = true) : fast_path_(fast_path) {}

  // Decodes `text`, one JSON object, into `event` (which is reset first;
  // its `line` is kept). Members it does not use are ignored, so producers
  // may add any. Fails with "line L, column C: <problem>" (counted within
  // `text`, json::Parse's format) for text that is not one JSON object, or
  // with a one-line field problem ("\"ts\" is a string, expected a number",
  // "event without \"ph\"") for a well-formed object that is not an event.
  Status Decode(std::string_view text, TraceEvent& event);

  // How many Decode() calls took the json::Parse path.
  uint64_t slow_decodes() const { return slow_decodes_; }

 private:
  bool fast_path_;
  uint64_t slow_decodes_ = 0;
  std::string id_digits_;  // the text of a numeric "id", which event.id views
  json::Value parsed_;     // the slow path's document, which the event views
};

}  // namespace benchprof::trace_summary

#endif  // BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_DECODER_H_
