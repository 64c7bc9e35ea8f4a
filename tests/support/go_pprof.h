// Runs `go tool pprof`, the tool users read benchprof's profiles with, as a
// test oracle: with its home, cache and settings inside a test's TempDir, so
// nothing of the user's setup changes what it prints.
//
//   TempDir dir;
//   ProcessResult top = RunGoPprof(GO_PATH, {"-top", profile}, dir);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TESTS_SUPPORT_GO_PPROF_H_
#define BENCHPROF_TESTS_SUPPORT_GO_PPROF_H_

#include <string>
#include <vector>

#include "support/subprocess.h"

namespace benchprof::testing {

// Runs `<go> tool pprof <args...>` in `home`, with HOME, GOCACHE and
// PPROF_TMPDIR there too. `go` is the go binary's path; file arguments must
// be absolute paths.
ProcessResult RunGoPprof(const std::string& go, const std::vector<std::string>& args,
                         const TempDir& home);

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_GO_PPROF_H_
