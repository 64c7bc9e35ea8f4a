// One Chrome trace event (docs/trace-format.md), decoded: the fields that
// `benchprof trace-summary` uses. The trace reader (trace_file_reader.h)
// hands each one to a sink; the summary (trace_summary.h) consumes them.
//
//   ReadTraceFile(path, [&](const TraceEvent& e) {
//     if (e.phase == 'B' && e.category == "region") ... std::string(e.name) ...
//   });
//
// Thread-safety: a plain struct (thread-compatible).
#ifndef BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_H_
#define BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace benchprof::trace_summary {

// The string views point into the reader's buffer and are valid only while
// the sink runs; copy what you keep.
struct TraceEvent {
  // "ph": 'B', 'E', 'b', 'e', 'C', 'i', 'M', 'X', ...; 0 when "ph" is not
  // one character (no such phase exists; the event is then ignored).
  char phase = 0;
  std::string_view name;      // "name"; "" if absent
  std::string_view category;  // "cat"; "" if absent
  int64_t pid = 0;            // "pid"; 0 if absent
  int64_t tid = 0;            // "tid"; 0 if absent
  // Nonzero: a number the reader gives the same `name` every time (an
  // interned string of a Perfetto trace), so that a consumer can find what
  // it keeps for the name by number instead of by hashing its text; 0:
  // none. Only a hint: another reader may give the number to another name.
  uint32_t name_key = 0;
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

  // The 1-based line of the file where the event starts, for messages.
  uint64_t line = 0;
};

}  // namespace benchprof::trace_summary

#endif  // BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_EVENT_H_
