#include "tools/merge/profile_merge.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace benchprof::merge {

using encode::ProfileData;
using encode::ProfileFunction;
using encode::ProfileLocation;
using encode::ProfileMapping;
using encode::ProfileSample;
using encode::ValueTypeName;

namespace {

// "samples/count, cpu/nanoseconds".
std::string DescribeTypes(const std::vector<ValueTypeName>& types) {
  std::string text;
  for (const ValueTypeName& type : types) {
    if (!text.empty()) text += ", ";
    text += type.type + "/" + type.unit;
  }
  return text.empty() ? "no sample types" : text;
}

// A key of length-prefixed parts, so no two different tuples collide.
class Key {
 public:
  Key& Add(std::string_view part) {
    text_ += std::to_string(part.size());
    text_ += ':';
    text_ += part;
    return *this;
  }
  Key& Add(uint64_t number) {
    text_.append(reinterpret_cast<const char*>(&number), sizeof number);
    return *this;
  }
  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
};

// The merged profile's tables and the indexes that find an entry in them.
class ProfileJoiner {
 public:
  explicit ProfileJoiner(const ProfileData& first) {
    merged_.sample_types = first.sample_types;
    merged_.period_type = first.period_type;
    merged_.period = first.period;
    merged_.default_sample_type = first.default_sample_type;
  }

  void Add(const ProfileData& profile) {
    if (profile.time_nanos != 0 &&
        (merged_.time_nanos == 0 || profile.time_nanos < merged_.time_nanos)) {
      merged_.time_nanos = profile.time_nanos;
    }
    merged_.duration_nanos += profile.duration_nanos;
    for (const std::string& comment : profile.comments) {
      if (comments_.insert(comment).second) merged_.comments.push_back(comment);
    }
    // Where each of this profile's mappings, functions and locations went,
    // and how far each mapping moved.
    std::vector<size_t> mapping_to;
    std::vector<int64_t> mapping_shift;
    for (const ProfileMapping& mapping : profile.mappings) {
      const auto [index, shift] = AddMapping(mapping);
      mapping_to.push_back(index);
      mapping_shift.push_back(shift);
    }
    std::vector<size_t> function_to;
    function_to.reserve(profile.functions.size());
    for (const ProfileFunction& function : profile.functions) {
      function_to.push_back(AddFunction(function));
    }
    std::vector<size_t> location_to;
    location_to.reserve(profile.locations.size());
    for (const ProfileLocation& location : profile.locations) {
      ProfileLocation moved = location;
      if (location.mapping_index) {
        moved.mapping_index = mapping_to[*location.mapping_index];
        moved.address =
            location.address + static_cast<uint64_t>(mapping_shift[*location.mapping_index]);
      }
      for (encode::ProfileLine& line : moved.lines)
        line.function_index = function_to[line.function_index];
      location_to.push_back(AddLocation(std::move(moved)));
    }
    merged_.samples.reserve(merged_.samples.size() + profile.samples.size());
    for (const ProfileSample& sample : profile.samples) {
      ProfileSample& copy = merged_.samples.emplace_back(sample);
      for (size_t& index : copy.location_indexes) index = location_to[index];
    }
  }

  ProfileData Take() { return std::move(merged_); }

 private:
  // The merged mapping for `mapping` and how far its addresses move.
  std::pair<size_t, int64_t> AddMapping(const ProfileMapping& mapping) {
    Key key;
    key.Add(mapping.limit - mapping.start).Add(mapping.file_offset);
    key.Add(mapping.build_id.empty() ? mapping.filename : mapping.build_id);
    const auto [found, inserted] = mappings_.try_emplace(key.Take(), merged_.mappings.size());
    if (inserted) {
      merged_.mappings.push_back(mapping);
      return {found->second, 0};
    }
    ProfileMapping& kept = merged_.mappings[found->second];
    // A flag says every location is resolved: true only if true of each.
    kept.has_functions = kept.has_functions && mapping.has_functions;
    kept.has_filenames = kept.has_filenames && mapping.has_filenames;
    kept.has_line_numbers = kept.has_line_numbers && mapping.has_line_numbers;
    kept.has_inline_frames = kept.has_inline_frames && mapping.has_inline_frames;
    return {found->second, static_cast<int64_t>(kept.start - mapping.start)};
  }

  size_t AddFunction(const ProfileFunction& function) {
    Key key;
    key.Add(function.name).Add(function.system_name).Add(function.filename);
    key.Add(static_cast<uint64_t>(function.start_line));
    const auto [found, inserted] = functions_.try_emplace(key.Take(), merged_.functions.size());
    if (inserted) merged_.functions.push_back(function);
    return found->second;
  }

  size_t AddLocation(ProfileLocation location) {
    Key key;
    key.Add(location.mapping_index ? *location.mapping_index + 1 : 0).Add(location.address);
    for (const encode::ProfileLine& line : location.lines) {
      key.Add(line.function_index).Add(static_cast<uint64_t>(line.line));
    }
    const auto [found, inserted] = locations_.try_emplace(key.Take(), merged_.locations.size());
    if (inserted) merged_.locations.push_back(std::move(location));
    return found->second;
  }

  ProfileData merged_;
  std::set<std::string> comments_;
  std::unordered_map<std::string, size_t> mappings_;
  std::unordered_map<std::string, size_t> functions_;
  std::unordered_map<std::string, size_t> locations_;
};

}  // namespace

StatusOr<ProfileData> MergeProfiles(std::span<const NamedProfile> profiles) {
  const NamedProfile& first = profiles.front();
  for (const NamedProfile& other : profiles.subspan(1)) {
    if (other.profile.sample_types != first.profile.sample_types) {
      return Status::Error(
          first.path + " (" + DescribeTypes(first.profile.sample_types) + ") and " + other.path +
          " (" + DescribeTypes(other.profile.sample_types) + ") are different kinds of profile");
    }
    if (other.profile.period_type != first.profile.period_type) {
      return Status::Error(first.path + " (period " + DescribeTypes({first.profile.period_type}) +
                           ") and " + other.path + " (period " +
                           DescribeTypes({other.profile.period_type}) +
                           ") are different kinds of profile");
    }
  }
  ProfileJoiner joiner(first.profile);
  for (const NamedProfile& named : profiles) joiner.Add(named.profile);
  return joiner.Take();
}

}  // namespace benchprof::merge
