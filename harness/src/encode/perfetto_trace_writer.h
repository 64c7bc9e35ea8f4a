// Perfetto's own protobuf trace format (proto/perfetto_trace.proto), the
// file `--trace=FILE.pftrace` writes: Perfetto UI and trace_processor read it
// natively, at about a ninth of the size of the Chrome JSON trace
// (tracer/chrome_json_writer.h) of the same run (the RSS pool benchmark),
// and it is written faster. It is a TraceFormatter like
// the JSON writer: a function of the decoded event stream. The packets
// written are docs/trace-format.md's "Perfetto format".
//
// Layout, chosen so that every sequence's timestamps only go forward (the
// decoder orders a thread's spans, but reports runs, waits and counter
// readings when their interval is complete):
//   * one track per thread (pid, tid, name) under the process's track, fed
//     by one sequence per thread: its regions (without a category: 29
//     bytes a begin and end), timed loops, pauses, logs and thread
//     start/exit, with names and categories interned and the thread's track
//     as the sequence's default;
//   * a "benchmark runs" and a "blocked" track under each thread that has
//     runs or waits, each fed by a sequence of its own;
//   * one track per task under the process (its slice from begin to end,
//     written by whichever thread began or ended it, without a category;
//     the task's id is on the track's descriptor, once); a region of a task
//     on a thread other than the one that began it carries the task's id
//     and is the end of a flow from an instant on the task's track at its
//     start (the task's work moved there);
//   * one counter track (and sequence) per CPU counter, the process's
//     "CPUs", and the allocation totals (bytes, objects).
// Each sequence begins with SEQ_INCREMENTAL_STATE_CLEARED, its defaults
// (an incremental clock, id 64, and its default track) and a ClockSnapshot
// tying that clock to BOOTTIME, whose values are nanoseconds since the start
// of tracing, as the JSON's. Because every sequence is self-contained from
// its first packet, and track descriptors are written before their first
// use by whatever event comes first, a bounded ring of recorded events (a
// flight recorder) can be decoded and written through this class as it is:
// each sequence then starts where the ring's events of its stream start.
//
// Packets are encoded with libprotobuf into a buffer that is flushed to the
// file every MiB, so memory does not grow with the trace (only the interned
// strings and the per-task state of tasks still open); a file cut short is
// readable up to its last whole packet. Not compressed: gzip -1 takes the
// RSS pool trace down 4.4x more but would more than double the time to
// write it, making it slower than the JSON writer (docs/tracing.md).
//
//   auto perfetto = std::make_unique<PerfettoTraceWriter>("trace.pftrace.tmp");
//   perfetto->Begin(info); perfetto->Add(event); ...; Status done = perfetto->End(totals);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_ENCODE_PERFETTO_TRACE_WRITER_H_
#define BENCHPROF_ENCODE_PERFETTO_TRACE_WRITER_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/buffered_output_file.h"
#include "tracer/trace_formatter.h"

namespace perfetto::protos {
class TracePacket;
class TrackEvent;
}  // namespace perfetto::protos

namespace benchprof::encode {

// The sequence-scoped incremental clock every sequence uses (64..127 are
// sequence-scoped user clocks in Perfetto's numbering).
inline constexpr uint32_t kPerfettoIncrementalClock = 64;
// BOOTTIME, the built-in clock the incremental clocks are tied to.
inline constexpr uint32_t kPerfettoBootTimeClock = 6;

class PerfettoTraceWriter final : public tracer::TraceFormatter {
 public:
  // Writes to `path` (created or truncated at Begin()).
  explicit PerfettoTraceWriter(std::string path);
  ~PerfettoTraceWriter() override;

  void Begin(const tracer::TraceInfo& info) override;
  void Add(const tracer::TraceEvent& event) override;
  Status End(const tracer::TraceTotals& totals) override;
  // Track events written (slice begins and ends, instants, counter values).
  uint64_t events_written() const override { return events_; }

 private:
  // Interned ids by string, found by a string_view without a copy.
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using InternTable = std::unordered_map<std::string, uint64_t, StringHash, std::equal_to<>>;

  // One writer sequence (trusted_packet_sequence_id): its interned strings
  // and its incremental clock's last value.
  struct Sequence {
    uint32_t id = 0;
    uint64_t default_track = 0;
    int64_t last_ns = 0;
    bool started = false;
    InternTable names;
    InternTable categories;
    InternTable annotation_names;
  };

  // The sequence of stream `key` (a thread's timeline, its runs, ...),
  // created with `default_track` as its default.
  Sequence& SequenceFor(uint64_t key, uint64_t default_track);
  // Starts a packet at `ts_ns` on `seq` (its first packet clears the
  // sequence's state and sets its clock and defaults) and returns its
  // track event.
  perfetto::protos::TrackEvent* StartEvent(Sequence& seq, int64_t ts_ns);
  // Interned ids on `seq`: added to the current packet's InternedData if new.
  uint64_t NameIid(Sequence& seq, std::string_view name);
  uint64_t CategoryIid(Sequence& seq, std::string_view category);
  void AddUintAnnotation(Sequence& seq, perfetto::protos::TrackEvent* event, std::string_view name,
                         uint64_t value);
  void AddStringAnnotation(Sequence& seq, perfetto::protos::TrackEvent* event,
                           std::string_view name, std::string_view value);
  void AddDoubleAnnotation(Sequence& seq, perfetto::protos::TrackEvent* event,
                           std::string_view name, double value);
  // Appends the current packet to the buffer and clears it.
  void FinishPacket();

  // Track descriptors, each written once before the track's first use.
  uint64_t ThreadTrack(pid_t tid);
  uint64_t ChildTrack(pid_t tid, uint64_t kind, std::string_view name);
  uint64_t TaskTrack(uint64_t task_id, std::string_view type);
  uint64_t CounterTrack(std::string_view name, uint64_t parent, int unit,
                        std::string_view unit_name);
  void WriteThreadDescriptor(pid_t tid, std::string_view name);

  // Add() per kind of event.
  void AddThreadEvent(const tracer::TraceEvent& e);
  void AddTask(const tracer::TraceEvent& e);
  void AddSliceWithDuration(const tracer::TraceEvent& e, uint64_t kind, std::string_view track,
                            std::string_view category);
  void AddCounter(std::string_view track_name, uint64_t parent, int unit,
                  std::string_view unit_name, int64_t ts_ns, double value);
  void AddAllocations(const tracer::TraceEvent& e);

  BufferedOutputFile out_;
  std::string& buffer_ = out_.buffer();  // packets not written yet
  std::unique_ptr<perfetto::protos::TracePacket> packet_;
  pid_t pid_ = 0;
  uint64_t events_ = 0;
  uint32_t next_sequence_id_ = 1;
  uint64_t next_counter_ = 1;
  uint64_t next_flow_ = 1;
  std::unordered_map<uint64_t, Sequence> sequences_;
  std::unordered_set<uint64_t> described_;                 // track uuids with a descriptor
  InternTable counter_tracks_;  // track uuids by counter name
  std::unordered_map<uint64_t, pid_t> begun_on_;  // open tasks: the thread that began each
  std::unordered_set<uint64_t> ended_early_;      // ended before their begin was seen
  std::unordered_map<uint64_t, bool> task_tracks_named_;  // described task tracks: named yet?
};

}  // namespace benchprof::encode

#endif  // BENCHPROF_ENCODE_PERFETTO_TRACE_WRITER_H_
