// Decodes pprof profiles (perftools.profiles.Profile) into ProfileData.
//
// It exists for two readers: our round-trip tests, which check the writer
// against a decoder whose id, string and label handling shares no code with
// it, and tools that read profiles users give them. So it treats its input
// as untrusted: any byte sequence yields a ProfileData or a one-line error,
// never a crash. It reads the protobuf format (not pprof's legacy text and
// binary formats) and applies pprof's rules rather than the writer's:
// - gzip-compressed (starting 1f 8b) or raw protobuf bytes;
// - pprof ids turned into vector indexes, in file order (a Location's mapping
//   id 0 means no mapping);
// - a label with a string value is a string label (any number is ignored);
//   one with neither a string, a number nor a unit is dropped, as pprof
//   drops it. Labels with reserved "pprof::" keys (from -diff_base) are kept.
// - fields ProfileData has no place for (drop_frames, keep_frames, doc_url,
//   Location.is_folded, Line.column) are ignored.
//
// A few hundred bytes of protobuf can stand for gigabytes of memory (a
// two-byte string-table entry costs protobuf and ProfileData about 50
// bytes; gzip packs a megabyte of repeats into a kilobyte), so what a
// profile may hold is bounded by ProfileLimits, checked on the wire format
// before protobuf allocates anything for it, and while converting. A
// profile over a limit fails with one line naming the limit.
//
//   StatusOr<ProfileData> profile = ReadProfile(file_contents);
//   if (!profile.ok()) return profile.status().WithContext(path);
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_ENCODE_PPROF_READER_H_
#define BENCHPROF_ENCODE_PPROF_READER_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "encode/profile_data.h"

namespace benchprof::encode {

// The default limits on what a profile may hold (docs/profiles.md, "Limits
// of the readers"). Each is far above any real profile, so none is ever
// refused: the largest the repository's workloads make, `bench --memprofile
// --memprofilerate=1` over every benchmark, unpacks to 1.7 MB with 814
// strings, 392 functions, 322 locations, 31,449 samples, 94,347 labels,
// 125,796 values and 1.34 million frames, none deeper than 62; its CPU
// profile at 1000 Hz has 1,607 strings, 803 functions, 1,820 locations and
// 6,252 samples (254,580 frames). Each limit is at least 12 times the
// larger of the two (the frames; most are hundreds or thousands of times),
// and the stack depth is above what a thread's stack can hold. A profile
// at the limits of samples, labels and frames takes `benchprof flamegraph`
// about 2.5 GB; the tools end with one line if even that cannot be had.
//
// Bytes after gzip (the file itself when it is not compressed): 150x.
inline constexpr size_t kMaxProfileBytes = size_t{256} << 20;
// Entries of the string table.
inline constexpr uint64_t kMaxProfileStrings = 4'000'000;
// Bytes of the strings the profile's fields refer to, each reference
// counted (ProfileData copies a string into every function, mapping and
// label that names it): 2x the unpacked limit.
inline constexpr uint64_t kMaxProfileStringBytes = uint64_t{512} << 20;
// Sample types (values per sample); Go's profiles have at most 4.
inline constexpr uint64_t kMaxProfileSampleTypes = 1'000;
// Comments.
inline constexpr uint64_t kMaxProfileComments = 100'000;
// Mappings; Linux gives a process at most 65,530 by default
// (vm.max_map_count).
inline constexpr uint64_t kMaxProfileMappings = 1'000'000;
// Functions.
inline constexpr uint64_t kMaxProfileFunctions = 4'000'000;
// Locations.
inline constexpr uint64_t kMaxProfileLocations = 4'000'000;
// Lines of all locations (a location has one per inline frame).
inline constexpr uint64_t kMaxProfileLines = 16'000'000;
// Samples: 64x.
inline constexpr uint64_t kMaxProfileSamples = 2'000'000;
// Values of all samples: 127x.
inline constexpr uint64_t kMaxProfileValues = 16'000'000;
// Labels of all samples: 85x.
inline constexpr uint64_t kMaxProfileLabels = 8'000'000;
// Frames of one sample, inline frames counted: an 8 MiB thread stack holds
// at most 524,288 frames of 16 bytes, and benchprof's collectors keep 64 or
// 128 (Go's, 64 or 128; Linux perf's, 127 unless raised).
inline constexpr uint64_t kMaxProfileStackDepth = 1'000'000;
// Frames of all samples, inline frames counted (what a flame graph walks):
// 12x the heap profile of every allocation, 63x the CPU profile.
inline constexpr uint64_t kMaxProfileFrames = 16'000'000;
// Fields the format does not define, which protobuf keeps anyway; real
// profiles have none.
inline constexpr uint64_t kMaxProfileUnknownFields = 1'000'000;

// What ReadProfile accepts; tests and the fuzz target lower them.
struct ProfileLimits {
  size_t bytes = kMaxProfileBytes;
  uint64_t strings = kMaxProfileStrings;
  uint64_t string_bytes = kMaxProfileStringBytes;
  uint64_t sample_types = kMaxProfileSampleTypes;
  uint64_t comments = kMaxProfileComments;
  uint64_t mappings = kMaxProfileMappings;
  uint64_t functions = kMaxProfileFunctions;
  uint64_t locations = kMaxProfileLocations;
  uint64_t lines = kMaxProfileLines;
  uint64_t samples = kMaxProfileSamples;
  uint64_t values = kMaxProfileValues;
  uint64_t labels = kMaxProfileLabels;
  uint64_t stack_depth = kMaxProfileStackDepth;
  uint64_t frames = kMaxProfileFrames;
  uint64_t unknown_fields = kMaxProfileUnknownFields;
};

// Decodes `bytes`, the contents of a pprof profile file. Fails with one line
// when the input is empty, is corrupt or truncated gzip, is not a protobuf
// message, sets time_nanos twice (concatenated profiles), has no string
// table or one whose element 0 is not "", uses a string index out of range,
// gives a mapping, location or function id 0 or an id already used, refers
// to an id that does not exist, or has samples whose value count differs
// from the number of sample types (or samples but no sample types). Fails
// too, saying "over the reader's limit", when it holds more than `limits`
// allow (bytes, checked after gzip, or any count), or uses protobuf groups,
// which the format never does.
StatusOr<ProfileData> ReadProfile(std::string_view bytes, const ProfileLimits& limits = {});

}  // namespace benchprof::encode

#endif  // BENCHPROF_ENCODE_PPROF_READER_H_
