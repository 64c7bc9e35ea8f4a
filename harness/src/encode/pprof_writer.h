// Encodes a ProfileData as a pprof profile (perftools.profiles.Profile), the
// file `go tool pprof` reads.
//
// The encoding is a pure function of the data, so it can run anywhere after
// collection stops and be tested byte for byte. It derives everything the
// format needs that ProfileData leaves implicit: the string table (element 0
// is "", each string stored once, in order of first use), and the ids of
// mappings, locations and functions (vector index + 1, so never 0). Each
// scalar field is written once, so the output is never mistaken for two
// concatenated profiles.
//
//   Status valid = ValidateProfile(profile);        // optional: Write does it
//   StatusOr<AtomicFile> out = AtomicFile::Create("cpu.pprof");
//   if (!out.ok()) return out.status();
//   if (Status s = WriteProfileFile(profile, out->temp_path()); !s.ok()) return s;
//   return out->Commit();
//
// Thread-safety: thread-safe (no shared state); the ProfileData must not be
// modified during a call.
#ifndef BENCHPROF_ENCODE_PPROF_WRITER_H_
#define BENCHPROF_ENCODE_PPROF_WRITER_H_

#include <string>

#include "common/status.h"
#include "encode/profile_data.h"

namespace benchprof::encode {

// Checks the rules pprof relies on but does not always enforce loudly.
// Fails, with one line naming the first offending item, when:
// - samples exist but sample_types is empty, or a sample's value count
//   differs from the number of sample types;
// - a location, mapping or function index is out of range;
// - default_sample_type is set but names none of the sample types (pprof
//   would silently show the last type instead);
// - a label has an empty key or a key starting "pprof::" (reserved), has
//   both a string and a numeric value, or has neither (empty str, num 0 and
//   no unit: pprof silently drops such a label).
Status ValidateProfile(const ProfileData& profile);

// Returns the profile as uncompressed protobuf wire bytes. It never reads
// outside the profile's vectors, but the result is a valid pprof profile only
// if ValidateProfile(profile) succeeds.
std::string SerializeProfile(const ProfileData& profile);

// Validates the profile, then writes it gzip-compressed (the on-disk pprof
// format) to `path`, replacing its contents. Pass an AtomicFile's temp_path()
// so readers never see a partial profile. Fails with one line, without
// writing, if validation fails; otherwise if the file cannot be written.
Status WriteProfileFile(const ProfileData& profile, const std::string& path);

}  // namespace benchprof::encode

#endif  // BENCHPROF_ENCODE_PPROF_WRITER_H_
