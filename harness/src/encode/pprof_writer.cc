#include "encode/pprof_writer.h"

#include <errno.h>

#include <cstdio>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "common/temporary_files.h"
#include "encode/gzip.h"
#include "profile.pb.h"

namespace benchprof::encode {
namespace {

namespace pb = ::perftools::profiles;

// Builds Profile.string_table: index 0 is "", every other string once, in
// order of first use (deterministic, so equal profiles give equal bytes).
class StringTable {
 public:
  explicit StringTable(pb::Profile* profile) : profile_(profile) {
    profile_->add_string_table("");
    index_.emplace(std::string_view(), 0);
  }

  // The views point into the ProfileData being encoded, which outlives this.
  int64_t Index(std::string_view s) {
    const auto [it, inserted] = index_.try_emplace(s, profile_->string_table_size());
    if (inserted) profile_->add_string_table(std::string(s));
    return it->second;
  }

 private:
  pb::Profile* profile_;
  std::unordered_map<std::string_view, int64_t> index_;
};

// pprof reserves id 0 for "none", so ids are indexes shifted by one.
uint64_t IdOf(size_t index) { return static_cast<uint64_t>(index) + 1; }

void SetValueType(const ValueTypeName& from, StringTable& strings, pb::ValueType* to) {
  to->set_type(strings.Index(from.type));
  to->set_unit(strings.Index(from.unit));
}

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

Status ValidateLabel(const ProfileLabel& label, const std::string& where) {
  if (label.key.empty()) return Status::Error(where + ": label with an empty key");
  const std::string name = where + ", label " + Quoted(label.key);
  if (label.key.starts_with("pprof::")) {
    return Status::Error(name + ": keys starting \"pprof::\" are reserved for pprof");
  }
  if (!label.str.empty() && (label.num != 0 || !label.num_unit.empty())) {
    return Status::Error(name + ": has both a string and a numeric value");
  }
  if (label.str.empty() && label.num == 0 && label.num_unit.empty()) {
    return Status::Error(name +
                         ": empty string, number 0 and no unit (pprof would drop the label)");
  }
  return Status();
}

}  // namespace

Status ValidateProfile(const ProfileData& profile) {
  if (!profile.samples.empty() && profile.sample_types.empty()) {
    return Status::Error("profile has samples but no sample types");
  }
  if (!profile.default_sample_type.empty()) {
    bool found = false;
    for (const ValueTypeName& type : profile.sample_types) {
      found = found || type.type == profile.default_sample_type;
    }
    if (!found) {
      return Status::Error("default sample type " + Quoted(profile.default_sample_type) +
                           " is not one of the sample types");
    }
  }
  for (size_t i = 0; i < profile.samples.size(); ++i) {
    const ProfileSample& sample = profile.samples[i];
    const std::string where = "sample " + std::to_string(i);
    if (sample.values.size() != profile.sample_types.size()) {
      return Status::Error(where + " has " + std::to_string(sample.values.size()) +
                           " values but the profile has " +
                           std::to_string(profile.sample_types.size()) + " sample types");
    }
    for (size_t location : sample.location_indexes) {
      if (location >= profile.locations.size()) {
        return Status::Error(where + ": location index " + std::to_string(location) +
                             " out of range (" + std::to_string(profile.locations.size()) +
                             " locations)");
      }
    }
    for (const ProfileLabel& label : sample.labels) {
      if (Status s = ValidateLabel(label, where); !s.ok()) return s;
    }
  }
  for (size_t i = 0; i < profile.locations.size(); ++i) {
    const ProfileLocation& location = profile.locations[i];
    const std::string where = "location " + std::to_string(i);
    if (location.mapping_index && *location.mapping_index >= profile.mappings.size()) {
      return Status::Error(where + ": mapping index " + std::to_string(*location.mapping_index) +
                           " out of range (" + std::to_string(profile.mappings.size()) +
                           " mappings)");
    }
    for (const ProfileLine& line : location.lines) {
      if (line.function_index >= profile.functions.size()) {
        return Status::Error(where + ": function index " + std::to_string(line.function_index) +
                             " out of range (" + std::to_string(profile.functions.size()) +
                             " functions)");
      }
    }
  }
  return Status();
}

std::string SerializeProfile(const ProfileData& profile) {
  pb::Profile out;
  StringTable strings(&out);

  for (const ValueTypeName& type : profile.sample_types) {
    SetValueType(type, strings, out.add_sample_type());
  }
  for (const ProfileSample& sample : profile.samples) {
    pb::Sample* s = out.add_sample();
    for (size_t location : sample.location_indexes) s->add_location_id(IdOf(location));
    for (int64_t value : sample.values) s->add_value(value);
    for (const ProfileLabel& label : sample.labels) {
      pb::Label* l = s->add_label();
      l->set_key(strings.Index(label.key));
      // The same precedence as pprof's decoder: a string value wins.
      if (!label.str.empty()) {
        l->set_str(strings.Index(label.str));
      } else {
        l->set_num(label.num);
        l->set_num_unit(strings.Index(label.num_unit));
      }
    }
  }
  for (size_t i = 0; i < profile.mappings.size(); ++i) {
    const ProfileMapping& mapping = profile.mappings[i];
    pb::Mapping* m = out.add_mapping();
    m->set_id(IdOf(i));
    m->set_memory_start(mapping.start);
    m->set_memory_limit(mapping.limit);
    m->set_file_offset(mapping.file_offset);
    m->set_filename(strings.Index(mapping.filename));
    m->set_build_id(strings.Index(mapping.build_id));
    m->set_has_functions(mapping.has_functions);
    m->set_has_filenames(mapping.has_filenames);
    m->set_has_line_numbers(mapping.has_line_numbers);
    m->set_has_inline_frames(mapping.has_inline_frames);
  }
  for (size_t i = 0; i < profile.locations.size(); ++i) {
    const ProfileLocation& location = profile.locations[i];
    pb::Location* l = out.add_location();
    l->set_id(IdOf(i));
    if (location.mapping_index) l->set_mapping_id(IdOf(*location.mapping_index));
    l->set_address(location.address);
    for (const ProfileLine& line : location.lines) {
      pb::Line* pl = l->add_line();
      pl->set_function_id(IdOf(line.function_index));
      pl->set_line(line.line);
    }
  }
  for (size_t i = 0; i < profile.functions.size(); ++i) {
    const ProfileFunction& function = profile.functions[i];
    pb::Function* f = out.add_function();
    f->set_id(IdOf(i));
    f->set_name(strings.Index(function.name));
    f->set_system_name(strings.Index(function.system_name));
    f->set_filename(strings.Index(function.filename));
    f->set_start_line(function.start_line);
  }
  out.set_time_nanos(profile.time_nanos);
  out.set_duration_nanos(profile.duration_nanos);
  SetValueType(profile.period_type, strings, out.mutable_period_type());
  out.set_period(profile.period);
  for (const std::string& comment : profile.comments) out.add_comment(strings.Index(comment));
  out.set_default_sample_type(strings.Index(profile.default_sample_type));

  // Proto3 singular fields are written at most once, and not at all when
  // zero, which is what pprof's decoder expects.
  return out.SerializeAsString();
}

Status WriteProfileFile(const ProfileData& profile, const std::string& path) {
  if (Status valid = ValidateProfile(profile); !valid.ok()) {
    return valid.WithContext(path + ": invalid profile");
  }
  StatusOr<std::string> compressed = GzipCompress(SerializeProfile(profile));
  if (!compressed.ok()) return compressed.status().WithContext(path);

  std::FILE* file = OpenForWriting(path, "wb");
  if (file == nullptr) return Status::Error(path + ": cannot open: " + std::strerror(errno));
  const bool wrote =
      std::fwrite(compressed->data(), 1, compressed->size(), file) == compressed->size() &&
      std::fflush(file) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!wrote || !closed) {
    return Status::Error(path + ": cannot write: " + std::strerror(wrote ? errno : write_errno));
  }
  return Status();
}

}  // namespace benchprof::encode
