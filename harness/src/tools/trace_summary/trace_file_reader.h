// Reads a Chrome trace-event JSON file (what `bench --trace=FILE` writes,
// docs/trace-format.md) as a stream of events, without ever holding the
// whole file: a trace can have 10 million events (~1 GB). A Perfetto trace
// (its first byte 0x0A, a packet) is handed to perfetto_trace_reader.h, which
// gives the same events; a gzip-compressed trace (either format) is
// decompressed first, whole, up to 1 GiB.
//
// The file is read in chunks by the project's one JSON reader,
// json::Tokenizer, which checks every byte once; each event is decoded from
// its tokens as they come (TraceEventParser), without copying its strings,
// and handed to the caller. Memory is one chunk plus the largest event.
//
//   StatusOr<TraceFileInfo> info = ReadTraceFile("pool.json", [&](const TraceEvent& e) {
//     if (e.phase == 'B') ...
//   });
//   if (!info.ok()) Fail(info.status().message());  // "pool.json: line 3, column 9: ..."
//   if (info->truncated) Warn(info->truncation);
//
// Accepted layouts:
//   - the JSON object format, {"traceEvents":[...], "otherData":{...}, ...},
//     with its members in any order; members other than "traceEvents" and
//     "otherData" are checked (the whole file must be JSON) but not kept;
//   - the JSON array format, a bare top-level array of events, whose closing
//     ']' may be missing (Chrome allows that so writers can stream).
//
// A file that ends early (the bench process was killed while writing) is not
// an error as long as at least one event is complete: the complete events
// are delivered and TraceFileInfo says where the file was cut. Everything
// else that is not a trace — an empty file, a binary file, a syntax error
// anywhere, an element that is not an object, a field of the wrong type —
// fails with one line naming the file, the line and the problem.
//
// Thread-safety: thread-safe (no shared state); the sink is called on the
// caller's thread.
#ifndef BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_FILE_READER_H_
#define BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_FILE_READER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/json_value.h"
#include "common/status.h"
#include "tools/trace_summary/trace_event.h"

namespace benchprof::trace_summary {

// How the events were wrapped: the two JSON layouts, or Perfetto's protobuf
// format (perfetto_trace_reader.h).
enum class TraceLayout { kObject, kArray, kPerfetto };

// What the reader learnt about the file besides its events.
struct TraceFileInfo {
  TraceLayout layout = TraceLayout::kObject;
  uint64_t events = 0;  // events delivered to the sink
  uint64_t bytes = 0;   // bytes read
  // The file ends before the trace does: inside an event, inside the
  // "traceEvents" array of the object format, or after it inside the top
  // object. The events delivered are the complete ones before the cut.
  bool truncated = false;
  std::string truncation;  // e.g. "line 812: the file ends inside an event"
  // The top-level "otherData" object (null when absent or cut off): its
  // first kMaxOtherDataMembers members whose values are strings, numbers,
  // booleans or null; nested arrays and objects are checked but not kept.
  json::Value other_data;
};

// The most members of "otherData" kept (bench writes 8 or so): with
// kMaxTraceEventBytes, it bounds what otherData costs to a few times its
// text, where a json::Value of all of it could take 20 times that.
inline constexpr size_t kMaxOtherDataMembers = 1'000;

// Receives each event in file order.
using TraceEventSink = std::function<void(const TraceEvent&)>;

// How much the reader asks the operating system for at a time.
inline constexpr size_t kDefaultTraceChunkBytes = size_t{1} << 20;

struct TraceReadOptions {
  // Bytes per read; tests use tiny chunks to put boundaries everywhere.
  size_t chunk_bytes = kDefaultTraceChunkBytes;
};

// An event (or "otherData", or any one string) larger than this is reported
// as an error rather than buffered: events are a few hundred bytes, so this
// is a file that is not a trace (or a string whose closing quote is
// missing), and memory must stay bounded.
inline constexpr size_t kMaxTraceEventBytes = size_t{64} << 20;

// Reads the trace at `path`, calling `sink` for every event. Fails with
// "<path>: cannot open: <reason>", "<path>: is a directory",
// "<path>: empty file", "<path>: not a trace: ...",
// "<path>: line L, column C: <problem>", "<path>: line L: <field problem>"
// and the like.
StatusOr<TraceFileInfo> ReadTraceFile(const std::string& path, const TraceEventSink& sink,
                                      const TraceReadOptions& options = {});

// The same for a trace in memory; `name` stands for the file in messages.
// It is consumed options.chunk_bytes at a time, like a file.
StatusOr<TraceFileInfo> ReadTraceText(std::string_view text, const std::string& name,
                                      const TraceEventSink& sink,
                                      const TraceReadOptions& options = {});

}  // namespace benchprof::trace_summary

#endif  // BENCHPROF_TOOLS_TRACE_SUMMARY_TRACE_FILE_READER_H_
