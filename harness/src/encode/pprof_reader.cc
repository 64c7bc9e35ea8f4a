#include "encode/pprof_reader.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "encode/gzip.h"
#include "profile.pb.h"

namespace benchprof::encode {
namespace {

namespace pb = ::perftools::profiles;

constexpr int kTimeNanosField = 9;

// pprof refuses a time_nanos that follows a non-zero one ("concatenated
// profiles detected"): it is what `cat a.pb b.pb` looks like, and protobuf's
// merge-on-parse would otherwise silently turn two profiles into one. Only
// called on bytes that parsed, so a malformed field just ends the scan.
bool SetsTimeNanosTwice(std::string_view bytes) {
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  uint64_t time_nanos = 0;
  for (uint32_t tag = in.ReadTag(); tag != 0; tag = in.ReadTag()) {
    const uint32_t field = tag >> 3;
    uint64_t varint = 0;
    uint32_t length = 0;
    switch (tag & 7) {
      case 0:  // varint
        if (!in.ReadVarint64(&varint)) return false;
        if (field == kTimeNanosField) {
          if (time_nanos != 0) return true;
          time_nanos = varint;
        }
        break;
      case 1:  // 64-bit
        if (!in.Skip(8)) return false;
        break;
      case 2:  // length-delimited
        if (!in.ReadVarint32(&length) || !in.Skip(static_cast<int>(length))) return false;
        break;
      case 5:  // 32-bit
        if (!in.Skip(4)) return false;
        break;
      default:  // groups: not used by any profile producer
        return false;
    }
  }
  return false;
}

// "more than 4000000 strings (over the reader's limit)": how every limit
// is worded.
Status OverLimit(uint64_t limit, std::string_view what) {
  return Status::Error("more than " + std::to_string(limit) + " " + std::string(what) +
                       ", over the reader's limit");
}

// Counts what a profile's bytes would make protobuf allocate, from the wire
// format alone, and stops at the first count over its limit: the only
// allocation is its own bounded stack of nothing. Groups (wire types 3 and
// 4), which protobuf would keep as unknown fields of unknown fields, are
// refused: no profile writer uses them. Bytes that are not a protobuf
// message are left for protobuf to refuse.
class WireScan {
 public:
  explicit WireScan(const ProfileLimits& limits) : limits_(limits) {}

  Status Scan(std::string_view bytes) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    Message(p, p + bytes.size(), Kind::kProfile);
    return status_;
  }

 private:
  // The format's messages. The leaves (ValueType, Mapping, Function, Line,
  // Label) have only varint fields, numbered from 1 to their value here:
  // those cost nothing beyond the message; others are unknown and count.
  enum class Kind {
    kProfile = -1,
    kSample = -2,
    kLocation = -3,
    kValueType = 2,
    kLabel = 4,
    kLine = 3,
    kFunction = 5,
    kMapping = 10,
  };

  // Protobuf's varint: at most 10 bytes.
  static bool Varint(const uint8_t*& p, const uint8_t* end, uint64_t* value) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
      const uint8_t byte = *p++;
      v |= uint64_t{byte & 0x7fu} << shift;
      if (byte < 0x80) {
        *value = v;
        return true;
      }
    }
    return false;
  }

  // The number of varints in a packed field's payload.
  static uint64_t PackedCount(const uint8_t* p, const uint8_t* end) {
    uint64_t count = 0;
    for (; p < end; ++p) count += *p < 0x80;
    return count;
  }

  // Adds `n` to `count` and records the error when it passes `limit`.
  bool Add(uint64_t& count, uint64_t n, uint64_t limit, std::string_view what) {
    count += n;
    if (count <= limit) return true;
    status_ = OverLimit(limit, what);
    return false;
  }

  // Scans the fields of one message of `kind` in [p, end). Returns false
  // when the scan must stop (a limit passed, a group, or malformed bytes,
  // which are protobuf's to report).
  bool Message(const uint8_t* p, const uint8_t* end, Kind kind) {
    uint64_t sample_depth = 0;
    while (p < end) {
      uint64_t tag = 0;
      if (!Varint(p, end, &tag)) return false;
      const uint64_t field = tag >> 3;
      const unsigned wire = tag & 7;
      const uint8_t* payload = p;
      const uint8_t* payload_end = p;
      uint64_t value = 0;
      switch (wire) {
        case 0:
          if (!Varint(p, end, &value)) return false;
          break;
        case 1:
          if (end - p < 8) return false;
          p += 8;
          break;
        case 2:
          if (!Varint(p, end, &value) || value > static_cast<uint64_t>(end - p)) return false;
          payload = p;
          p += value;
          payload_end = p;
          break;
        case 5:
          if (end - p < 4) return false;
          p += 4;
          break;
        case 3:
        case 4:
          status_ = Status::Error("not a pprof profile: uses protobuf groups");
          return false;
        default:
          return false;
      }
      const bool length_delimited = wire == 2;
      // A repeated integer comes one per field (wire type 0) or packed.
      const uint64_t integers = wire == 0          ? 1
                                : length_delimited ? PackedCount(payload, payload_end)
                                                   : 0;
      bool known = true;
      bool ok = true;
      switch (kind) {
        case Kind::kProfile:
          if (field == 1 && length_delimited) {
            ok = Add(sample_types_, 1, limits_.sample_types, "sample types") &&
                 Message(payload, payload_end, Kind::kValueType);
          } else if (field == 2 && length_delimited) {
            ok = Add(samples_, 1, limits_.samples, "samples") &&
                 Message(payload, payload_end, Kind::kSample);
          } else if (field == 3 && length_delimited) {
            ok = Add(mappings_, 1, limits_.mappings, "mappings") &&
                 Message(payload, payload_end, Kind::kMapping);
          } else if (field == 4 && length_delimited) {
            ok = Add(locations_, 1, limits_.locations, "locations") &&
                 Message(payload, payload_end, Kind::kLocation);
          } else if (field == 5 && length_delimited) {
            ok = Add(functions_, 1, limits_.functions, "functions") &&
                 Message(payload, payload_end, Kind::kFunction);
          } else if (field == 6 && length_delimited) {
            ok = Add(strings_, 1, limits_.strings, "strings in the string table");
          } else if (field == 11 && length_delimited) {
            ok = Message(payload, payload_end, Kind::kValueType);
          } else if (field == 13 && integers > 0) {
            ok = Add(comments_, integers, limits_.comments, "comments");
          } else {
            known = (field >= 7 && field <= 15 && field != 11 && field != 13 && wire == 0) ||
                    (field == 13 && length_delimited);
          }
          break;
        case Kind::kSample:
          if (field == 1 && integers > 0) {
            sample_depth += integers;
            ok = Add(location_refs_, integers, limits_.frames, "frames in all samples");
            if (ok && sample_depth > limits_.stack_depth) {
              status_ = OverLimit(limits_.stack_depth, "frames in one sample");
              ok = false;
            }
          } else if (field == 2 && integers > 0) {
            ok = Add(values_, integers, limits_.values, "values in all samples");
          } else if (field == 3 && length_delimited) {
            ok = Add(labels_, 1, limits_.labels, "labels in all samples") &&
                 Message(payload, payload_end, Kind::kLabel);
          } else {
            known = (field == 1 || field == 2) && length_delimited;  // empty packed
          }
          break;
        case Kind::kLocation:
          if (field == 4 && length_delimited) {
            ok = Add(lines_, 1, limits_.lines, "lines in all locations") &&
                 Message(payload, payload_end, Kind::kLine);
          } else {
            known = field >= 1 && field <= 5 && field != 4 && wire == 0;
          }
          break;
        default:
          known = field >= 1 && field <= static_cast<uint64_t>(kind) && wire == 0;
          break;
      }
      if (!ok) return false;
      if (!known &&
          !Add(unknown_fields_, 1, limits_.unknown_fields, "fields unknown to the format")) {
        return false;
      }
    }
    return true;
  }

  const ProfileLimits& limits_;
  Status status_;
  uint64_t strings_ = 0, sample_types_ = 0, comments_ = 0, mappings_ = 0, functions_ = 0,
           locations_ = 0, lines_ = 0, samples_ = 0, values_ = 0, labels_ = 0, location_refs_ = 0,
           unknown_fields_ = 0;
};

// Resolves string-table indexes, naming the referrer when one is bad, and
// counts the bytes it copies against the limit on them.
class Strings {
 public:
  Strings(const pb::Profile& profile, uint64_t max_bytes)
      : table_(profile.string_table()), max_bytes_(max_bytes) {}

  Status Get(int64_t index, const std::string& where, std::string* out) {
    if (index < 0 || index >= table_.size()) {
      return Status::Error(where + ": string index " + std::to_string(index) + " out of range (" +
                           std::to_string(table_.size()) + " strings)");
    }
    const std::string& value = table_.Get(static_cast<int>(index));
    copied_ += value.size();
    if (copied_ > max_bytes_) {
      return OverLimit(max_bytes_, "bytes of strings referred to (each reference counted)");
    }
    *out = value;
    return Status();
  }

 private:
  const google::protobuf::RepeatedPtrField<std::string>& table_;
  const uint64_t max_bytes_;
  uint64_t copied_ = 0;
};

// Maps one table's ids to indexes, rejecting the reserved 0 and repeats.
class IdIndex {
 public:
  explicit IdIndex(const char* kind) : kind_(kind) {}

  Status Add(uint64_t id, size_t index) {
    if (id == 0) {
      return Status::Error(std::string(kind_) + " " + std::to_string(index) +
                           " has id 0, which is reserved");
    }
    if (!index_.emplace(id, index).second) {
      return Status::Error("duplicate " + std::string(kind_) + " id " + std::to_string(id));
    }
    return Status();
  }

  Status Find(uint64_t id, const std::string& where, size_t* index) const {
    const auto it = index_.find(id);
    if (it == index_.end()) {
      return Status::Error(where + ": " + kind_ + " id " + std::to_string(id) + " does not exist");
    }
    *index = it->second;
    return Status();
  }

 private:
  const char* kind_;
  std::unordered_map<uint64_t, size_t> index_;
};

Status ReadValueType(const pb::ValueType& from, Strings& strings, const std::string& where,
                     ValueTypeName* to) {
  if (Status s = strings.Get(from.type(), where, &to->type); !s.ok()) return s;
  return strings.Get(from.unit(), where, &to->unit);
}

// The profile-wide fields: sample and period types, period, times,
// comments and the default sample type.
Status ReadProfileHeader(const pb::Profile& in, Strings& strings, ProfileData& out) {
  for (int i = 0; i < in.sample_type_size(); ++i) {
    ValueTypeName& type = out.sample_types.emplace_back();
    if (Status s =
            ReadValueType(in.sample_type(i), strings, "sample type " + std::to_string(i), &type);
        !s.ok()) {
      return s;
    }
  }
  if (Status s = ReadValueType(in.period_type(), strings, "period type", &out.period_type);
      !s.ok()) {
    return s;
  }
  out.period = in.period();
  out.time_nanos = in.time_nanos();
  out.duration_nanos = in.duration_nanos();
  for (int i = 0; i < in.comment_size(); ++i) {
    if (Status s = strings.Get(in.comment(i), "comment " + std::to_string(i),
                               &out.comments.emplace_back());
        !s.ok()) {
      return s;
    }
  }
  return strings.Get(in.default_sample_type(), "default sample type", &out.default_sample_type);
}

// The function table, its ids recorded in `ids`.
Status ReadFunctions(const pb::Profile& in, Strings& strings, IdIndex& ids,
                     std::vector<ProfileFunction>& out) {
  for (int i = 0; i < in.function_size(); ++i) {
    const pb::Function& f = in.function(i);
    const std::string where = "function id " + std::to_string(f.id());
    if (Status s = ids.Add(f.id(), static_cast<size_t>(i)); !s.ok()) return s;
    ProfileFunction& function = out.emplace_back();
    if (Status s = strings.Get(f.name(), where, &function.name); !s.ok()) return s;
    if (Status s = strings.Get(f.system_name(), where, &function.system_name); !s.ok()) return s;
    if (Status s = strings.Get(f.filename(), where, &function.filename); !s.ok()) return s;
    function.start_line = f.start_line();
  }
  return Status();
}

// The mapping table, its ids recorded in `ids`.
Status ReadMappings(const pb::Profile& in, Strings& strings, IdIndex& ids,
                    std::vector<ProfileMapping>& out) {
  for (int i = 0; i < in.mapping_size(); ++i) {
    const pb::Mapping& m = in.mapping(i);
    const std::string where = "mapping id " + std::to_string(m.id());
    if (Status s = ids.Add(m.id(), static_cast<size_t>(i)); !s.ok()) return s;
    ProfileMapping& mapping = out.emplace_back();
    mapping.start = m.memory_start();
    mapping.limit = m.memory_limit();
    mapping.file_offset = m.file_offset();
    if (Status s = strings.Get(m.filename(), where, &mapping.filename); !s.ok()) return s;
    if (Status s = strings.Get(m.build_id(), where, &mapping.build_id); !s.ok()) return s;
    mapping.has_functions = m.has_functions();
    mapping.has_filenames = m.has_filenames();
    mapping.has_line_numbers = m.has_line_numbers();
    mapping.has_inline_frames = m.has_inline_frames();
  }
  return Status();
}

// The location table, its ids recorded in `ids`; mapping and function ids
// are resolved through the tables read before it.
Status ReadLocations(const pb::Profile& in, const IdIndex& mapping_ids, const IdIndex& function_ids,
                     IdIndex& ids, std::vector<ProfileLocation>& out) {
  for (int i = 0; i < in.location_size(); ++i) {
    const pb::Location& l = in.location(i);
    const std::string where = "location id " + std::to_string(l.id());
    if (Status s = ids.Add(l.id(), static_cast<size_t>(i)); !s.ok()) return s;
    ProfileLocation& location = out.emplace_back();
    location.address = l.address();
    if (l.mapping_id() != 0) {
      size_t index = 0;
      if (Status s = mapping_ids.Find(l.mapping_id(), where, &index); !s.ok()) return s;
      location.mapping_index = index;
    }
    for (const pb::Line& ln : l.line()) {
      ProfileLine& line = location.lines.emplace_back();
      if (Status s = function_ids.Find(ln.function_id(), where, &line.function_index); !s.ok()) {
        return s;
      }
      line.line = ln.line();
    }
  }
  return Status();
}

// Appends label `l` to `labels` by pprof's precedence: a string value makes
// a string label; otherwise a number or unit makes a numeric one; otherwise
// pprof drops it, and so do we.
Status ReadLabel(const pb::Label& l, Strings& strings, const std::string& where,
                 std::vector<ProfileLabel>& labels) {
  ProfileLabel label;
  if (Status s = strings.Get(l.key(), where, &label.key); !s.ok()) return s;
  if (l.str() != 0) {
    if (Status s = strings.Get(l.str(), where, &label.str); !s.ok()) return s;
  } else if (l.num() != 0 || l.num_unit() != 0) {
    label.num = l.num();
    if (Status s = strings.Get(l.num_unit(), where, &label.num_unit); !s.ok()) return s;
  } else {
    return Status();
  }
  labels.push_back(std::move(label));
  return Status();
}

// The samples, their location ids resolved through `location_ids` into
// `locations`, whose inline frames count against the limits on frames (the
// wire scan counted locations, not their lines).
Status ReadSamples(const pb::Profile& in, Strings& strings, const IdIndex& location_ids,
                   const std::vector<ProfileLocation>& locations, const ProfileLimits& limits,
                   std::vector<ProfileSample>& out) {
  if (in.sample_size() > 0 && in.sample_type_size() == 0) {
    return Status::Error("profile has samples but no sample types");
  }
  uint64_t frames = 0;
  for (int i = 0; i < in.sample_size(); ++i) {
    const pb::Sample& s = in.sample(i);
    const std::string where = "sample " + std::to_string(i);
    if (s.value_size() != in.sample_type_size()) {
      return Status::Error(where + " has " + std::to_string(s.value_size()) +
                           " values but the profile has " + std::to_string(in.sample_type_size()) +
                           " sample types");
    }
    ProfileSample& sample = out.emplace_back();
    sample.values.assign(s.value().begin(), s.value().end());
    uint64_t depth = 0;
    for (uint64_t id : s.location_id()) {
      size_t& index = sample.location_indexes.emplace_back();
      if (Status st = location_ids.Find(id, where, &index); !st.ok()) return st;
      depth += std::max<size_t>(locations[index].lines.size(), 1);
    }
    if (depth > limits.stack_depth) {
      return OverLimit(limits.stack_depth, "frames in one sample (inline frames counted)")
          .WithContext(where);
    }
    frames += depth;
    if (frames > limits.frames) {
      return OverLimit(limits.frames, "frames in all samples (inline frames counted)");
    }
    for (int j = 0; j < s.label_size(); ++j) {
      // The key is not in the message: it may hold anything, newlines too.
      const std::string label_where = where + " label " + std::to_string(j);
      if (Status st = ReadLabel(s.label(j), strings, label_where, sample.labels); !st.ok()) {
        return st;
      }
    }
  }
  return Status();
}

// Converts a parsed message; every cross reference is checked before use.
// The tables are read in dependency order, so an id is known before it is
// referred to.
StatusOr<ProfileData> Convert(const pb::Profile& in, const ProfileLimits& limits) {
  if (in.string_table_size() == 0) {
    return Status::Error("not a pprof profile: no string table");
  }
  if (!in.string_table(0).empty()) {
    return Status::Error("malformed profile: string_table[0] must be \"\"");
  }
  Strings strings(in, limits.string_bytes);
  ProfileData out;
  IdIndex function_ids("function");
  IdIndex mapping_ids("mapping");
  IdIndex location_ids("location");
  if (Status s = ReadProfileHeader(in, strings, out); !s.ok()) return s;
  if (Status s = ReadFunctions(in, strings, function_ids, out.functions); !s.ok()) return s;
  if (Status s = ReadMappings(in, strings, mapping_ids, out.mappings); !s.ok()) return s;
  if (Status s = ReadLocations(in, mapping_ids, function_ids, location_ids, out.locations);
      !s.ok()) {
    return s;
  }
  if (Status s = ReadSamples(in, strings, location_ids, out.locations, limits, out.samples);
      !s.ok()) {
    return s;
  }
  return out;
}

}  // namespace

StatusOr<ProfileData> ReadProfile(std::string_view bytes, const ProfileLimits& limits) {
  if (bytes.empty()) return Status::Error("empty input");
  // protobuf takes at most INT_MAX bytes.
  const size_t max_bytes = std::min(limits.bytes, static_cast<size_t>(INT_MAX));
  std::string decompressed;
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    StatusOr<std::string> raw = GzipDecompress(bytes, max_bytes);
    if (!raw.ok()) return raw.status();
    decompressed = std::move(raw).value();
    bytes = decompressed;
    if (bytes.empty()) return Status::Error("empty profile inside the gzip data");
  }
  if (bytes.size() > max_bytes) {
    return Status::Error("more than " + FormatByteCount(max_bytes) + ", over the reader's limit");
  }
  if (Status scanned = WireScan(limits).Scan(bytes); !scanned.ok()) return scanned;
  pb::Profile message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Error("not a pprof profile: not a valid protobuf message");
  }
  if (SetsTimeNanosTwice(bytes)) {
    return Status::Error("concatenated profiles detected (time_nanos set twice)");
  }
  return Convert(message, limits);
}

}  // namespace benchprof::encode
