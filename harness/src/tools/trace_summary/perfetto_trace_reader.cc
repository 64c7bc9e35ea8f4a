#include "tools/trace_summary/perfetto_trace_reader.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace benchprof::trace_summary {
namespace {

// Wire types.
constexpr uint32_t kVarint = 0;
constexpr uint32_t kFixed64 = 1;
constexpr uint32_t kLengthDelimited = 2;
constexpr uint32_t kFixed32 = 5;

// TracePacket and TrackEvent fields (proto/perfetto_trace.proto).
constexpr uint32_t kSequenceCleared = 1;
constexpr uint32_t kBootTime = 6;
constexpr uint64_t kSliceBegin = 1;
constexpr uint64_t kSliceEnd = 2;
constexpr uint64_t kInstant = 3;
constexpr uint64_t kCounter = 4;

// One field of a message: its number, wire type and value (an integer, or
// the bytes of a length-delimited field).
struct Field {
  uint32_t number = 0;
  uint32_t wire_type = 0;
  uint64_t value = 0;
  std::string_view bytes;
};

// Walks the fields of one message. Next() is false at its end or at bytes
// that are not protobuf (then failed() is true).
class FieldReader {
 public:
  explicit FieldReader(std::string_view message)
      : at_(reinterpret_cast<const uint8_t*>(message.data())), end_(at_ + message.size()) {}

  [[gnu::always_inline]] bool Next(Field& field) {
    if (at_ == end_) return false;
    uint64_t key;
    if (!Varint(key)) return Fail();
    field.number = static_cast<uint32_t>(key >> 3);
    field.wire_type = static_cast<uint32_t>(key & 7);
    switch (field.wire_type) {
      case kVarint:
        if (!Varint(field.value)) return Fail();
        return true;
      case kFixed64:
        if (end_ - at_ < 8) return Fail();
        std::memcpy(&field.value, at_, 8);
        at_ += 8;
        return true;
      case kFixed32: {
        if (end_ - at_ < 4) return Fail();
        uint32_t v;
        std::memcpy(&v, at_, 4);
        field.value = v;
        at_ += 4;
        return true;
      }
      case kLengthDelimited: {
        uint64_t length;
        if (!Varint(length) || length > static_cast<uint64_t>(end_ - at_)) return Fail();
        field.bytes = std::string_view(reinterpret_cast<const char*>(at_), length);
        at_ += length;
        return true;
      }
      default:
        return Fail();
    }
  }

  bool failed() const { return failed_; }
  bool at_end() const { return at_ == end_; }

  // The fast path for the fields a writer puts in field-number order: true
  // (and the key consumed) if the next byte is `key`, a one-byte key.
  [[gnu::always_inline]] bool At(uint8_t key) {
    if (at_ == end_ || *at_ != key) return false;
    ++at_;
    return true;
  }
  [[gnu::always_inline]] bool ReadVarint(uint64_t& out) { return Varint(out) || Fail(); }
  [[gnu::always_inline]] bool ReadBytes(std::string_view& out) {
    uint64_t length;
    if (!Varint(length) || length > static_cast<uint64_t>(end_ - at_)) return Fail();
    out = std::string_view(reinterpret_cast<const char*>(at_), length);
    at_ += length;
    return true;
  }

 private:
  [[gnu::always_inline]] bool Varint(uint64_t& out) {
    if (at_ < end_ && *at_ < 0x80) {  // most keys and values: one byte
      out = *at_++;
      return true;
    }
    if (end_ - at_ >= 2 && at_[1] < 0x80) {  // most timestamps: two
      out = static_cast<uint64_t>(at_[0] & 0x7f) | static_cast<uint64_t>(at_[1]) << 7;
      at_ += 2;
      return true;
    }
    uint64_t result = 0;
    for (int shift = 0; shift < 64 && at_ < end_; shift += 7) {
      const uint8_t byte = *at_++;
      result |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) {
        out = result;
        return true;
      }
    }
    return false;
  }
  bool Fail() {
    failed_ = true;
    return false;
  }

  const uint8_t* at_;
  const uint8_t* end_;
  bool failed_ = false;
};

// `value` in hexadecimal ("0x2a") at `out` (room for 18 characters); the
// characters' count. Hexadecimal, as the JSON's ids, and cheaper than
// decimal: no division per digit.
uint8_t Hex(uint64_t value, char* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const int bits = value == 0 ? 4 : 64 - __builtin_clzll(value);
  const uint8_t n = static_cast<uint8_t>(2 + (bits + 3) / 4);
  out[0] = '0';
  out[1] = 'x';
  for (uint8_t i = n; i > 2; --i) {
    out[i - 1] = kDigits[value & 15];
    value >>= 4;
  }
  return n;
}

// A varint at `data`: its value and length (0: none there yet).
size_t PeekVarint(std::string_view data, uint64_t& value) {
  uint64_t result = 0;
  for (size_t i = 0; i < data.size() && i < 10; ++i) {
    const auto byte = static_cast<uint8_t>(data[i]);
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if (byte < 0x80) {
      value = result;
      return i + 1;
    }
  }
  return 0;
}

enum class TrackKind : uint8_t { kProcess, kThread, kUnderThread, kUnderProcess, kCounterTrack };

struct Track {
  TrackKind kind = TrackKind::kUnderProcess;
  int64_t tid = 0;
  std::string name;
  uint64_t uuid = 0;
  int64_t depth = 0;       // slices open on a track under the process
  bool a_default = false;  // some sequence's default_track_ptr may point here
  // The uuid in hexadecimal, a task's id (written at its first slice).
  uint8_t id_size = 0;
  char id_text[23];
  // Slices still open on a track under a thread: they become 'X' at their end.
  struct Open {
    int64_t ts_ns;
    std::string name;
    std::string category;
  };
  std::vector<Open> open;
};

// An interned string, and a number for it unique in the reader (its
// TraceEvent::name_key): a definition that replaces it gets another.
struct Interned {
  std::string text;
  uint32_t key = 0;  // 0: not defined
};

// Interned strings by iid. Writers number them from 1 up, so a vector
// indexed by iid is the common case; a sparse or huge iid goes to the map.
class InternTable {
 public:
  void Set(uint64_t iid, std::string_view value, uint32_t key) {
    Interned* entry;
    if (iid < kDenseLimit) {
      if (iid >= dense_.size()) dense_.resize(iid + 1);
      entry = &dense_[iid];
    } else {
      entry = &sparse_[iid];
    }
    entry->text.assign(value);
    entry->key = key;
  }
  // The string of `iid`, or nullptr if it is not defined.
  const Interned* Find(uint64_t iid) const {
    if (iid < dense_.size()) return dense_[iid].key != 0 ? &dense_[iid] : nullptr;
    if (sparse_.empty()) return nullptr;
    const auto it = sparse_.find(iid);
    return it == sparse_.end() ? nullptr : &it->second;
  }

 private:
  static constexpr uint64_t kDenseLimit = 1 << 20;
  std::vector<Interned> dense_;
  std::unordered_map<uint64_t, Interned> sparse_;
};

struct Sequence {
  InternTable names;
  InternTable categories;
  InternTable annotation_names;
  std::optional<uint32_t> default_clock;
  uint64_t default_track = 0;
  uint32_t incremental_clock = 0;  // 0: none
  // The default track's entry (reset when that track is erased).
  Track* default_track_ptr = nullptr;
  uint64_t incremental_value = 0;
  int64_t incremental_offset = 0;  // incremental clock to BOOTTIME
};

class PerfettoReader {
 public:
  PerfettoReader(const std::string& name, const TraceEventSink& sink) : name_(name), sink_(sink) {
    info_.layout = TraceLayout::kPerfetto;
  }

  StatusOr<TraceFileInfo> Run(json::ByteSource source, size_t chunk_bytes) {
    // The unread bytes are [start, end) of `buffer`. Not a std::string: its
    // resize() zeroed every chunk before the read overwrote it.
    size_t capacity = chunk_bytes + 16;
    std::unique_ptr<char[]> buffer(new char[capacity]);
    size_t start = 0;
    size_t end = 0;
    bool ended = false;
    while (true) {
      // Whole packets first.
      while (true) {
        const std::string_view rest(buffer.get() + start, end - start);
        if (rest.empty()) break;
        if (rest[0] != '\x0A') {
          return Error(offset_, "not a Perfetto trace (expected a packet, field 1)");
        }
        uint64_t length = 0;
        // Most packets are shorter than 128 bytes: a one-byte length.
        const size_t header = rest.size() >= 2 && static_cast<uint8_t>(rest[1]) < 0x80
                                  ? (length = static_cast<uint8_t>(rest[1]), 1)
                                  : PeekVarint(rest.substr(1), length);
        if (header == 0) {
          if (rest.size() > 11) return Error(offset_, "bad packet length");
          break;
        }
        if (length > kMaxTraceEventBytes) {
          return Error(offset_, "packet of " + std::to_string(length) + " bytes (too large)");
        }
        if (rest.size() < 1 + header + length) break;
        if (!Packet(rest.substr(1 + header, length))) return failure_;
        start += 1 + header + length;
        offset_ += 1 + header + length;
      }
      if (ended) break;
      // Room for a chunk after the unread bytes (a packet's start).
      const size_t unread = end - start;
      if (capacity - end < chunk_bytes) {
        if (unread + chunk_bytes > capacity) {
          capacity = std::max(2 * capacity, unread + chunk_bytes);
          std::unique_ptr<char[]> larger(new char[capacity]);
          std::memcpy(larger.get(), buffer.get() + start, unread);
          buffer = std::move(larger);
        } else {
          std::memmove(buffer.get(), buffer.get() + start, unread);
        }
        start = 0;
        end = unread;
      }
      StatusOr<size_t> got = source(buffer.get() + end, chunk_bytes);
      if (!got.ok()) return got.status().WithContext(name_);
      end += *got;
      info_.bytes += *got;
      if (*got == 0) ended = true;
    }
    if (start < end || (saw_info_ && !saw_totals_)) {
      // A cut between two packets leaves whole packets only: benchprof's
      // trace then lacks its totals, which it writes last.
      info_.truncated = true;
      info_.truncation = "byte " + std::to_string(offset_) +
                         (start < end ? ": the file ends inside a packet"
                                      : ": the file ends before the trace's totals");
      if (info_.events == 0) {
        return Status::Error(name_ + ": " + info_.truncation + " before any complete event");
      }
    }
    if (info_.bytes == 0) return Status::Error(name_ + ": empty file");
    if (!other_data_.empty()) info_.other_data = json::Value::MakeObject(std::move(other_data_));
    return std::move(info_);
  }

 private:
  Status Error(uint64_t offset, const std::string& problem) const {
    return Status::Error(name_ + ": byte " + std::to_string(offset) + ": " + problem);
  }

  // Packet(), Descriptor() and Event() return false on a failure, kept in
  // failure_: a Status (a std::string) returned per packet was a tenth of
  // the reading.
  bool Packet(std::string_view packet) {
    FieldReader fields(packet);
    Field f;
    uint64_t timestamp = 0;
    bool has_timestamp = false;
    std::optional<uint32_t> clock;
    uint32_t sequence_id = 0;
    uint32_t flags = 0;
    std::string_view event, descriptor, interned, defaults, snapshot;
    // The packets of a track event, in field order (timestamp, sequence,
    // event, flags), without the switch below: its jump mispredicted on
    // most packets, and was the reader's largest cost.
    {
      uint64_t v = 0;
      bool ok = true;
      if (fields.At(0x40)) {
        ok = fields.ReadVarint(timestamp);
        has_timestamp = true;
      }
      if (ok && fields.At(0x50) && (ok = fields.ReadVarint(v))) {
        sequence_id = static_cast<uint32_t>(v);
      }
      if (ok && fields.At(0x5A)) ok = fields.ReadBytes(event);
      if (ok && fields.At(0x68) && (ok = fields.ReadVarint(v))) flags = static_cast<uint32_t>(v);
      if (!ok || !fields.at_end()) {
        fields = FieldReader(packet);
        has_timestamp = false;
        sequence_id = 0;
        flags = 0;
        event = {};
      }
    }
    while (fields.Next(f)) {
      switch (f.number) {
        case 8:
          timestamp = f.value;
          has_timestamp = true;
          break;
        case 58:
          clock = static_cast<uint32_t>(f.value);
          break;
        case 10:
          sequence_id = static_cast<uint32_t>(f.value);
          break;
        case 13:
          flags = static_cast<uint32_t>(f.value);
          break;
        case 11:
          event = f.bytes;
          break;
        case 60:
          descriptor = f.bytes;
          break;
        case 12:
          interned = f.bytes;
          break;
        case 59:
          defaults = f.bytes;
          break;
        case 6:
          snapshot = f.bytes;
          break;
        default:
          break;
      }
    }
    if (fields.failed()) return Fail(offset_, "not a Perfetto trace (a packet is not protobuf)");
    if (event.empty() && interned.empty() && defaults.empty() && snapshot.empty() && flags == 0) {
      // A descriptor alone (a task's track): nothing of a sequence's.
      return descriptor.empty() || Descriptor(descriptor);
    }
    Sequence& seq = SequenceOf(sequence_id);
    if (flags & kSequenceCleared) seq = Sequence();
    if (!interned.empty()) Intern(seq, interned);
    if (!defaults.empty()) Defaults(seq, defaults);
    if (!snapshot.empty()) Snapshot(seq, snapshot);
    if (!descriptor.empty()) {
      if (!Descriptor(descriptor)) return false;
    }
    if (event.empty()) return true;
    if (!has_timestamp) return Fail(offset_, "track event without a timestamp");
    const uint32_t clock_id = clock.value_or(seq.default_clock.value_or(kBootTime));
    int64_t ts;
    if (clock_id == seq.incremental_clock && clock_id != 0) {
      seq.incremental_value += timestamp;
      ts = static_cast<int64_t>(seq.incremental_value) + seq.incremental_offset;
    } else if (clock_id >= 64) {
      return Fail(offset_, "clock " + std::to_string(clock_id) + " is not defined on sequence " +
                               std::to_string(sequence_id));
    } else {
      ts = static_cast<int64_t>(timestamp);
    }
    return Event(seq, event, ts);
  }

  // The state of sequence `id`. Writers number sequences from 1 up.
  Sequence& SequenceOf(uint32_t id) {
    if (id < sequence_by_id_.size() && sequence_by_id_[id] != nullptr) {
      return *sequence_by_id_[id];
    }
    Sequence& seq = sequences_[id];  // nodes stay put as the map grows
    if (id < kDenseSequences) {
      if (id >= sequence_by_id_.size()) sequence_by_id_.resize(id + 1, nullptr);
      sequence_by_id_[id] = &seq;
    }
    return seq;
  }

  void Intern(Sequence& seq, std::string_view interned) {
    FieldReader fields(interned);
    Field f;
    while (fields.Next(f)) {
      InternTable* table =
          f.number == 1   ? &seq.categories
          : f.number == 2 ? &seq.names
          : f.number == 3 ? &seq.annotation_names
                          : nullptr;
      if (table == nullptr || f.wire_type != kLengthDelimited) continue;
      FieldReader entry(f.bytes);
      Field g;
      uint64_t iid = 0;
      std::string_view name;
      while (entry.Next(g)) {
        if (g.number == 1) iid = g.value;
        if (g.number == 2) name = g.bytes;
      }
      // Keys for names only: the summary interns names, not categories.
      table->Set(iid, name, table == &seq.names ? next_name_key_++ : 1);
    }
  }

  void Defaults(Sequence& seq, std::string_view defaults) {
    FieldReader fields(defaults);
    Field f;
    while (fields.Next(f)) {
      if (f.number == 58) seq.default_clock = static_cast<uint32_t>(f.value);
      if (f.number == 11 && f.wire_type == kLengthDelimited) {
        FieldReader track(f.bytes);
        Field g;
        while (track.Next(g)) {
          if (g.number == 11) seq.default_track = g.value;
        }
      }
    }
  }

  void Snapshot(Sequence& seq, std::string_view snapshot) {
    FieldReader fields(snapshot);
    Field f;
    std::optional<uint64_t> boot;
    uint32_t incremental = 0;
    uint64_t incremental_value = 0;
    while (fields.Next(f)) {
      if (f.number != 1 || f.wire_type != kLengthDelimited) continue;
      FieldReader clock(f.bytes);
      Field g;
      uint32_t id = 0;
      uint64_t value = 0;
      bool is_incremental = false;
      while (clock.Next(g)) {
        if (g.number == 1) id = static_cast<uint32_t>(g.value);
        if (g.number == 2) value = g.value;
        if (g.number == 3) is_incremental = g.value != 0;
      }
      if (id == kBootTime) boot = value;
      if (id >= 64 && is_incremental) {
        incremental = id;
        incremental_value = value;
      }
    }
    if (incremental != 0) {
      seq.incremental_clock = incremental;
      seq.incremental_value = incremental_value;
      seq.incremental_offset =
          boot ? static_cast<int64_t>(*boot) - static_cast<int64_t>(incremental_value) : 0;
    }
  }

  bool Descriptor(std::string_view descriptor) {
    FieldReader fields(descriptor);
    Field f;
    uint64_t uuid = 0, parent = 0;
    std::string_view name, thread, process;
    bool counter = false;
    while (fields.Next(f)) {
      switch (f.number) {
        case 1:
          uuid = f.value;
          break;
        case 5:
          parent = f.value;
          break;
        case 2:
          name = f.bytes;
          break;
        case 3:
          process = f.bytes;
          break;
        case 4:
          thread = f.bytes;
          break;
        case 8:
          counter = true;
          break;
        default:
          break;
      }
    }
    if (fields.failed()) return Fail(offset_, "a track descriptor is not protobuf");
    Track& track = TrackFor(uuid);
    track.uuid = uuid;
    // Task tracks come and go with the same few names: most often the
    // (recycled) entry holds it already.
    if (std::string_view(track.name) != name) track.name.assign(name);
    // A track is described just before its first use (a task's, at its
    // begin): that use then finds it without a lookup.
    last_track_ = &track;
    last_track_uuid_ = uuid;
    if (!process.empty()) {
      track.kind = TrackKind::kProcess;
      FieldReader p(process);
      Field g;
      std::string_view process_name;
      while (p.Next(g)) {
        if (g.number == 1) pid_ = static_cast<int64_t>(static_cast<int32_t>(g.value));
        if (g.number == 6) process_name = g.bytes;
      }
      if (!process_name.empty()) Metadata("process_name", pid_, process_name);
    } else if (!thread.empty()) {
      track.kind = TrackKind::kThread;
      FieldReader t(thread);
      Field g;
      std::string_view thread_name;
      while (t.Next(g)) {
        if (g.number == 2) track.tid = static_cast<int64_t>(static_cast<int32_t>(g.value));
        if (g.number == 5) thread_name = g.bytes;
      }
      if (!thread_name.empty()) Metadata("thread_name", track.tid, thread_name);
    } else if (counter) {
      track.kind = TrackKind::kCounterTrack;
    } else if (const Track* up = Parent(parent); up != nullptr && up->kind == TrackKind::kThread) {
      track.kind = TrackKind::kUnderThread;
      track.tid = up->tid;
    } else {
      track.kind = TrackKind::kUnderProcess;
    }
    return true;
  }

  // The event to fill in, every field reset. One object reused: building a
  // TraceEvent from scratch (176 bytes zeroed) was a fifth of the reading.
  TraceEvent& Fresh() {
    TraceEvent& e = event_;
    e.phase = 0;
    e.name = {};
    e.name_key = 0;
    e.category = {};
    e.pid = 0;
    e.tid = 0;
    e.ts_ns.reset();
    e.dur_ns.reset();
    e.id = {};
    e.kind = {};
    e.arg_name = {};
    e.busy.reset();
    e.count.reset();
    return e;
  }

  void Metadata(std::string_view what, int64_t tid, std::string_view value) {
    TraceEvent& e = Fresh();
    e.phase = 'M';
    e.name = what;
    e.pid = pid_;
    e.tid = tid;
    e.arg_name = value;
    Deliver(e);
  }

  void Deliver(TraceEvent& e) {
    e.line = offset_;
    ++info_.events;
    sink_(e);
  }

  // The name an interned id stands for on `seq`; nullptr if undefined.
  static const Interned* Lookup(const InternTable& table, uint64_t iid) { return table.Find(iid); }

  // The debug annotations of a "benchprof: ..." instant as JSON members.
  void Annotations(const Sequence& seq, std::string_view event, json::Value::Members& into) {
    FieldReader fields(event);
    Field f;
    while (fields.Next(f)) {
      if (f.number != 4 || f.wire_type != kLengthDelimited) continue;
      FieldReader annotation(f.bytes);
      Field g;
      std::string key;
      std::optional<json::Value> value;
      while (annotation.Next(g)) {
        switch (g.number) {
          case 1:
            if (const Interned* name = Lookup(seq.annotation_names, g.value)) key = name->text;
            break;
          case 10:
            key = std::string(g.bytes);
            break;
          case 2:
            value = json::Value::MakeBool(g.value != 0);
            break;
          case 3:
            value = json::Value::MakeNumber(static_cast<double>(g.value));
            break;
          case 4:
            value = json::Value::MakeNumber(static_cast<double>(static_cast<int64_t>(g.value)));
            break;
          case 5: {
            double d;
            std::memcpy(&d, &g.value, 8);
            value = json::Value::MakeNumber(d);
            break;
          }
          case 6:
            value = json::Value::MakeString(std::string(g.bytes));
            break;
          default:
            break;
        }
      }
      if (!key.empty() && value) into.emplace_back(key, std::move(*value));
    }
  }

  bool Event(Sequence& seq, std::string_view event, int64_t ts) {
    FieldReader fields(event);
    Field f;
    uint64_t type = 0;
    uint64_t track_uuid = seq.default_track;
    const Interned* name = nullptr;
    const Interned* category = nullptr;
    std::string_view literal_name;
    bool has_annotations = false;
    std::optional<double> value;
    // Slices' begins and ends in field order (category, type, name, track)
    // without the switch below, as for packets.
    {
      uint64_t v = 0;
      bool ok = true;
      if (fields.At(0x18) && (ok = fields.ReadVarint(v))) {
        category = Lookup(seq.categories, v);
        if (category == nullptr) return FailUndefinedIid("category", v);
      }
      if (ok && fields.At(0x48)) ok = fields.ReadVarint(type);
      if (ok && fields.At(0x50) && (ok = fields.ReadVarint(v))) {
        name = Lookup(seq.names, v);
        if (name == nullptr) return FailUndefinedIid("event name", v);
      }
      if (ok && fields.At(0x58)) ok = fields.ReadVarint(track_uuid);
      if (!ok || !fields.at_end()) {
        fields = FieldReader(event);
        type = 0;
        track_uuid = seq.default_track;
        name = nullptr;
        category = nullptr;
      }
    }
    while (fields.Next(f)) {
      switch (f.number) {
        case 9:
          type = f.value;
          break;
        case 11:
          track_uuid = f.value;
          break;
        case 10:
          name = Lookup(seq.names, f.value);
          if (name == nullptr) return FailUndefinedIid("event name", f.value);
          break;
        case 23:
          literal_name = f.bytes;
          break;
        case 3:
          if (category == nullptr) {
            category = Lookup(seq.categories, f.value);
            if (category == nullptr) return FailUndefinedIid("category", f.value);
          }
          break;
        case 30:
          value = static_cast<double>(static_cast<int64_t>(f.value));
          break;
        case 44:
          std::memcpy(&value.emplace(), &f.value, 8);
          break;
        case 4:
          has_annotations = true;
          break;
        default:
          break;
      }
    }
    if (fields.failed()) return Fail(offset_, "a track event is not protobuf");
    // Most events are on their sequence's default track; the others mostly
    // on the track of the event before.
    Track* found = nullptr;
    if (track_uuid == seq.default_track && seq.default_track_ptr != nullptr) {
      found = seq.default_track_ptr;
    } else if (last_track_ != nullptr && track_uuid == last_track_uuid_) {
      found = last_track_;
    } else {
      const auto it = tracks_.find(track_uuid);
      if (it == tracks_.end()) {
        return Fail(offset_, "track " + std::to_string(track_uuid) + " has no descriptor");
      }
      found = &it->second;  // nodes stay put as the map grows
      if (track_uuid == seq.default_track) {
        seq.default_track_ptr = found;
        found->a_default = true;
      } else {
        last_track_ = found;
        last_track_uuid_ = track_uuid;
      }
    }
    Track& track = *found;
    TraceEvent& e = Fresh();
    e.pid = pid_;
    e.tid = track.tid;
    e.ts_ns = ts;
    if (name != nullptr) {
      e.name = name->text;
      e.name_key = name->key;
    } else {
      e.name = literal_name;
    }
    e.category = category != nullptr ? std::string_view(category->text) : std::string_view();
    switch (track.kind) {
      case TrackKind::kThread:
        if (type == kSliceBegin || type == kSliceEnd) {
          e.phase = type == kSliceBegin ? 'B' : 'E';
          // The writer leaves regions, the most frequent slices, without one.
          if (type == kSliceBegin && category == nullptr) e.category = "region";
        } else if (type == kInstant) {
          e.phase = 'i';
          if (has_annotations && e.category == "benchprof" &&
              e.name == "benchprof: dropped events") {
            json::Value::Members args;
            Annotations(seq, event, args);
            for (const auto& [key, arg] : args) {
              if (key == "count" && arg.is_number()) e.count = arg.as_number();
            }
          }
        } else {
          return true;
        }
        break;
      case TrackKind::kUnderThread:
        if (type == kSliceBegin) {
          track.open.push_back({ts, std::string(e.name), std::string(e.category)});
          return true;
        }
        if (type != kSliceEnd || track.open.empty()) return true;
        {
          Track::Open open = std::move(track.open.back());
          track.open.pop_back();
          e.phase = 'X';
          e.ts_ns = open.ts_ns;
          e.dur_ns = ts - open.ts_ns;
          e.name = open.name;
          e.name_key = 0;
          e.category = open.category;
          Deliver(e);
        }
        return true;
      case TrackKind::kUnderProcess:
        if (type != kSliceBegin && type != kSliceEnd) return true;
        e.phase = type == kSliceBegin ? 'b' : 'e';
        if (track.id_size == 0) track.id_size = Hex(track.uuid, track.id_text);
        e.id = std::string_view(track.id_text, track.id_size);
        e.kind = "task";
        if (type == kSliceBegin) {
          if (e.name.empty()) {
            e.name = track.name;
            e.name_key = 0;
          }
          // The writer leaves a task's slice, the only one on its track,
          // without one.
          if (category == nullptr) e.category = "task";
        }
        track.depth += type == kSliceBegin ? 1 : -1;
        if (track.depth == 0) {
          // A task's slice has ended: memory stays with the open tasks. (A
          // writer that uses the track again describes it again.)
          Deliver(e);  // before the track (and the id in it) goes
          Forget(track);
          return true;
        }
        break;
      case TrackKind::kCounterTrack:
        if (type != kCounter || !value) return true;
        e.phase = 'C';
        if (track.name.starts_with("CPU ")) {
          e.category = "cpu";
          e.busy = value;
        } else if (track.name == "CPUs") {
          e.category = "process";
          e.busy = value;
        } else if (track.name == "allocated bytes") {
          e.category = "memory";
          e.name = "allocations";
          e.name_key = 0;
        } else if (track.name == "allocated objects") {
          return true;  // the JSON's allocations event holds both
        } else {
          e.category = "counter";
        }
        if (e.name.empty()) {
          e.name = track.name;
          e.name_key = 0;
        }
        break;
      case TrackKind::kProcess:
        if (type == kInstant &&
            (e.name == "benchprof: trace info" || e.name == "benchprof: trace totals")) {
          Annotations(seq, event, other_data_);
          (e.name == "benchprof: trace info" ? saw_info_ : saw_totals_) = true;
          return true;
        }
        if (type != kInstant) return true;
        e.phase = 'i';
        e.tid = pid_;
        break;
    }
    Deliver(e);
    return true;
  }

  // The entry of track `uuid`, added if new: a recycled one if there is one
  // (a task's track is added and erased per task; allocating each was a
  // tenth of the reading).
  Track& TrackFor(uint64_t uuid) {
    if (const auto it = tracks_.find(uuid); it != tracks_.end()) return it->second;
    if (spare_tracks_.empty()) return tracks_[uuid];
    auto node = std::move(spare_tracks_.back());
    spare_tracks_.pop_back();
    node.key() = uuid;
    Track& track = node.mapped();
    track.kind = TrackKind::kUnderProcess;
    track.tid = 0;
    track.depth = 0;
    track.a_default = false;
    track.id_size = 0;
    track.open.clear();  // the name is overwritten by the caller
    return tracks_.insert(std::move(node)).position->second;
  }

  // The entry of the parent track `uuid`, or nullptr. Tasks' tracks all
  // have the process's as their parent.
  const Track* Parent(uint64_t uuid) {
    if (last_parent_ == nullptr || last_parent_uuid_ != uuid) {
      const auto it = tracks_.find(uuid);
      if (it == tracks_.end()) return nullptr;
      last_parent_ = &it->second;
      last_parent_uuid_ = uuid;
    }
    return last_parent_;
  }

  // Erases `track`, and the cached pointers to it.
  void Forget(Track& track) {
    if (last_track_ == &track) last_track_ = nullptr;
    if (last_parent_ == &track) last_parent_ = nullptr;
    if (track.a_default) {
      for (auto& [id, seq] : sequences_) {
        if (seq.default_track_ptr == &track) seq.default_track_ptr = nullptr;
      }
    }
    auto node = tracks_.extract(track.uuid);
    if (spare_tracks_.size() < kSpareTracks) spare_tracks_.push_back(std::move(node));
  }

  bool Fail(uint64_t offset, const std::string& problem) {
    failure_ = Error(offset, problem);
    return false;
  }

  bool FailUndefinedIid(std::string_view what, uint64_t iid) {
    return Fail(offset_, std::string(what) + " iid " + std::to_string(iid) +
                             " is not defined on its sequence");
  }

  const std::string& name_;
  const TraceEventSink& sink_;
  Status failure_;  // why Packet() returned false
  TraceFileInfo info_;
  TraceEvent event_;
  json::Value::Members other_data_;  // from the "benchprof: trace ..." instants
  bool saw_info_ = false;            // benchprof's first instant...
  bool saw_totals_ = false;          // ...and its last
  uint64_t offset_ = 0;              // of the packet being read
  int64_t pid_ = 0;
  std::unordered_map<uint32_t, Sequence> sequences_;
  static constexpr uint32_t kDenseSequences = 1 << 16;
  std::vector<Sequence*> sequence_by_id_;  // sequences_ by id, below kDenseSequences
  uint32_t next_name_key_ = 1;
  uint64_t last_parent_uuid_ = 0;
  const Track* last_parent_ = nullptr;
  uint64_t last_track_uuid_ = 0;
  Track* last_track_ = nullptr;
  std::unordered_map<uint64_t, Track> tracks_;
  static constexpr size_t kSpareTracks = 64;
  std::vector<std::unordered_map<uint64_t, Track>::node_type> spare_tracks_;  // erased, for reuse
};

}  // namespace

StatusOr<TraceFileInfo> ReadPerfettoTrace(json::ByteSource source, const std::string& name,
                                          const TraceEventSink& sink, size_t chunk_bytes) {
  return PerfettoReader(name, sink).Run(std::move(source), chunk_bytes);
}

}  // namespace benchprof::trace_summary
