// What every Perfetto trace the tracer's integration tests write must pass:
// protoc decodes it against proto/perfetto_trace.proto, and the checker
// (tests/support/perfetto_checker.h) finds no broken rule.
//
//   const std::string text = ExpectValidPerfettoFile(path);   // protoc's text
//
// Thread-safety: as GoogleTest's assertions.
#ifndef BENCHPROF_TESTS_TRACER_VALID_PERFETTO_FILE_H_
#define BENCHPROF_TESTS_TRACER_VALID_PERFETTO_FILE_H_

#include <gtest/gtest.h>

#include <string>

#include "support/perfetto_checker.h"
#include "support/subprocess.h"

namespace benchprof::testing {

// Fails the calling test unless the file at `path` decodes and follows the
// rules, with at least one track event; returns protoc's text form.
inline std::string ExpectValidPerfettoFile(const std::string& path) {
  std::string error;
  const std::string text = ProtocDecode(PROTOC_PATH, PROTO_DIR, path, &error);
  EXPECT_EQ(error, "");
  const PerfettoCheck check = CheckPerfettoTrace(ReadFile(path));
  EXPECT_TRUE(check.problems.empty()) << ::testing::PrintToString(check.problems);
  EXPECT_GT(check.track_events, 0u);
  return text;
}

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_TRACER_VALID_PERFETTO_FILE_H_
