// The callgrind reader (tools/gate/callgrind_functions.h) against files in
// callgrind's format: self costs, call costs left out, name compression,
// relative positions, several position columns, inlined files, errors.
#include "tools/gate/callgrind_functions.h"

#include <gtest/gtest.h>

namespace benchprof::gate {
namespace {

const CallgrindFunction* Find(const CallgrindProfile& profile, const std::string& name) {
  for (const CallgrindFunction& f : profile.functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

TEST(CallgrindFunctionsTest, SelfCostsLeaveCallCostsOut) {
  const StatusOr<CallgrindProfile> profile = ParseCallgrindFile(
      "# callgrind format\n"
      "version: 1\n"
      "desc: Iterations: 100\n"
      "positions: line\n"
      "events: Ir\n"
      "summary: 1000\n"
      "\n"
      "ob=/bin/prog\n"
      "fl=/src/a.cc\n"
      "fn=Outer()\n"
      "10 5\n"
      "+2 7\n"
      "cfn=Inner()\n"
      "calls=3 40\n"
      "12 900\n"  // the call's inclusive cost: not Outer's own
      "* 1\n"     // line 12 again
      "fn=Inner()\n"
      "40 300\n"
      "fi=/src/build/../inline.h\n"
      "7 600\n");
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  EXPECT_EQ(profile->iterations, 100u);
  EXPECT_EQ(profile->total, 5u + 7 + 1 + 300 + 600);
  const CallgrindFunction* outer = Find(*profile, "Outer()");
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->self, 13u);
  EXPECT_EQ(outer->hottest_line, 12);  // 7 + 1
  EXPECT_EQ(outer->file, "/src/a.cc");
  const CallgrindFunction* inner = Find(*profile, "Inner()");
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->self, 900u);
  EXPECT_EQ(inner->file, "/src/inline.h");
  EXPECT_EQ(inner->hottest_line, 7);
}

TEST(CallgrindFunctionsTest, NameCompressionAndSeveralColumns) {
  const StatusOr<CallgrindProfile> profile = ParseCallgrindFile(
      "positions: instr line\n"
      "events: Dr Ir\n"
      "fl=(1) /src/b.cc\n"
      "fn=(1) First\n"
      "0x400 20 9 100\n"
      "+4 +1 9 50\n"
      "fn=(2) Second\n"
      "fn=(below main)\n"
      "3 4 0 4\n"
      "fn=(2)\n"
      "0x500 30 1 10\n"
      "fn=(1)\n"
      "-4 -10 1 5\n"
      "cfn=(2)\n"
      "calls=1 0x500 30\n"
      "* * 0 999\n");
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  const CallgrindFunction* first = Find(*profile, "First");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->self, 155u);
  EXPECT_EQ(first->hottest_line, 20);
  EXPECT_EQ(first->file, "/src/b.cc");
  const CallgrindFunction* second = Find(*profile, "Second");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->self, 10u);
  EXPECT_EQ(profile->total, 169u);
  const CallgrindFunction* below = Find(*profile, "(below main)");
  ASSERT_NE(below, nullptr);
  EXPECT_EQ(below->self, 4u);
}

TEST(CallgrindFunctionsTest, MalformedFilesAreOneLineErrors) {
  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"", "no \"events:\" line"},
           {"events: Dr\n", "do not include Ir"},
           {"events: Ir\nfn=(3)\n", "line 2: undefined function id"},
           {"events: Ir\n10 5\n", "line 2: a cost line outside any function"},
           {"fn=f\n10 5\n", "line 2: a cost line before"},
           {"events: Ir\nfn=f\n10 x\n", "line 3: malformed cost"},
           {"events: Ir\nfn=f\n+q 1\n", "line 3: malformed position"},
           {"events: Ir\nhello world\n", "line 2: not a callgrind line"},
           {"events: Ir\nxyz=1\n", "line 2: unknown line"},
       }) {
    const StatusOr<CallgrindProfile> profile = ParseCallgrindFile(text);
    ASSERT_FALSE(profile.ok()) << text;
    EXPECT_NE(profile.status().message().find(expected), std::string::npos)
        << text << " -> " << profile.status().message();
    EXPECT_EQ(profile.status().message().find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace benchprof::gate
