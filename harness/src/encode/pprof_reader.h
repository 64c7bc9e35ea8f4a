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
//   StatusOr<ProfileData> profile = ReadProfile(file_contents);
//   if (!profile.ok()) return profile.status().WithContext(path);
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_ENCODE_PPROF_READER_H_
#define BENCHPROF_ENCODE_PPROF_READER_H_

#include <string_view>

#include "common/status.h"
#include "encode/profile_data.h"

namespace benchprof::encode {

// Decodes `bytes`, the contents of a pprof profile file. Fails with one line
// when the input is empty, is corrupt or truncated gzip, is not a protobuf
// message, sets time_nanos twice (concatenated profiles), has no string
// table or one whose element 0 is not "", uses a string index out of range,
// gives a mapping, location or function id 0 or an id already used, refers
// to an id that does not exist, or has samples whose value count differs
// from the number of sample types (or samples but no sample types).
StatusOr<ProfileData> ReadProfile(std::string_view bytes);

}  // namespace benchprof::encode

#endif  // BENCHPROF_ENCODE_PPROF_READER_H_
