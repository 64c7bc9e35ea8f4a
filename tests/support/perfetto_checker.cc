#include "support/perfetto_checker.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "perfetto_trace.pb.h"
#include "support/subprocess.h"

namespace benchprof::testing {
namespace {

namespace pb = perfetto::protos;

constexpr size_t kMaxProblems = 20;
constexpr uint32_t kBootTime = 6;

struct SequenceState {
  bool seen = false;
  bool cleared = false;
  std::unordered_set<uint64_t> names, categories, annotation_names;
  uint32_t default_clock = kBootTime;
  uint64_t default_track = 0;
  uint32_t incremental_clock = 0;
  uint64_t incremental_value = 0;
  int64_t incremental_offset = 0;
  bool has_time = false;
  int64_t last_ns = 0;
};

struct SliceEvent {
  int64_t ts_ns;
  uint64_t order;  // in the file
  int delta;       // +1 begin, -1 end
};

class Checker {
 public:
  PerfettoCheck Run(std::string_view bytes) {
    pb::Trace trace;
    if (!trace.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      Problem("the file is not a Trace message");
      return std::move(check_);
    }
    // ByteSizeLong of each packet plus its framing (tag and length).
    for (int i = 0; i < trace.packet_size(); ++i) Packet(i, trace.packet(i));
    Finish();
    return std::move(check_);
  }

 private:
  void Problem(std::string line) {
    if (check_.problems.size() < kMaxProblems) check_.problems.push_back(std::move(line));
  }
  static std::string At(int index) { return "packet " + std::to_string(index) + ": "; }

  static size_t FramedSize(const pb::TracePacket& packet) {
    const size_t size = packet.ByteSizeLong();
    size_t length_bytes = 1;
    for (size_t v = size; v >= 0x80; v >>= 7) ++length_bytes;
    return 1 + length_bytes + size;
  }

  void Packet(int index, const pb::TracePacket& packet) {
    ++check_.packets;
    const uint32_t id = packet.trusted_packet_sequence_id();
    SequenceState& seq = sequences_[id];
    const uint32_t flags = packet.sequence_flags();
    const bool uses_sequence = packet.has_track_event() || packet.has_interned_data() ||
                               packet.has_trace_packet_defaults() || packet.has_clock_snapshot();
    if (uses_sequence && !seq.seen) {
      seq.seen = true;
      if ((flags & pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED) == 0) {
        Problem(At(index) + "the first packet of sequence " + std::to_string(id) +
                " does not clear its incremental state");
      }
    }
    if (flags & pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED) {
      const bool has_time = seq.has_time;
      const int64_t last = seq.last_ns;
      seq = SequenceState();
      seq.seen = true;
      seq.cleared = true;
      seq.has_time = has_time;
      seq.last_ns = last;
    }
    if (packet.has_interned_data()) {
      for (const auto& n : packet.interned_data().event_names()) seq.names.insert(n.iid());
      for (const auto& c : packet.interned_data().event_categories()) seq.categories.insert(c.iid());
      for (const auto& a : packet.interned_data().debug_annotation_names()) {
        seq.annotation_names.insert(a.iid());
      }
    }
    if (packet.has_trace_packet_defaults()) {
      const auto& defaults = packet.trace_packet_defaults();
      if (defaults.has_timestamp_clock_id()) seq.default_clock = defaults.timestamp_clock_id();
      seq.default_track = defaults.track_event_defaults().track_uuid();
      if (seq.default_track != 0 && described_.count(seq.default_track) == 0) {
        Problem(At(index) + "default track " + std::to_string(seq.default_track) +
                " has no descriptor before it");
      }
    }
    if (packet.has_clock_snapshot()) {
      std::optional<uint64_t> boot;
      for (const auto& clock : packet.clock_snapshot().clocks()) {
        if (clock.clock_id() == kBootTime) boot = clock.timestamp();
        if (clock.clock_id() >= 64 && clock.is_incremental()) {
          seq.incremental_clock = clock.clock_id();
          seq.incremental_value = clock.timestamp();
        }
      }
      seq.incremental_offset = boot ? static_cast<int64_t>(*boot) -
                                          static_cast<int64_t>(seq.incremental_value)
                                    : 0;
    }
    if (packet.has_track_descriptor()) {
      ++check_.descriptors;
      const auto& track = packet.track_descriptor();
      if (track.has_parent_uuid() && described_.count(track.parent_uuid()) == 0) {
        Problem(At(index) + "track " + std::to_string(track.uuid()) + "'s parent " +
                std::to_string(track.parent_uuid()) + " has no descriptor before it");
      }
      described_.insert(track.uuid());
      if (track.has_thread()) thread_tracks_.insert(track.uuid());
    }
    std::optional<int64_t> ts;
    if (packet.has_timestamp()) {
      const uint32_t clock =
          packet.has_timestamp_clock_id() ? packet.timestamp_clock_id() : seq.default_clock;
      if (clock >= 64) {
        if (clock != seq.incremental_clock) {
          Problem(At(index) + "clock " + std::to_string(clock) + " is not defined on sequence " +
                  std::to_string(id));
        } else {
          seq.incremental_value += packet.timestamp();
          ts = static_cast<int64_t>(seq.incremental_value) + seq.incremental_offset;
        }
      } else {
        ts = static_cast<int64_t>(packet.timestamp());
      }
      if (ts) {
        if (seq.has_time && *ts < seq.last_ns) {
          Problem(At(index) + "time goes back on sequence " + std::to_string(id) + " (" +
                  std::to_string(*ts) + " ns after " + std::to_string(seq.last_ns) + " ns)");
        }
        seq.has_time = true;
        seq.last_ns = std::max(seq.last_ns, *ts);
      }
    }
    if (packet.has_track_event()) TrackEvent(index, packet, seq, ts);
  }

  void TrackEvent(int index, const pb::TracePacket& packet, SequenceState& seq,
                  std::optional<int64_t> ts) {
    ++check_.track_events;
    const auto& event = packet.track_event();
    const uint32_t id = packet.trusted_packet_sequence_id();
    if ((packet.sequence_flags() & pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE) == 0) {
      Problem(At(index) + "a track event without SEQ_NEEDS_INCREMENTAL_STATE");
    }
    if (!ts) Problem(At(index) + "a track event without a timestamp");
    if (event.has_name_iid() && seq.names.count(event.name_iid()) == 0) {
      Problem(At(index) + "event name iid " + std::to_string(event.name_iid()) +
              " is not defined on sequence " + std::to_string(id));
    }
    for (uint64_t iid : event.category_iids()) {
      if (seq.categories.count(iid) == 0) {
        Problem(At(index) + "category iid " + std::to_string(iid) +
                " is not defined on sequence " + std::to_string(id));
      }
    }
    for (const auto& annotation : event.debug_annotations()) {
      if (annotation.has_name_iid() && seq.annotation_names.count(annotation.name_iid()) == 0) {
        Problem(At(index) + "annotation name iid " + std::to_string(annotation.name_iid()) +
                " is not defined on sequence " + std::to_string(id));
      }
    }
    const uint64_t track = event.has_track_uuid() ? event.track_uuid() : seq.default_track;
    if (described_.count(track) == 0) {
      Problem(At(index) + "track " + std::to_string(track) + " has no descriptor before it");
    }
    for (uint64_t flow : event.flow_ids()) ++flow_ends_[flow];
    for (uint64_t flow : event.terminating_flow_ids()) ++flow_ends_[flow];
    const size_t size = FramedSize(packet);
    const bool thread_track = thread_tracks_.count(track) != 0;
    switch (event.type()) {
      case pb::TrackEvent::TYPE_SLICE_BEGIN:
        ++check_.slice_begins;
        check_.slice_bytes += size;
        if (thread_track) {
          ++check_.thread_slice_begins;
          check_.thread_slice_bytes += size;
        }
        slices_[track].push_back({ts.value_or(0), check_.packets, +1});
        break;
      case pb::TrackEvent::TYPE_SLICE_END:
        ++check_.slice_ends;
        check_.slice_bytes += size;
        if (thread_track) check_.thread_slice_bytes += size;
        slices_[track].push_back({ts.value_or(0), check_.packets, -1});
        break;
      case pb::TrackEvent::TYPE_INSTANT:
        ++check_.instants;
        break;
      case pb::TrackEvent::TYPE_COUNTER:
        ++check_.counters;
        break;
      default:
        Problem(At(index) + "a track event without a type");
        break;
    }
  }

  void Finish() {
    for (const auto& [id, seq] : sequences_) check_.sequences += seq.seen ? 1 : 0;
    for (auto& [track, events] : slices_) {
      std::stable_sort(events.begin(), events.end(), [](const SliceEvent& a, const SliceEvent& b) {
        return a.ts_ns < b.ts_ns;
      });
      int64_t depth = 0;
      for (const SliceEvent& e : events) {
        depth += e.delta;
        if (depth < 0) {
          Problem("track " + std::to_string(track) + ": a slice ends at " +
                  std::to_string(e.ts_ns) + " ns with none open");
          depth = 0;
        }
      }
      if (depth != 0) {
        Problem("track " + std::to_string(track) + ": " + std::to_string(depth) +
                " slices never end");
      }
    }
    check_.flows = flow_ends_.size();
    for (const auto& [flow, ends] : flow_ends_) {
      if (ends < 2) Problem("flow " + std::to_string(flow) + " has one end");
    }
  }

  PerfettoCheck check_;
  std::unordered_map<uint32_t, SequenceState> sequences_;
  std::unordered_set<uint64_t> described_;
  std::unordered_set<uint64_t> thread_tracks_;
  std::map<uint64_t, std::vector<SliceEvent>> slices_;
  std::map<uint64_t, uint64_t> flow_ends_;
};

}  // namespace

PerfettoCheck CheckPerfettoTrace(std::string_view bytes) { return Checker().Run(bytes); }

std::string ProtocDecode(const std::string& protoc, const std::string& proto_dir,
                         const std::string& path, std::string* error) {
  const ProcessResult r = RunProcess(
      {"/bin/sh", "-c",
       "exec \"$0\" --decode=perfetto.protos.Trace -I \"$1\" \"$1/perfetto_trace.proto\" < \"$2\"",
       protoc, proto_dir, path});
  if (r.exit_code != 0) {
    *error = "protoc --decode failed (exit " + std::to_string(r.exit_code) + "): " + r.stderr_text;
    return "";
  }
  return r.stdout_text;
}

}  // namespace benchprof::testing
