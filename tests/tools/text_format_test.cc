// tools::OneLine, the one function every output but JSON passes text from
// input files through: what it replaces (checked on every code point
// against the list docs/compare.md gives), what it keeps, and the CI
// command markers it breaks.
#include "tools/text_format.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/utf8.h"

namespace benchprof::tools {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

bool LineBreak(uint32_t c) {
  return c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == 0x85 ||
         c == 0x2028 || c == 0x2029;
}

bool Hidden(uint32_t c) {
  if (LineBreak(c)) return false;
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200E ||
         c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

TEST(OneLineTest, EveryCodePoint) {
  for (uint32_t c = 0; c <= 0x10FFFF; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;  // no UTF-8 form
    if (c == '#' || c == ':') continue;        // the command markers, below
    std::string in;
    AppendUtf8(in, c);
    const std::string expected = LineBreak(c) ? " " : Hidden(c) ? kFffd : in;
    ASSERT_EQ(OneLine(in), expected) << "U+" << std::hex << c;
    ASSERT_EQ(OneLine("a" + in + "b"), "a" + expected + "b") << "U+" << std::hex << c;
  }
}

TEST(OneLineTest, KeepsOrdinaryNames) {
  for (const char* name :
       {"BM_AlgorithmOne", "BM_Vector/8/threads:2", "ns::Class::method(int) const", "a:b", ":",
        "#1", "a#b#c", "\xC2\xB5s", "\xF0\x9F\x98\x80", "caf\xC3\xA9", "x\xE2\x80\x8By",
        "\xC2\xA0nbsp", ""}) {
    EXPECT_EQ(OneLine(name), name);
  }
}

TEST(OneLineTest, LineBreaksBecomeSpacesOtherControlsAndBidiTheReplacementCharacter) {
  EXPECT_EQ(OneLine("BM_a\n::warning::x"), "BM_a ::warning::x");
  EXPECT_EQ(OneLine("a\r\nb\tc"), "a  b c");
  EXPECT_EQ(OneLine("BM_\x1b[31mred\x1b[0m"), "BM_" + kFffd + "[31mred" + kFffd + "[0m");
  EXPECT_EQ(OneLine("BM_rlo\u202Eevil"), "BM_rlo" + kFffd + "evil");
  EXPECT_EQ(OneLine("a\u2066b\u2069c"), "a" + kFffd + "b" + kFffd + "c");
  EXPECT_EQ(OneLine(std::string("a\0b", 3)), "a" + kFffd + "b");
}

TEST(OneLineTest, MalformedUtf8IsOneReplacementPerByte) {
  // A lone continuation byte, a cut sequence, an overlong '/', a surrogate,
  // a byte never used in UTF-8, a sequence cut at the end.
  EXPECT_EQ(OneLine("a\x80"
                    "b\xC3"
                    "c\xC0\xAF"
                    "d\xED\xA0\x80"
                    "e\xFF"
                    "f\xE2\x82"),
            "a" + kFffd + "b" + kFffd + "c" + kFffd + kFffd + "d" + kFffd + kFffd + kFffd + "e" +
                kFffd + "f" + kFffd + kFffd);
}

TEST(OneLineTest, NoWorkflowCommandAtTheStart) {
  EXPECT_EQ(OneLine("::warning::x"), kFffd + ":warning::x");
  EXPECT_EQ(OneLine("::"), kFffd + ":");
  EXPECT_EQ(OneLine("  ::error::x"), "  " + kFffd + ":error::x");
  EXPECT_EQ(OneLine("\n::stop-commands::t"), " " + kFffd + ":stop-commands::t");
  // White space the GitHub runner trims too (char.IsWhiteSpace).
  EXPECT_EQ(OneLine("\xC2\xA0::x::"), "\xC2\xA0" + kFffd + ":x::");
  EXPECT_EQ(OneLine("\xE3\x80\x80::x::"), "\xE3\x80\x80" + kFffd + ":x::");
  EXPECT_EQ(OneLine("\xE2\x80\x83::x::"), "\xE2\x80\x83" + kFffd + ":x::");
  // Elsewhere "::" is C++.
  EXPECT_EQ(OneLine("a ::b"), "a ::b");
  EXPECT_EQ(OneLine(":a::b"), ":a::b");
}

TEST(OneLineTest, NoDoubleHash) {
  EXPECT_EQ(OneLine("BM_##[warning]x"), "BM_#" + kFffd + "[warning]x");
  EXPECT_EQ(OneLine("##vso[task.setvariable]"), "#" + kFffd + "vso[task.setvariable]");
  EXPECT_EQ(OneLine("###"), "#" + kFffd + "#");
  EXPECT_EQ(OneLine("####"), "#" + kFffd + "#" + kFffd);
}

TEST(OneLineTest, GivenReplacement) {
  EXPECT_EQ(OneLine("a\x1b\u202E##\xFF::\n", "_"), "a__#__:: ");
  EXPECT_EQ(OneLine("::x", "_"), "_:x");
}

TEST(OneLineTest, Idempotent) {
  const std::vector<std::string> texts = {"BM_a\n::warning::x",
                                          "\n::stop",
                                          "::e",
                                          "\xE3\x80\x80::w",
                                          "a##[b",
                                          "###",
                                          "\x1b\u202E",
                                          "a\xFF\xC3",
                                          "#\xFF#",
                                          "#\n#",
                                          "x::y",
                                          "\xC2\x85::z"};
  for (const std::string& text : texts) {
    const std::string once = OneLine(text);
    EXPECT_EQ(OneLine(once), once) << text;
    EXPECT_EQ(once.find("##"), std::string::npos) << text;
    EXPECT_EQ(once.find('\n'), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace benchprof::tools
