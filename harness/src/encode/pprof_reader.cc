#include "encode/pprof_reader.h"

#include <google/protobuf/io/coded_stream.h>

#include <climits>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

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

// Resolves string-table indexes, naming the referrer when one is bad.
class Strings {
 public:
  explicit Strings(const pb::Profile& profile) : table_(profile.string_table()) {}

  Status Get(int64_t index, const std::string& where, std::string* out) const {
    if (index < 0 || index >= table_.size()) {
      return Status::Error(where + ": string index " + std::to_string(index) + " out of range (" +
                           std::to_string(table_.size()) + " strings)");
    }
    *out = table_.Get(static_cast<int>(index));
    return Status();
  }

 private:
  const google::protobuf::RepeatedPtrField<std::string>& table_;
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

Status ReadValueType(const pb::ValueType& from, const Strings& strings, const std::string& where,
                     ValueTypeName* to) {
  if (Status s = strings.Get(from.type(), where, &to->type); !s.ok()) return s;
  return strings.Get(from.unit(), where, &to->unit);
}

// Converts a parsed message; every cross reference is checked before use.
StatusOr<ProfileData> Convert(const pb::Profile& in) {
  if (in.string_table_size() == 0) {
    return Status::Error("not a pprof profile: no string table");
  }
  if (!in.string_table(0).empty()) {
    return Status::Error("malformed profile: string_table[0] must be \"\"");
  }
  const Strings strings(in);
  ProfileData out;

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
  if (Status s =
          strings.Get(in.default_sample_type(), "default sample type", &out.default_sample_type);
      !s.ok()) {
    return s;
  }

  IdIndex function_ids("function");
  for (int i = 0; i < in.function_size(); ++i) {
    const pb::Function& f = in.function(i);
    const std::string where = "function id " + std::to_string(f.id());
    if (Status s = function_ids.Add(f.id(), static_cast<size_t>(i)); !s.ok()) return s;
    ProfileFunction& function = out.functions.emplace_back();
    if (Status s = strings.Get(f.name(), where, &function.name); !s.ok()) return s;
    if (Status s = strings.Get(f.system_name(), where, &function.system_name); !s.ok()) return s;
    if (Status s = strings.Get(f.filename(), where, &function.filename); !s.ok()) return s;
    function.start_line = f.start_line();
  }

  IdIndex mapping_ids("mapping");
  for (int i = 0; i < in.mapping_size(); ++i) {
    const pb::Mapping& m = in.mapping(i);
    const std::string where = "mapping id " + std::to_string(m.id());
    if (Status s = mapping_ids.Add(m.id(), static_cast<size_t>(i)); !s.ok()) return s;
    ProfileMapping& mapping = out.mappings.emplace_back();
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

  IdIndex location_ids("location");
  for (int i = 0; i < in.location_size(); ++i) {
    const pb::Location& l = in.location(i);
    const std::string where = "location id " + std::to_string(l.id());
    if (Status s = location_ids.Add(l.id(), static_cast<size_t>(i)); !s.ok()) return s;
    ProfileLocation& location = out.locations.emplace_back();
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

  if (in.sample_size() > 0 && in.sample_type_size() == 0) {
    return Status::Error("profile has samples but no sample types");
  }
  for (int i = 0; i < in.sample_size(); ++i) {
    const pb::Sample& s = in.sample(i);
    const std::string where = "sample " + std::to_string(i);
    if (s.value_size() != in.sample_type_size()) {
      return Status::Error(where + " has " + std::to_string(s.value_size()) +
                           " values but the profile has " + std::to_string(in.sample_type_size()) +
                           " sample types");
    }
    ProfileSample& sample = out.samples.emplace_back();
    sample.values.assign(s.value().begin(), s.value().end());
    for (uint64_t id : s.location_id()) {
      if (Status st = location_ids.Find(id, where, &sample.location_indexes.emplace_back());
          !st.ok()) {
        return st;
      }
    }
    for (int j = 0; j < s.label_size(); ++j) {
      const pb::Label& l = s.label(j);
      // The key is not in the message: it may hold anything, newlines too.
      const std::string label_where = where + " label " + std::to_string(j);
      ProfileLabel label;
      if (Status st = strings.Get(l.key(), label_where, &label.key); !st.ok()) return st;
      // pprof's precedence: a string value makes a string label; otherwise
      // a number or unit makes a numeric one; otherwise pprof drops it.
      if (l.str() != 0) {
        if (Status st = strings.Get(l.str(), label_where, &label.str); !st.ok()) return st;
      } else if (l.num() != 0 || l.num_unit() != 0) {
        label.num = l.num();
        if (Status st = strings.Get(l.num_unit(), label_where, &label.num_unit); !st.ok()) {
          return st;
        }
      } else {
        continue;
      }
      sample.labels.push_back(std::move(label));
    }
  }
  return out;
}

}  // namespace

StatusOr<ProfileData> ReadProfile(std::string_view bytes) {
  if (bytes.empty()) return Status::Error("empty input");
  std::string decompressed;
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    StatusOr<std::string> raw = GzipDecompress(bytes);
    if (!raw.ok()) return raw.status();
    decompressed = std::move(raw).value();
    bytes = decompressed;
    if (bytes.empty()) return Status::Error("empty profile inside the gzip data");
  }
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return Status::Error("profile too large (" + std::to_string(bytes.size()) + " bytes)");
  }
  pb::Profile message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Error("not a pprof profile: not a valid protobuf message");
  }
  if (SetsTimeNanosTwice(bytes)) {
    return Status::Error("concatenated profiles detected (time_nanos set twice)");
  }
  return Convert(message);
}

}  // namespace benchprof::encode
