// ProfileData: a pprof profile as plain C++ values, independent of protobuf.
//
// Collectors and the aggregation room fill one of these; pprof_writer turns
// it into the pprof wire format and pprof_reader turns bytes back into it.
// Cross references are vector indexes, not pprof ids, so a builder never has
// to invent ids and the writer can derive them (id = index + 1, never 0).
// Strings are stored inline; the writer builds the deduplicated string table.
//
//   ProfileData p;
//   p.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
//   p.period_type = {"cpu", "nanoseconds"};
//   p.period = 10'000'000;
//   ProfileMapping& exe = p.mappings.emplace_back();
//   exe.start = 0x1000;
//   exe.limit = 0x9000;
//   exe.filename = "/bin/prog";
//   p.functions.push_back({"Work", "_Z4Workv", "/src/work.cc", 10});
//   p.locations.push_back({0x1234, 0, {{0, 12}}});  // mapping 0; Work, line 12
//   p.samples.push_back({{0}, {3, 30'000'000}, {}});
//
// The format's rules that a builder must respect (value counts, label forms,
// index ranges) are listed and checked by ValidateProfile in pprof_writer.h.
//
// Thread-safety: plain values; thread-compatible.
#ifndef BENCHPROF_ENCODE_PROFILE_DATA_H_
#define BENCHPROF_ENCODE_PROFILE_DATA_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace benchprof::encode {

// A source-level function. Builders keep one entry per distinct
// (name, system_name, filename, start_line): pprof keys reports by name.
struct ProfileFunction {
  std::string name;         // shown to users, e.g. demangled or == system_name
  std::string system_name;  // the linker's name, e.g. the mangled C++ symbol
  std::string filename;     // the source file, absolute as compiled
  int64_t start_line = 0;   // where `list` starts; 0 if unknown

  bool operator==(const ProfileFunction&) const = default;
};

// One frame of a location: a function and the line executing in it.
struct ProfileLine {
  size_t function_index = 0;  // into ProfileData::functions
  int64_t line = 0;

  bool operator==(const ProfileLine&) const = default;
};

// A range of the address space backed by a file (one executable mapping).
struct ProfileMapping {
  uint64_t start = 0;        // runtime address of the first byte
  uint64_t limit = 0;        // runtime address one past the last byte
  uint64_t file_offset = 0;  // file offset that corresponds to `start`
  std::string filename;      // absolute path, or a pseudo name like [vdso]
  std::string build_id;      // lowercase hex GNU build id, or empty
  // Set only when every location in the mapping is resolved to that level:
  // pprof never re-symbolizes a mapping with any of the first three set.
  bool has_functions = false;
  bool has_filenames = false;
  bool has_line_numbers = false;
  bool has_inline_frames = false;

  bool operator==(const ProfileMapping&) const = default;
};

// A code address and the frames (possibly inlined) it stands for.
struct ProfileLocation {
  uint64_t address = 0;                 // leaf: the sampled PC; callers: return address - 1
  std::optional<size_t> mapping_index;  // into ProfileData::mappings; none if unknown
  std::vector<ProfileLine> lines;       // innermost inline frame first

  bool operator==(const ProfileLocation&) const = default;
};

// A key/value annotation on a sample, e.g. benchmark=BM_Foo/8. It is a
// string label when `str` is non-empty, else a numeric label (num, num_unit).
struct ProfileLabel {
  std::string key;
  std::string str;
  int64_t num = 0;
  std::string num_unit;  // numeric labels only, e.g. "bytes"

  bool operator==(const ProfileLabel&) const = default;
};

// One aggregated observation: a stack and a value per sample type.
struct ProfileSample {
  std::vector<size_t> location_indexes;  // into ProfileData::locations, leaf first
  std::vector<int64_t> values;           // one per ProfileData::sample_types
  std::vector<ProfileLabel> labels;

  bool operator==(const ProfileSample&) const = default;
};

// The meaning of a value, e.g. {"cpu", "nanoseconds"}.
struct ValueTypeName {
  std::string type;
  std::string unit;

  bool operator==(const ValueTypeName&) const = default;
};

// A whole profile.
struct ProfileData {
  std::vector<ValueTypeName> sample_types;
  ValueTypeName period_type;
  int64_t period = 0;
  int64_t time_nanos = 0;                // collection start, ns since the Unix epoch
  int64_t duration_nanos = 0;            // wall-clock length of the collection
  std::vector<std::string> comments;     // for people, never machine-read
  std::string default_sample_type;       // a sample_types[i].type; empty: the last
  std::vector<ProfileMapping> mappings;  // [0] = main executable
  std::vector<ProfileLocation> locations;
  std::vector<ProfileFunction> functions;
  std::vector<ProfileSample> samples;

  bool operator==(const ProfileData&) const = default;
};

}  // namespace benchprof::encode

#endif  // BENCHPROF_ENCODE_PROFILE_DATA_H_
