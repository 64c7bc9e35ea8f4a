// Checks a Perfetto trace (proto/perfetto_trace.proto) for the rules a
// reader relies on, independently of benchprof's own reader: the file is
// parsed by libprotobuf, and every rule is checked on the messages.
//   - every sequence's first packet clears its incremental state, and every
//     later track event says it needs that state;
//   - every interned id (event name, category, annotation name) used is
//     defined on its sequence since the sequence's last clear;
//   - every track used (an event's track_uuid or its sequence's default, a
//     descriptor's parent) has a descriptor earlier in the file;
//   - timestamps never go back on a sequence (incremental clocks resolved
//     from the sequence's ClockSnapshot);
//   - slice begins and ends balance on every track (the track's events from
//     all sequences, in time order) and never end below zero;
//   - every flow id is carried by at least two events.
//
//   PerfettoCheck check = CheckPerfettoTrace(bytes);
//   EXPECT_TRUE(check.problems.empty()) << check.problems.front();
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_TESTS_SUPPORT_PERFETTO_CHECKER_H_
#define BENCHPROF_TESTS_SUPPORT_PERFETTO_CHECKER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace benchprof::testing {

struct PerfettoCheck {
  // One line per broken rule ("packet 12: category iid 3 is not defined on
  // sequence 2"); empty when the trace follows them all. At most 20.
  std::vector<std::string> problems;
  uint64_t packets = 0;
  uint64_t sequences = 0;
  uint64_t track_events = 0;
  uint64_t slice_begins = 0;
  uint64_t slice_ends = 0;
  uint64_t instants = 0;
  uint64_t counters = 0;
  uint64_t flows = 0;  // distinct flow ids
  uint64_t descriptors = 0;
  // Bytes of the packets of slice begins and ends, with their framing
  // (the file's bytes per slice pair: slice_bytes / slice_begins).
  uint64_t slice_bytes = 0;
  // The same for the slices on the tracks of threads only (regions, timed
  // loops, pauses): the common case.
  uint64_t thread_slice_bytes = 0;
  uint64_t thread_slice_begins = 0;
};

// Checks the trace `bytes` (a whole file).
PerfettoCheck CheckPerfettoTrace(std::string_view bytes);

// protoc --decode of `path` against proto/perfetto_trace.proto: the text
// form, or "" with `*error` set when protoc fails. `protoc` and `proto_dir`
// locate the tools (PROTOC_PATH and PROTO_DIR in the tests' definitions).
std::string ProtocDecode(const std::string& protoc, const std::string& proto_dir,
                         const std::string& path, std::string* error);

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_PERFETTO_CHECKER_H_
