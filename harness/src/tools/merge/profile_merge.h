// Joins pprof profiles of one kind — one per shard of a sharded run — into
// one profile, as `go tool pprof -proto a.pprof b.pprof` does: the samples
// are concatenated with their labels (so `-tagfocus=benchmark=...` still
// splits the merged profile by benchmark), and mappings, functions and
// locations that the inputs share are kept once.
//
// The shards are separate processes, so one executable is mapped at a
// different address in each (ASLR). Mappings are therefore matched by what
// does not move — their size, file offset and build id (or file name when
// there is none) — and each input's locations are moved to the matched
// mapping's address, so the same code in two shards is one location.
//
//   std::vector<NamedProfile> shards = ...;  // read with encode::ReadProfile
//   StatusOr<ProfileData> merged = MergeProfiles(shards);
//
// Thread-safety: thread-safe (a pure function).
#ifndef BENCHPROF_TOOLS_MERGE_PROFILE_MERGE_H_
#define BENCHPROF_TOOLS_MERGE_PROFILE_MERGE_H_

#include <span>
#include <string>

#include "common/status.h"
#include "encode/profile_data.h"

namespace benchprof::merge {

// A profile and the file it came from, for messages.
struct NamedProfile {
  std::string path;
  encode::ProfileData profile;
};

// The profiles as one. The sample types, period type, period and default
// sample type are the first's; the start time is the earliest, the
// duration the sum (the time collected, as pprof adds them); comments are
// kept once each, in order. Fails with one line naming two inputs when
// their sample types or period types differ (a heap profile and a CPU
// profile: "cpu.pprof (samples/count, cpu/nanoseconds) and mem.pprof
// (alloc_objects/count, ...) are different kinds of profile"). REQUIRES:
// `profiles` is not empty.
StatusOr<encode::ProfileData> MergeProfiles(std::span<const NamedProfile> profiles);

}  // namespace benchprof::merge

#endif  // BENCHPROF_TOOLS_MERGE_PROFILE_MERGE_H_
