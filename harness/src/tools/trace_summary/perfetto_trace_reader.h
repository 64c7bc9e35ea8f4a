// Reads a Perfetto protobuf trace (what `bench --trace=FILE.pftrace` writes,
// docs/trace-format.md "Perfetto format") as the same stream of events the
// JSON reader gives (trace_event.h), so that `benchprof trace-summary` says
// the same of one run written in either format:
//   - a thread track's slice begin and end are 'B'/'E', its instants 'i';
//   - a slice on a track under a thread's (benchmark runs, blocked) is one
//     'X' on that thread, given at its end;
//   - a slice on a track under the process (a task) is 'b'/'e' with the
//     track's uuid as its id (in hexadecimal, "0x15") and kind "task";
//   - counter values: "CPU ..." tracks are 'C' with category "cpu" and
//     busy, "CPUs" is category "process", "allocated bytes" is the
//     allocations counter ("allocated objects" goes with it, not apart);
//   - thread and process names from the track descriptors are 'M' events;
//   - the "benchprof: trace info" and "benchprof: trace totals" instants
//     become TraceFileInfo::other_data, as the JSON's "otherData".
// Timestamps follow each sequence's clocks: incremental clocks (ids 64..127,
// from the sequence's ClockSnapshot) and built-in ones, taken as one time
// line.
//
// The file is read in chunks and decoded by hand (no message objects), at
// hundreds of MB/s; memory is a chunk, the largest packet, the sequences'
// interned strings, and the slices still open. A file cut short is read up
// to its last whole packet (TraceFileInfo::truncated). Bytes that are not a
// Perfetto trace, a packet that uses a track no descriptor defined or an
// interned id its sequence never defined fail with one line naming the
// byte offset.
//
//   StatusOr<TraceFileInfo> info = ReadPerfettoTrace(std::move(source), "t.pftrace", sink);
//
// Thread-safety: thread-safe (no shared state); the sink runs on the
// caller's thread.
#ifndef BENCHPROF_TOOLS_TRACE_SUMMARY_PERFETTO_TRACE_READER_H_
#define BENCHPROF_TOOLS_TRACE_SUMMARY_PERFETTO_TRACE_READER_H_

#include <cstddef>
#include <string>

#include "common/json_byte_source.h"
#include "common/status.h"
#include "tools/trace_summary/trace_file_reader.h"

namespace benchprof::trace_summary {

// Reads the Perfetto trace `source` yields (`name` stands for it in
// messages), `chunk_bytes` at a time, calling `sink` for every event.
StatusOr<TraceFileInfo> ReadPerfettoTrace(json::ByteSource source, const std::string& name,
                                          const TraceEventSink& sink, size_t chunk_bytes);

}  // namespace benchprof::trace_summary

#endif  // BENCHPROF_TOOLS_TRACE_SUMMARY_PERFETTO_TRACE_READER_H_
