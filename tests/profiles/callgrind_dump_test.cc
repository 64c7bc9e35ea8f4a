// profiles/callgrind_dump.h and the file names --callgrind_out gives.
#include "profiles/callgrind_dump.h"

#include <gtest/gtest.h>

#include "profiles/instructions_profile.h"

namespace benchprof::profiles {
namespace {

constexpr char kDump[] =
    "# callgrind format\n"
    "version: 1\n"
    "creator: callgrind-3.19.0\n"
    "pid: 42\n"
    "cmd:  ./bench --instructions\n"
    "part: 3\n"
    "\n"
    "desc: Trigger: Client Request: benchprof run 3\n"
    "\n"
    "positions: line\n"
    "events: Ir\n"
    "summary: 123456\n"
    "\n"
    "ob=/bench\n"
    "fl=???\n"
    "fn=(below main)\n"
    "cob=/libc.so.6\n"
    "cfi=libc-start.c\n"
    "cfn=__libc_start_main\n"
    "calls=0 242 \n"
    "0 123456\n"
    "\n"
    "fl=stream.cc\n"
    "fn=algOne\n"
    "10 100\n"
    "cfn=memcpy\n"
    "calls=3 7 \n"
    "11 60\n"
    "\n"
    "totals: 123456\n";

TEST(CallgrindDumpTest, ReadsTriggerAndSummary) {
  StatusOr<CallgrindDump> dump = ParseCallgrindHeader(kDump);
  ASSERT_TRUE(dump.ok()) << dump.status().message();
  EXPECT_EQ(dump->trigger, "Client Request: benchprof run 3");
  EXPECT_EQ(dump->instructions, 123456u);
}

TEST(CallgrindDumpTest, RefusesOtherEventsAndMissingSummary) {
  EXPECT_FALSE(ParseCallgrindHeader("events: Dr Ir\nsummary: 5\n").ok());
  EXPECT_FALSE(ParseCallgrindHeader("events: Ir\nfn=main\n1 5\n").ok());
  EXPECT_FALSE(ParseCallgrindHeader("events: Ir\nsummary: 12x\n").ok());
  EXPECT_FALSE(ParseCallgrindHeader("").ok());
}

TEST(CallgrindDumpTest, DropsOnlyUncountedCallArcs) {
  const std::string filtered = WithoutUncountedCalls(kDump);
  EXPECT_EQ(filtered.find("__libc_start_main"), std::string::npos);
  EXPECT_EQ(filtered.find("calls=0"), std::string::npos);
  EXPECT_EQ(filtered.find("0 123456\n"), std::string::npos);
  // The counted arc and every other line stay, in order.
  EXPECT_NE(filtered.find("fn=algOne\n10 100\ncfn=memcpy\ncalls=3 7 \n11 60\n"), std::string::npos);
  EXPECT_NE(filtered.find("fn=(below main)\n\nfl=stream.cc\n"), std::string::npos) << filtered;
  EXPECT_NE(filtered.find("summary: 123456\n"), std::string::npos);
  EXPECT_NE(filtered.find("totals: 123456\n"), std::string::npos);
}

TEST(CallgrindDumpTest, FileNamesFollowTheRunName) {
  EXPECT_EQ(CallgrindFileName("BM_AlgorithmOne"), "callgrind.out.BM_AlgorithmOne");
  EXPECT_EQ(CallgrindFileName("BM_Render/optimized/640x480/workers:2/real_time"),
            "callgrind.out.BM_Render.optimized.640x480.workers:2.real_time");
  EXPECT_EQ(CallgrindFileName("Fixture/A b<c>"), "callgrind.out.Fixture.A_b_c_");
}

}  // namespace
}  // namespace benchprof::profiles
