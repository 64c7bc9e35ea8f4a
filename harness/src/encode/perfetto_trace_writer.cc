#include "encode/perfetto_trace_writer.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "perfetto_trace.pb.h"

namespace benchprof::encode {
namespace {

namespace pb = perfetto::protos;
using tracer::EventType;
using tracer::TraceEvent;


// Track uuids: small numbers, so that a task's track costs few bytes in
// each of its events. The low 4 bits say what the track is.
constexpr uint64_t kProcessTrack = 1;
constexpr uint64_t kThreadTrackKind = 2;
constexpr uint64_t kRunTrackKind = 3;
constexpr uint64_t kBlockedTrackKind = 4;
constexpr uint64_t kTaskTrackKind = 5;
constexpr uint64_t kCounterTrackKind = 6;

uint64_t Uuid(uint64_t number, uint64_t kind) { return number << 4 | kind; }

// Sequence keys: what a sequence carries (top byte) and whose it is.
constexpr uint64_t kInfoStream = 0;
constexpr uint64_t kThreadStream = 1;
constexpr uint64_t kRunStream = 2;
constexpr uint64_t kBlockedStream = 3;
constexpr uint64_t kCounterStream = 4;

uint64_t StreamKey(uint64_t stream, uint64_t owner) { return stream << 56 | owner; }

uint64_t Tid(pid_t tid) { return static_cast<uint64_t>(static_cast<uint32_t>(tid)); }

// Times before the start of tracing are written as 0, as in the JSON.
int64_t Clamped(int64_t ns) { return ns < 0 ? 0 : ns; }

// Four decimals, as the JSON writes a busy share, so that both formats give
// trace-summary the same numbers.
double FourDecimals(double value) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 4);
  if (ec != std::errc()) return value;
  double rounded = value;
  std::from_chars(text, end, rounded);
  return rounded;
}

void AppendVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

}  // namespace

PerfettoTraceWriter::PerfettoTraceWriter(std::string path)
    : out_(std::move(path), "the trace"), packet_(std::make_unique<pb::TracePacket>()) {}

PerfettoTraceWriter::~PerfettoTraceWriter() = default;

void PerfettoTraceWriter::FinishPacket() {
  // Trace.packet (field 1, length-delimited): the file is a Trace message
  // written one packet at a time.
  const size_t size = packet_->ByteSizeLong();
  buffer_.push_back('\x0A');
  AppendVarint(buffer_, size);
  const size_t at = buffer_.size();
  buffer_.resize(at + size);
  packet_->SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(buffer_.data() + at));
  packet_->Clear();
  out_.FlushIfLarge();
}

void PerfettoTraceWriter::Begin(const tracer::TraceInfo& info) {
  pid_ = info.pid;
  out_.Open();

  pb::TrackDescriptor* process = packet_->mutable_track_descriptor();
  process->set_uuid(kProcessTrack);
  process->mutable_process()->set_pid(pid_);
  process->mutable_process()->set_process_name(info.process_name);
  described_.insert(kProcessTrack);
  FinishPacket();

  // What the JSON keeps in otherData, as an instant on the process's track.
  Sequence& seq = SequenceFor(StreamKey(kInfoStream, 0), kProcessTrack);
  pb::TrackEvent* event = StartEvent(seq, 0);
  event->set_type(pb::TrackEvent::TYPE_INSTANT);
  event->set_name_iid(NameIid(seq, "benchprof: trace info"));
  event->add_category_iids(CategoryIid(seq, "benchprof"));
  AddStringAnnotation(seq, event, "producer",
                      std::string("benchprof ") + BENCHPROF_TRACE_PRODUCER_VERSION);
  AddStringAnnotation(seq, event, "clock", info.clock);
  AddUintAnnotation(seq, event, "cpus", info.cpus);
  FinishPacket();
}

PerfettoTraceWriter::Sequence& PerfettoTraceWriter::SequenceFor(uint64_t key,
                                                                uint64_t default_track) {
  auto [it, added] = sequences_.try_emplace(key);
  if (added) {
    it->second.id = next_sequence_id_++;
    it->second.default_track = default_track;
  }
  return it->second;
}

pb::TrackEvent* PerfettoTraceWriter::StartEvent(Sequence& seq, int64_t ts_ns) {
  ts_ns = Clamped(ts_ns);
  if (!seq.started) {
    // The sequence's first packet: a fresh state, its defaults, and its
    // incremental clock starting at this packet's time.
    seq.started = true;
    seq.last_ns = ts_ns;
    packet_->set_trusted_packet_sequence_id(seq.id);
    packet_->set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
    packet_->set_first_packet_on_sequence(true);
    packet_->set_previous_packet_dropped(true);
    packet_->set_timestamp(static_cast<uint64_t>(ts_ns));
    packet_->set_timestamp_clock_id(kPerfettoBootTimeClock);
    pb::TracePacketDefaults* defaults = packet_->mutable_trace_packet_defaults();
    defaults->set_timestamp_clock_id(kPerfettoIncrementalClock);
    defaults->mutable_track_event_defaults()->set_track_uuid(seq.default_track);
    pb::ClockSnapshot* clocks = packet_->mutable_clock_snapshot();
    pb::ClockSnapshot::Clock* boot = clocks->add_clocks();
    boot->set_clock_id(kPerfettoBootTimeClock);
    boot->set_timestamp(static_cast<uint64_t>(ts_ns));
    pb::ClockSnapshot::Clock* incremental = clocks->add_clocks();
    incremental->set_clock_id(kPerfettoIncrementalClock);
    incremental->set_timestamp(static_cast<uint64_t>(ts_ns));
    incremental->set_is_incremental(true);
    FinishPacket();
  }
  packet_->set_trusted_packet_sequence_id(seq.id);
  packet_->set_sequence_flags(pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE);
  if (ts_ns >= seq.last_ns) {
    packet_->set_timestamp(static_cast<uint64_t>(ts_ns - seq.last_ns));
    seq.last_ns = ts_ns;
  } else {
    // Cannot happen for the streams above (each is in time order); if it
    // did, the event keeps its time in the absolute clock, as Perfetto's
    // SDK writes a late event.
    packet_->set_timestamp(static_cast<uint64_t>(ts_ns));
    packet_->set_timestamp_clock_id(kPerfettoBootTimeClock);
  }
  ++events_;
  return packet_->mutable_track_event();
}

uint64_t PerfettoTraceWriter::NameIid(Sequence& seq, std::string_view name) {
  auto it = seq.names.find(name);
  if (it != seq.names.end()) return it->second;
  const uint64_t iid = seq.names.size() + 1;
  seq.names.emplace(std::string(name), iid);
  pb::EventName* entry = packet_->mutable_interned_data()->add_event_names();
  entry->set_iid(iid);
  entry->set_name(std::string(name));
  return iid;
}

uint64_t PerfettoTraceWriter::CategoryIid(Sequence& seq, std::string_view category) {
  auto it = seq.categories.find(category);
  if (it != seq.categories.end()) return it->second;
  const uint64_t iid = seq.categories.size() + 1;
  seq.categories.emplace(std::string(category), iid);
  pb::EventCategory* entry = packet_->mutable_interned_data()->add_event_categories();
  entry->set_iid(iid);
  entry->set_name(std::string(category));
  return iid;
}

namespace {

template <typename Table>
uint64_t AnnotationNameIid(Table& names, pb::TracePacket& packet, std::string_view name) {
  auto it = names.find(name);
  if (it != names.end()) return it->second;
  const uint64_t iid = names.size() + 1;
  names.emplace(std::string(name), iid);
  pb::DebugAnnotationName* entry = packet.mutable_interned_data()->add_debug_annotation_names();
  entry->set_iid(iid);
  entry->set_name(std::string(name));
  return iid;
}

}  // namespace

void PerfettoTraceWriter::AddUintAnnotation(Sequence& seq, pb::TrackEvent* event,
                                            std::string_view name, uint64_t value) {
  pb::DebugAnnotation* annotation = event->add_debug_annotations();
  annotation->set_name_iid(AnnotationNameIid(seq.annotation_names, *packet_, name));
  annotation->set_uint_value(value);
}

void PerfettoTraceWriter::AddStringAnnotation(Sequence& seq, pb::TrackEvent* event,
                                              std::string_view name, std::string_view value) {
  pb::DebugAnnotation* annotation = event->add_debug_annotations();
  annotation->set_name_iid(AnnotationNameIid(seq.annotation_names, *packet_, name));
  annotation->set_string_value(std::string(value));
}

void PerfettoTraceWriter::AddDoubleAnnotation(Sequence& seq, pb::TrackEvent* event,
                                              std::string_view name, double value) {
  pb::DebugAnnotation* annotation = event->add_debug_annotations();
  annotation->set_name_iid(AnnotationNameIid(seq.annotation_names, *packet_, name));
  annotation->set_double_value(value);
}

// ---- track descriptors (written between packets, never inside one) ----

void PerfettoTraceWriter::WriteThreadDescriptor(pid_t tid, std::string_view name) {
  pb::TrackDescriptor* track = packet_->mutable_track_descriptor();
  track->set_uuid(Uuid(Tid(tid), kThreadTrackKind));
  track->set_parent_uuid(kProcessTrack);
  pb::ThreadDescriptor* thread = track->mutable_thread();
  thread->set_pid(pid_);
  thread->set_tid(tid);
  if (!name.empty()) thread->set_thread_name(std::string(name));
  FinishPacket();
}

uint64_t PerfettoTraceWriter::ThreadTrack(pid_t tid) {
  const uint64_t uuid = Uuid(Tid(tid), kThreadTrackKind);
  // The name is known only at the end (the decoder keeps the last of the
  // highest rank): End() describes the track again with it.
  if (described_.insert(uuid).second) WriteThreadDescriptor(tid, {});
  return uuid;
}

uint64_t PerfettoTraceWriter::ChildTrack(pid_t tid, uint64_t kind, std::string_view name) {
  const uint64_t uuid = Uuid(Tid(tid), kind);
  if (described_.count(uuid) != 0) return uuid;
  const uint64_t parent = ThreadTrack(tid);
  described_.insert(uuid);
  pb::TrackDescriptor* track = packet_->mutable_track_descriptor();
  track->set_uuid(uuid);
  track->set_parent_uuid(parent);
  track->set_name(std::string(name));
  FinishPacket();
  return uuid;
}

uint64_t PerfettoTraceWriter::TaskTrack(uint64_t task_id, std::string_view type) {
  const uint64_t uuid = Uuid(task_id, kTaskTrackKind);
  // A region may come before its task's begin (another thread's events are
  // decoded first): the track is described then without a name, and again
  // with the task's type once it is known.
  auto [it, added] = task_tracks_named_.try_emplace(uuid, false);
  if (!added && (it->second || type.empty())) return uuid;
  it->second = !type.empty();
  described_.insert(uuid);
  pb::TrackDescriptor* track = packet_->mutable_track_descriptor();
  track->set_uuid(uuid);
  track->set_parent_uuid(kProcessTrack);
  if (!type.empty()) track->set_name(std::string(type));
  // The task's id, once per track rather than on its slice (which the
  // track's uuid identifies already): 7 bytes a task cost in every task's
  // begin, a sixth of the RSS pool trace's slice pairs. Not in the name:
  // the UI merges the tracks of one name under a process into one row.
  track->set_description("task " + std::to_string(task_id));
  FinishPacket();
  return uuid;
}

uint64_t PerfettoTraceWriter::CounterTrack(std::string_view name, uint64_t parent, int unit,
                                           std::string_view unit_name) {
  if (const auto known = counter_tracks_.find(name); known != counter_tracks_.end()) {
    return known->second;
  }
  const auto it = counter_tracks_.emplace(std::string(name), 0).first;
  it->second = Uuid(next_counter_++, kCounterTrackKind);
  described_.insert(it->second);
  pb::TrackDescriptor* track = packet_->mutable_track_descriptor();
  track->set_uuid(it->second);
  track->set_parent_uuid(parent);
  track->set_name(std::string(name));
  pb::CounterDescriptor* counter = track->mutable_counter();
  counter->set_unit(static_cast<pb::CounterDescriptor::Unit>(unit));
  if (!unit_name.empty()) counter->set_unit_name(std::string(unit_name));
  FinishPacket();
  return it->second;
}

// ---- events ----

void PerfettoTraceWriter::AddThreadEvent(const TraceEvent& e) {
  const uint64_t track = ThreadTrack(e.tid);
  Sequence& seq = SequenceFor(StreamKey(kThreadStream, Tid(e.tid)), track);
  // A region of a task not begun on this thread (as far as the events so
  // far tell: another thread's chunk may come later) gets an arrow from the
  // task's track to it: where the task's work moved. Both ends are written
  // here, so a flow never misses one whatever order the threads' events
  // arrive in.
  uint64_t flow = 0;
  if (e.type == EventType::kRegionBegin && e.task_id != 0) {
    const auto open = begun_on_.find(e.task_id);
    if (open == begun_on_.end() || open->second != e.tid) {
      flow = next_flow_++;
      const uint64_t task_track = TaskTrack(e.task_id, {});
      pb::TrackEvent* from = StartEvent(seq, e.ts_ns);
      from->set_track_uuid(task_track);
      from->set_type(pb::TrackEvent::TYPE_INSTANT);
      from->set_name_iid(NameIid(seq, e.name));
      from->add_category_iids(CategoryIid(seq, "task"));
      from->add_flow_ids(flow);
      FinishPacket();
    }
  }
  pb::TrackEvent* event = StartEvent(seq, e.ts_ns);
  switch (e.type) {
    case EventType::kThreadStart:
    case EventType::kThreadExit:
      event->set_type(pb::TrackEvent::TYPE_INSTANT);
      event->set_name_iid(
          NameIid(seq, e.type == EventType::kThreadStart ? "thread start" : "thread exit"));
      event->add_category_iids(CategoryIid(seq, "thread"));
      break;
    case EventType::kRegionBegin:
      // No category: a slice of a thread's own without one is a region (the
      // JSON's cat "region"). Two bytes of the 29 a region's begin and end
      // take, and regions are most of a trace.
      event->set_type(pb::TrackEvent::TYPE_SLICE_BEGIN);
      event->set_name_iid(NameIid(seq, e.name));
      // The task's own track encloses its regions on the thread that began
      // it; only a region elsewhere says which task it serves (7 bytes a
      // region would be a quarter of the slice pair's size).
      if (flow != 0) {
        AddUintAnnotation(seq, event, "task", e.task_id);
        event->add_terminating_flow_ids(flow);
      }
      break;
    case EventType::kLoopBegin:
    case EventType::kPauseBegin:
      event->set_type(pb::TrackEvent::TYPE_SLICE_BEGIN);
      event->set_name_iid(NameIid(seq, e.type == EventType::kLoopBegin ? "timed loop" : "paused"));
      event->add_category_iids(CategoryIid(seq, "benchmark"));
      break;
    case EventType::kRegionEnd:
    case EventType::kLoopEnd:
    case EventType::kPauseEnd:
      event->set_type(pb::TrackEvent::TYPE_SLICE_END);
      break;
    case EventType::kLog:
      event->set_type(pb::TrackEvent::TYPE_INSTANT);
      event->set_name_iid(NameIid(seq, e.name));
      event->add_category_iids(CategoryIid(seq, "log"));
      AddStringAnnotation(seq, event, "message", e.message);
      AddUintAnnotation(seq, event, "task", e.task_id);
      break;
    default:
      break;
  }
  FinishPacket();
}

void PerfettoTraceWriter::AddTask(const TraceEvent& e) {
  const uint64_t track = TaskTrack(e.task_id, e.name);
  const bool begin = e.type == EventType::kTaskBegin;
  // Kept while the task is open, for its regions (an end decoded before its
  // begin leaves nothing behind: the begin then finds no entry to erase).
  bool finished = false;  // both its begin and its end are written now
  if (begin) {
    if (ended_early_.erase(e.task_id) == 0) {
      begun_on_[e.task_id] = e.tid;
    } else {
      finished = true;
    }
  } else if (begun_on_.erase(e.task_id) == 0) {
    ended_early_.insert(e.task_id);
  } else {
    finished = true;
  }
  Sequence& seq = SequenceFor(StreamKey(kThreadStream, Tid(e.tid)), ThreadTrack(e.tid));
  pb::TrackEvent* event = StartEvent(seq, e.ts_ns);
  event->set_track_uuid(track);
  if (begin) {
    // No category and no id: a slice on a task's track is the task (as a
    // slice without a category on a thread is a region), and the track's
    // descriptor says which task. 9 bytes of the 45 a task's begin and end
    // took.
    event->set_type(pb::TrackEvent::TYPE_SLICE_BEGIN);
    event->set_name_iid(NameIid(seq, e.name));
    if (e.parent_id != 0) AddUintAnnotation(seq, event, "parent", e.parent_id);
  } else {
    event->set_type(pb::TrackEvent::TYPE_SLICE_END);
  }
  FinishPacket();
  if (finished) {
    // Memory stays with the tasks still open. A region of the task that
    // arrives later (another thread's events) describes the track again.
    described_.erase(track);
    task_tracks_named_.erase(track);
  }
}

void PerfettoTraceWriter::AddSliceWithDuration(const TraceEvent& e, uint64_t kind,
                                               std::string_view track_name,
                                               std::string_view category) {
  const uint64_t track = ChildTrack(e.tid, kind, track_name);
  Sequence& seq = SequenceFor(
      StreamKey(kind == kRunTrackKind ? kRunStream : kBlockedStream, Tid(e.tid)), track);
  pb::TrackEvent* event = StartEvent(seq, e.ts_ns);
  event->set_type(pb::TrackEvent::TYPE_SLICE_BEGIN);
  if (kind == kRunTrackKind) {
    event->set_name(std::string(e.name));  // one per run: not worth interning
    event->add_category_iids(CategoryIid(seq, category));
    AddUintAnnotation(seq, event, "iterations", e.iterations);
    AddUintAnnotation(seq, event, "threads", e.threads);
    AddUintAnnotation(seq, event, "calls", e.calls);
  } else {
    event->set_name_iid(NameIid(seq, e.name));
    event->add_category_iids(CategoryIid(seq, category));
  }
  FinishPacket();
  pb::TrackEvent* end = StartEvent(seq, Clamped(e.ts_ns) + std::max<int64_t>(e.dur_ns, 0));
  end->set_type(pb::TrackEvent::TYPE_SLICE_END);
  FinishPacket();
}

void PerfettoTraceWriter::AddCounter(std::string_view track_name, uint64_t parent, int unit,
                                     std::string_view unit_name, int64_t ts_ns, double value) {
  const uint64_t track = CounterTrack(track_name, parent, unit, unit_name);
  Sequence& seq = SequenceFor(StreamKey(kCounterStream, track), track);
  pb::TrackEvent* event = StartEvent(seq, ts_ns);
  event->set_type(pb::TrackEvent::TYPE_COUNTER);
  event->set_double_counter_value(value);
  FinishPacket();
}

void PerfettoTraceWriter::AddAllocations(const TraceEvent& e) {
  const uint64_t bytes_track =
      CounterTrack("allocated bytes", kProcessTrack, pb::CounterDescriptor::UNIT_SIZE_BYTES, "");
  const uint64_t objects_track =
      CounterTrack("allocated objects", kProcessTrack, pb::CounterDescriptor::UNIT_COUNT, "");
  // Both totals on one sequence: the objects' reading shares the bytes'
  // time (a delta of 0).
  Sequence& seq = SequenceFor(StreamKey(kCounterStream, bytes_track), bytes_track);
  pb::TrackEvent* bytes = StartEvent(seq, e.ts_ns);
  bytes->set_type(pb::TrackEvent::TYPE_COUNTER);
  bytes->set_counter_value(static_cast<int64_t>(e.bytes));
  FinishPacket();
  pb::TrackEvent* objects = StartEvent(seq, e.ts_ns);
  objects->set_type(pb::TrackEvent::TYPE_COUNTER);
  objects->set_track_uuid(objects_track);
  objects->set_counter_value(static_cast<int64_t>(e.objects));
  FinishPacket();
}

void PerfettoTraceWriter::Add(const TraceEvent& e) {
  switch (e.type) {
    case EventType::kThreadStart:
    case EventType::kThreadExit:
    case EventType::kRegionBegin:
    case EventType::kRegionEnd:
    case EventType::kLog:
    case EventType::kLoopBegin:
    case EventType::kLoopEnd:
    case EventType::kPauseBegin:
    case EventType::kPauseEnd:
      AddThreadEvent(e);
      break;
    case EventType::kTaskBegin:
    case EventType::kTaskEnd:
      AddTask(e);
      break;
    case EventType::kRun:
      AddSliceWithDuration(e, kRunTrackKind, "benchmark runs", "benchmark");
      break;
    case EventType::kBlocked:
      AddSliceWithDuration(e, kBlockedTrackKind, "blocked", "blocked");
      break;
    case EventType::kCpuUsage:
      // The thread measured is the counter's parent, so the UI shows its
      // CPU use under its track.
      AddCounter(e.name, ThreadTrack(e.subject_tid), pb::CounterDescriptor::UNIT_UNSPECIFIED,
                 "busy share", e.ts_ns, FourDecimals(std::clamp(e.busy, 0.0, 1.0)));
      break;
    case EventType::kProcessCpu:
      AddCounter("CPUs", kProcessTrack, pb::CounterDescriptor::UNIT_UNSPECIFIED, "CPUs", e.ts_ns,
                 FourDecimals(std::max(e.busy, 0.0)));
      break;
    case EventType::kAllocations:
      AddAllocations(e);
      break;
  }
}

Status PerfettoTraceWriter::End(const tracer::TraceTotals& totals) {
  Sequence& info = SequenceFor(StreamKey(kInfoStream, 0), kProcessTrack);
  if (totals.dropped_events > 0) {
    const uint64_t track = ThreadTrack(totals.writer_tid);
    pb::TrackEvent* event = StartEvent(info, totals.end_ns);
    event->set_track_uuid(track);
    event->set_type(pb::TrackEvent::TYPE_INSTANT);
    event->set_name_iid(NameIid(info, "benchprof: dropped events"));
    event->add_category_iids(CategoryIid(info, "benchprof"));
    AddUintAnnotation(info, event, "count", totals.dropped_events);
    FinishPacket();
  }
  for (const auto& [tid, name] : totals.thread_names) {
    described_.insert(Uuid(Tid(tid), kThreadTrackKind));
    WriteThreadDescriptor(tid, name);
  }
  // The rest of the JSON's otherData. Not counted in events_, which it
  // reports (the JSON counts its own entries the same way).
  const uint64_t events = events_;
  pb::TrackEvent* event = StartEvent(info, totals.end_ns);
  event->set_type(pb::TrackEvent::TYPE_INSTANT);
  event->set_name_iid(NameIid(info, "benchprof: trace totals"));
  event->add_category_iids(CategoryIid(info, "benchprof"));
  AddUintAnnotation(info, event, "dropped_events", totals.dropped_events);
  AddUintAnnotation(info, event, "events", events);
  AddDoubleAnnotation(info, event, "clock_drift_ns", static_cast<double>(totals.clock_drift_ns));
  if (!totals.interrupted_by.empty()) {
    AddStringAnnotation(info, event, "interrupted", totals.interrupted_by);
  }
  if (totals.window_ns > 0) {
    AddUintAnnotation(info, event, "window_ns", static_cast<uint64_t>(totals.window_ns));
    AddUintAnnotation(info, event, "discarded_events", totals.discarded_events);
  }
  FinishPacket();
  events_ = events;

  return out_.Finish();
}

}  // namespace benchprof::encode
